package io.videoworld.core;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import java.io.IOException;

/**
 * The versioned wire format of {@link FrameBatch}: the two magic bytes {@code 'V' 'W'}, one
 * version byte, then the batch as CBOR (RFC 8949) with snake_case field names. JPEG bytes are
 * CBOR byte strings, so a frame costs its JPEG plus a few dozen bytes, unlike JSON+base64 which
 * costs a third more.
 *
 * <p>Decoding is strict, because whatever passes here is trusted by every operator: no type
 * coercion (a stream id sent as a number, a JPEG sent as base64 text, a time sent as a float or
 * NaN are refused), no duplicate keys, nothing after the CBOR map, every number in range, and
 * each JPEG's declared size checked against {@link FrameLimits} before anything decodes it. A
 * refusal throws {@link MalformedBatchException} with a reason fit for a dead-letter header.
 */
public final class FrameBatchCodec {
    public static final byte MAGIC_0 = 'V';
    public static final byte MAGIC_1 = 'W';
    public static final byte VERSION = 1;

    private static final ObjectMapper CBOR = strictMapper();
    private static final WireEnvelope ENVELOPE = new WireEnvelope(MAGIC_0, MAGIC_1, VERSION, "frame batch", "wire version", CBOR);

    private FrameBatchCodec() {}

    /** The strict CBOR mapper of the wire formats; see the class comment. */
    static ObjectMapper strictMapper() {
        CBORFactory factory = CBORFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(16).build())
                .build();
        SimpleModule byteStrings = new SimpleModule("cbor-byte-strings").addDeserializer(byte[].class, new ByteStringOnly());
        return CBORMapper.builder(factory)
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .withCoercionConfig(LogicalType.Textual, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Boolean, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Integer, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Float, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
                .addModule(byteStrings)
                .build();
    }

    /** Pictures must be CBOR byte strings: base64 text would silently cost a third more and hides a wrong producer. */
    private static final class ByteStringOnly extends StdDeserializer<byte[]> {
        ByteStringOnly() {
            super(byte[].class);
        }

