package io.videoworld.connectors.framestore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A frame store whose files are encrypted at rest with AES-256-GCM: each file is a 4-byte magic,
 * a random 12-byte nonce and the ciphertext with its 16-byte tag; the file's key in the store is
 * the associated data, so a file moved under another key does not decrypt. The key comes from
 * {@link #KEY_ENV} (32 bytes, base64) in the environment of the job's task managers and of the
 * query service. Without a key this store writes plain files and refuses, naming the variable, to
 * hand out a file that is encrypted; with one it still reads files written before encryption was on.
 */
public final class EncryptedFrameStore implements FrameStore {
    /** The environment variable holding the key: 32 bytes, base64. */
    public static final String KEY_ENV = "VW_FRAME_STORE_KEY";
    private static final byte[] MAGIC = {'V', 'W', 'E', '1'};
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final FrameStore inner;
    private final SecretKeySpec key;

    /** Encrypts into {@code inner} with {@code key} (32 bytes); a null key writes plain files. */
    public EncryptedFrameStore(FrameStore inner, byte[] key) {
        if (key != null && key.length != 32) {
            throw new IllegalArgumentException(KEY_ENV + " must be 32 bytes (base64), not " + key.length);
        }
        this.inner = inner;
        this.key = key == null ? null : new SecretKeySpec(key, "AES");
    }

    /** The key {@code base64} names, or null when it is null or blank; IllegalArgumentException when it is not 32 bytes of base64. */
    public static byte[] key(String base64) {
        if (base64 == null || base64.isBlank()) {
            return null;
        }
        try {
            return Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(KEY_ENV + " is not base64: " + e.getMessage(), e);
        }
    }

    /** Whether files are encrypted on write. */
    public boolean encrypts() {
        return key != null;
    }

    @Override
    public void put(String storeKey, byte[] jpeg) throws IOException {
        if (key == null) {
            inner.put(storeKey, jpeg);
            return;
        }
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(storeKey.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = c.doFinal(jpeg);
            inner.put(storeKey, ByteBuffer.allocate(MAGIC.length + NONCE + sealed.length).put(MAGIC).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IOException("could not encrypt " + storeKey + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<byte[]> get(String storeKey) throws IOException {
        Optional<byte[]> stored = inner.get(storeKey);
        if (stored.isEmpty() || !encrypted(stored.get())) {
            return stored;
        }
        if (key == null) {
            throw new IOException("frame store file " + storeKey + " is encrypted: set " + KEY_ENV + " to the key it was written with");
        }
        byte[] b = stored.get();
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, b, MAGIC.length, NONCE));
            c.updateAAD(storeKey.getBytes(StandardCharsets.UTF_8));
            return Optional.of(c.doFinal(b, MAGIC.length + NONCE, b.length - MAGIC.length - NONCE));
        } catch (AEADBadTagException e) {
            throw new IOException("frame store file " + storeKey + " does not decrypt: " + KEY_ENV + " is not the key it was written with, "
                    + "or the file was changed", e);
        } catch (GeneralSecurityException e) {
            throw new IOException("could not decrypt " + storeKey + ": " + e.getMessage(), e);
        }
    }

    private static boolean encrypted(byte[] b) {
        return b.length > MAGIC.length + NONCE && Arrays.equals(b, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    @Override
    public void delete(String storeKey) throws IOException {
        inner.delete(storeKey);
    }

    @Override
    public void deleteStream(String streamId) throws IOException {
        inner.deleteStream(streamId);
    }

    @Override
    public String toString() {
        return inner + (key == null ? "" : " (encrypted)");
    }
}
