package io.videoworld.query.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Bearer tokens and the streams each may read. Configured by a JSON file:
 * <pre>{"tokens": [{"name": "lobby-team", "token": "…", "streams": ["lobby-*"]},
 *            {"name": "ops", "token": "…", "admin": true}]}</pre>
 * and/or an admin token in {@code VW_ADMIN_TOKEN}. With no token configured at all,
 * authentication is off (the local demo) and {@code /health} says so.
 */
public final class Auth {
    private final Map<String, Caller> byTokenHash;

    private Auth(Map<String, Caller> byTokenHash) {
        this.byTokenHash = byTokenHash;
    }

    /** No tokens: everyone may read everything. */
    public static Auth off() {
        return new Auth(Map.of());
    }

    /** Tokens from a file (may be null) plus an optional admin token. */
    public static Auth load(Path file, String adminToken) throws IOException {
        Map<String, Caller> tokens = new HashMap<>();
        if (file != null) {
            JsonNode root = Json.MAPPER.readTree(Files.readString(file));
            for (JsonNode t : root.path("tokens")) {
                String token = t.path("token").asText("");
                if (token.length() < 16) {
                    throw new IOException("token '" + t.path("name").asText("?") + "' in " + file + " is shorter than 16 characters");
                }
                List<String> streams = new ArrayList<>();
                t.path("streams").forEach(s -> streams.add(s.asText()));
                tokens.put(hash(token), new Caller(t.path("name").asText("unnamed"), t.path("admin").asBoolean(false), streams));
            }
        }
        if (adminToken != null && !adminToken.isBlank()) {
            tokens.put(hash(adminToken), new Caller("admin", true, List.of()));
        }
        return new Auth(Map.copyOf(tokens));
    }

    public boolean enabled() {
        return !byTokenHash.isEmpty();
    }

    /** The caller an {@code Authorization} header names; empty when the token is missing or unknown. */
    public Optional<Caller> authenticate(String authorizationHeader) {
        if (!enabled()) {
            return Optional.of(Caller.ANYONE);
        }
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        return Optional.ofNullable(byTokenHash.get(hash(authorizationHeader.substring(7).trim())));
    }

    /** Tokens are looked up by digest so the map never holds them and lookups take the same time. */
    private static String hash(String token) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
