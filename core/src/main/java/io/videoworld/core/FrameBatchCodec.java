package io.videoworld.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import java.io.IOException;
import java.util.Arrays;

/**
 * The versioned wire format of {@link FrameBatch}: the two magic bytes {@code 'V' 'W'}, one
 * version byte, then the batch as CBOR (RFC 8949) with snake_case field names. JPEG bytes are
 * CBOR byte strings, so a frame costs its JPEG plus a few dozen bytes, unlike JSON+base64 which
 * costs a third more.
 *
 * <p>Decoding checks what every consumer relies on (a valid stream id, at least one frame,
 * structurally valid JPEGs of the stated size, increasing presentation times) and throws
 * {@link MalformedBatchException} with a reason fit for a dead-letter header.
 */
public final class FrameBatchCodec {
    public static final byte MAGIC_0 = 'V';
    public static final byte MAGIC_1 = 'W';
    public static final byte VERSION = 1;
    private static final int HEADER = 3;

    private static final ObjectMapper CBOR = CBORMapper.builder(new CBORFactory())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private FrameBatchCodec() {}

    /** Encodes a batch; the batch is not validated here so tests can make malformed ones. */
    public static byte[] encode(FrameBatch batch) {
        try {
            byte[] body = CBOR.writeValueAsBytes(batch);
            byte[] out = new byte[HEADER + body.length];
            out[0] = MAGIC_0;
            out[1] = MAGIC_1;
            out[2] = VERSION;
            System.arraycopy(body, 0, out, HEADER, body.length);
            return out;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode frame batch", e);
        }
    }

    /** Decodes and validates; never returns an unusable batch. */
    public static FrameBatch decode(byte[] bytes) throws MalformedBatchException {
        if (bytes == null || bytes.length < HEADER) {
            throw new MalformedBatchException("too short: " + (bytes == null ? 0 : bytes.length) + " bytes");
        }
        if (bytes[0] != MAGIC_0 || bytes[1] != MAGIC_1) {
            throw new MalformedBatchException("not a VideoWorld frame batch (bad magic bytes "
                    + String.format("%02x%02x", bytes[0], bytes[1]) + ")");
        }
        if (bytes[2] != VERSION) {
            throw new MalformedBatchException("unsupported wire version " + bytes[2] + " (this build reads " + VERSION + ")");
        }
        FrameBatch batch;
        try {
            batch = CBOR.readValue(Arrays.copyOfRange(bytes, HEADER, bytes.length), FrameBatch.class);
        } catch (IOException e) {
            throw new MalformedBatchException("undecodable CBOR body: " + firstLine(e.getMessage()));
        }
        validate(batch);
        return batch;
    }

    private static void validate(FrameBatch b) throws MalformedBatchException {
        if (b == null) {
            throw new MalformedBatchException("empty body");
        }
        try {
            Ids.checkStreamId(b.streamId());
        } catch (IllegalArgumentException e) {
            throw new MalformedBatchException(e.getMessage());
        }
        if (b.sourceKind() == null) {
            throw new MalformedBatchException("missing source_kind");
        }
        if (b.seq() < 0) {
            throw new MalformedBatchException("negative seq " + b.seq());
        }
        if (b.frames() == null || b.frames().isEmpty()) {
            throw new MalformedBatchException("empty batch: no frames");
        }
        long lastPts = Long.MIN_VALUE;
        for (Frame f : b.frames()) {
            if (f == null) {
                throw new MalformedBatchException("null frame in batch");
            }
            if (f.index() < 0 || f.ptsMs() < 0) {
                throw new MalformedBatchException("frame " + f.index() + ": negative index or pts");
            }
            if (f.ptsMs() < lastPts) {
                throw new MalformedBatchException("frame " + f.index() + ": pts " + f.ptsMs() + " goes backwards");
            }
            lastPts = f.ptsMs();
            JpegInfo info = JpegInfo.parse(f.jpeg());
            if (info == null) {
                throw new MalformedBatchException("frame " + f.index() + ": corrupt JPEG");
            }
            if (f.thumb() != null && JpegInfo.parse(f.thumb()) == null) {
                throw new MalformedBatchException("frame " + f.index() + ": corrupt thumbnail JPEG");
            }
            if (info.width() != f.width() || info.height() != f.height()) {
                throw new MalformedBatchException("frame " + f.index() + ": JPEG is " + info.width() + "x" + info.height()
                        + " but the batch says " + f.width() + "x" + f.height());
            }
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