        @Override
        public byte[] deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
            if (p.currentToken() == JsonToken.VALUE_EMBEDDED_OBJECT) {
                return p.getBinaryValue();
            }
            return (byte[]) ctx.handleUnexpectedToken(byte[].class, p.currentToken(), p,
                    "expected a CBOR byte string, got " + p.currentToken());
        }
    }

    /** Encodes a batch; the batch is not validated here so tests can make malformed ones. */
    public static byte[] encode(FrameBatch batch) {
        return ENVELOPE.encode(batch);
    }

    /** Decodes and validates with the default limits; never returns an unusable batch. */
    public static FrameBatch decode(byte[] bytes) throws MalformedBatchException {
        return decode(bytes, FrameLimits.DEFAULT);
    }

    /** Decodes and validates against {@code limits}; never returns an unusable batch. */
    public static FrameBatch decode(byte[] bytes, FrameLimits limits) throws MalformedBatchException {
        FrameBatch batch = ENVELOPE.decode(bytes, FrameBatch.class);
        validate(batch, limits);
        return batch;
    }

    private static void validate(FrameBatch b, FrameLimits limits) throws MalformedBatchException {
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
        if (b.sourceUri() != null && b.sourceUri().length() > limits.maxTextLength()) {
            throw new MalformedBatchException("source_uri longer than " + limits.maxTextLength() + " characters");
        }
        if (b.seq() < 0 || b.seq() > FrameLimits.MAX_SEQ) {
            throw new MalformedBatchException("seq " + b.seq() + " is outside 0-" + FrameLimits.MAX_SEQ);
        }
        inRange("epoch_ms", b.epochMs());
        if (b.source() != null) {
            validate(b.source(), limits);
        }
        if (b.frames() == null || b.frames().isEmpty()) {
            throw new MalformedBatchException("empty batch: no frames");
        }
        if (b.frames().size() > limits.maxFrames()) {
            throw new MalformedBatchException("batch of " + b.frames().size() + " frames; at most " + limits.maxFrames());
        }
        long lastPts = Long.MIN_VALUE;
        long lastIndex = -1;
        for (Frame f : b.frames()) {
            if (f == null) {
                throw new MalformedBatchException("null frame in batch");
            }
            String name = "frame " + f.index();
            if (f.index() < 0 || f.ptsMs() < 0) {
                throw new MalformedBatchException(name + ": negative index or pts");
            }
            if (f.index() > FrameLimits.MAX_FRAME_INDEX) {
                throw new MalformedBatchException(name + ": index is over " + FrameLimits.MAX_FRAME_INDEX);
            }
            if (f.index() <= lastIndex) {
                throw new MalformedBatchException(name + ": index does not increase (after " + lastIndex + ")");
            }
            lastIndex = f.index();
            inRange(name + ": pts_ms", f.ptsMs());
            if (f.ptsMs() < lastPts) {
                throw new MalformedBatchException(name + ": pts " + f.ptsMs() + " goes backwards");
            }
            lastPts = f.ptsMs();
            if (f.captureTimeMs() != null) {
                inRange(name + ": capture_time_ms", f.captureTimeMs());
            }
            if (b.epochMs() + f.ptsMs() > FrameLimits.MAX_TIME_MS) {
                throw new MalformedBatchException(name + ": epoch_ms + pts_ms is past the year 2200");
            }
            checkSize(name, f.width(), f.height(), limits);
            JpegInfo info = JpegInfo.parse(f.jpeg());
            if (info == null) {
                throw new MalformedBatchException(name + ": corrupt JPEG");
            }
            if (info.width() != f.width() || info.height() != f.height()) {
                throw new MalformedBatchException(name + ": JPEG is " + info.width() + "x" + info.height()
                        + " but the batch says " + f.width() + "x" + f.height());
            }
            if (f.thumb() != null) {
                checkThumb(name, f, limits);
            }
        }
    }

    private static void validate(SourceInfo s, FrameLimits limits) throws MalformedBatchException {
        if (!Double.isFinite(s.fps()) || s.fps() < 0 || s.fps() > 1000 || !Double.isFinite(s.sampleFps()) || s.sampleFps() < 0
                || s.sampleFps() > 1000) {
            throw new MalformedBatchException("source: fps and sample_fps must be finite, 0-1000");
        }
        if (s.codec() != null && s.codec().length() > limits.maxTextLength()) {
            throw new MalformedBatchException("source: codec longer than " + limits.maxTextLength() + " characters");
        }
        if (s.width() < 0 || s.height() < 0 || s.width() > limits.maxSide() * 4 || s.height() > limits.maxSide() * 4) {
            throw new MalformedBatchException("source: width and height must be 0-" + limits.maxSide() * 4);
        }
        for (Long v : new Long[] {s.durationMs(), s.totalFrames(), s.fileSizeBytes(), s.bitrateKbps()}) {
            if (v != null && (v < 0 || v > FrameLimits.MAX_TIME_MS)) {
                throw new MalformedBatchException("source: duration, frame count, size and bitrate must be 0-" + FrameLimits.MAX_TIME_MS);
            }
        }
        if (s.audioChannels() < 0 || s.audioChannels() > 64 || s.audioSampleRate() < 0 || s.audioSampleRate() > 1_000_000) {
            throw new MalformedBatchException("source: audio channels 0-64 and sample rate 0-1000000");
        }
    }

    private static void checkThumb(String name, Frame f, FrameLimits limits) throws MalformedBatchException {
        JpegInfo thumb = JpegInfo.parse(f.thumb());
        if (thumb == null) {
            throw new MalformedBatchException(name + ": corrupt thumbnail JPEG");
        }
        // The producer makes it THUMB_WIDTH wide with the frame's aspect ratio; anything else is
        // not a thumbnail of this frame, and a large one would be a decompression bomb.
        long expected = Math.max(2, Math.round((double) f.height() * Frame.THUMB_WIDTH / f.width()));
        if (thumb.width() != Frame.THUMB_WIDTH || Math.abs(thumb.height() - expected) > 1) {
            throw new MalformedBatchException(name + ": thumbnail is " + thumb.width() + "x" + thumb.height() + ", expected "
                    + Frame.THUMB_WIDTH + "x" + expected);
        }
    }

    private static void checkSize(String name, int width, int height, FrameLimits limits) throws MalformedBatchException {
        if (width < 1 || height < 1 || width > limits.maxSide() || height > limits.maxSide()) {
            throw new MalformedBatchException(name + ": " + width + "x" + height + " is outside 1-" + limits.maxSide() + " pixels a side");
        }
        if ((long) width * height > limits.maxPixels()) {
            throw new MalformedBatchException(name + ": " + width + "x" + height + " is more than " + limits.maxPixels() + " pixels");
        }
    }

    private static void inRange(String what, long ms) throws MalformedBatchException {
        if (ms < 0 || ms > FrameLimits.MAX_TIME_MS) {
            throw new MalformedBatchException(what + " " + ms + " is outside 0-" + FrameLimits.MAX_TIME_MS);
        }
    }

}
