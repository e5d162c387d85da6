package io.videoworld.query.alerts;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs webhook deliveries the way GitHub and Stripe do: {@code X-VW-Signature: v1=<hex>} is the
 * HMAC-SHA256, keyed with the alert's secret (the whole {@code whsec_…} string as UTF-8), of
 * {@code "<X-VW-Timestamp>.<body>"}. The timestamp is inside the signed text so a receiver can refuse
 * an old delivery played again; see {@code docs/webhooks.md} for a receiver's side.
 */
public final class WebhookSignature {
    public static final String TIMESTAMP_HEADER = "X-VW-Timestamp";
    public static final String SIGNATURE_HEADER = "X-VW-Signature";
    public static final String SCHEME = "v1";
    /** How old a delivery a receiver should still take by default: Stripe's choice, long enough for clock skew. */
    public static final long DEFAULT_TOLERANCE_S = 300;
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSignature() {}

    /** A new secret: 32 random bytes, hex, after {@code whsec_} so it is recognised where it leaks. */
    public static String newSecret() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return "whsec_" + HexFormat.of().formatHex(b);
    }

    /** The {@code X-VW-Signature} value for a body sent at {@code timestampS} (Unix seconds). */
    public static String sign(String secret, long timestampS, byte[] body) {
        return SCHEME + "=" + HexFormat.of().formatHex(hmac(secret, timestampS, body));
    }

    /**
     * What a receiver does: recomputes the signature and compares it in constant time, and refuses a
     * timestamp further than {@code toleranceS} from {@code nowS}. The header may list several
     * {@code v1=} values, comma separated, as it will while a secret is being rolled.
     */
    public static boolean verify(String secret, String timestampHeader, String signatureHeader, byte[] body, long nowS, long toleranceS) {
        if (secret == null || timestampHeader == null || signatureHeader == null || body == null) {
            return false;
        }
        long ts;
        try {
            ts = Long.parseLong(timestampHeader.strip());
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(nowS - ts) > toleranceS) {
            return false;
        }
        byte[] expected = hmac(secret, ts, body);
        for (String part : signatureHeader.split(",")) {
            String p = part.strip();
            if (p.startsWith(SCHEME + "=")) {
                try {
                    if (MessageDigest.isEqual(expected, HexFormat.of().parseHex(p.substring(SCHEME.length() + 1)))) {
                        return true;
                    }
                } catch (IllegalArgumentException e) {
                    // Not hex: not a match; another value in the header may still be.
                }
            }
        }
        return false;
    }

    private static byte[] hmac(String secret, long timestampS, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestampS + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
