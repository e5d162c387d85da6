package io.videoworld.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The envelope every wire record shares: two magic bytes naming the record, one version byte, then
 * the record as strict CBOR. Refusals name what was expected, for dead-letter headers.
 */
final class WireEnvelope {
    static final int HEADER = 3;

    private final byte magic0;
    private final byte magic1;
    private final byte version;
    /** The record's name in messages, e.g. "frame batch". */
    private final String what;
    /** How the version is named in messages, e.g. "wire version". */
    private final String versionName;
    private final ObjectMapper cbor;

    WireEnvelope(byte magic0, byte magic1, byte version, String what, String versionName, ObjectMapper cbor) {
        this.magic0 = magic0;
        this.magic1 = magic1;
        this.version = version;
        this.what = what;
        this.versionName = versionName;
        this.cbor = cbor;
    }

    byte[] encode(Object record) {
        try {
            byte[] body = cbor.writeValueAsBytes(record);
            byte[] out = new byte[HEADER + body.length];
            out[0] = magic0;
            out[1] = magic1;
            out[2] = version;
            System.arraycopy(body, 0, out, HEADER, body.length);
            return out;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + what, e);
        }
    }

    /** The record in {@code bytes}, not yet validated; a bad header or body is refused with the reason. */
    <T> T decode(byte[] bytes, Class<T> type) throws MalformedBatchException {
        if (bytes == null || bytes.length < HEADER) {
            throw new MalformedBatchException("too short: " + (bytes == null ? 0 : bytes.length) + " bytes");
        }
        if (bytes[0] != magic0 || bytes[1] != magic1) {
            throw new MalformedBatchException("not a VideoWorld " + what + " (bad magic bytes " + String.format("%02x%02x", bytes[0], bytes[1]) + ")");
        }
        if (bytes[2] != version) {
            throw new MalformedBatchException("unsupported " + versionName + " " + bytes[2] + " (this build reads " + version + ")");
        }
        try {
            return cbor.readValue(bytes, HEADER, bytes.length - HEADER, type);
        } catch (IOException e) {
            throw new MalformedBatchException("undecodable CBOR body: " + firstLine(e.getMessage()));
        }
    }

    static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
