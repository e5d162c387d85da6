package io.videoworld.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.FrameBatchCodec;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.imageio.ImageIO;

/**
 * A corpus of hostile {@code vw.frames} records, built byte by byte rather than through the
 * codec's own encoder, so it holds what a broken or malicious producer can send: wrong types,
 * non-finite numbers, trailing bytes, huge declared pictures, decompression bombs, bad keys.
 * Each record names its class, the stage expected to refuse it and a fragment of the reason.
 */
public final class MalformedRecords {
    /** One hostile record. */
    public record Poison(String kind, byte[] key, byte[] value, String stage, String reason) {
        @Override
        public String toString() {
            return kind + " (" + (value == null ? 0 : value.length) + " bytes)";
        }
    }

    private static final ObjectMapper LOOSE = CBORMapper.builder(new CBORFactory()).build();

    private MalformedRecords() {}

    /** The corpus: every record a distinct stream id or payload, so each dead letter can be matched to its record. */
    public static List<Poison> corpus(long epochMs) {
        List<Poison> out = new ArrayList<>();
        Random rnd = new Random(11);
        byte[] jpeg = jpeg(64, 36, Color.ORANGE);
        byte[] thumb = jpeg(80, 45, Color.ORANGE);
        int n = 0;

        // 1. Not a frame batch at all.
        for (byte[] v : new byte[][] {"hello".getBytes(StandardCharsets.UTF_8), random(rnd, 300), {}, {'V'}, random(rnd, 5000)}) {
            out.add(new Poison("not-a-batch", key("p-junk-" + n++), v, DeadLetter.INGEST, v.length < 3 ? "too short" : "bad magic"));
        }
        // 2. Another wire version.
        for (int version : new int[] {0, 2, 127}) {
            byte[] v = encode(batch("p-version-" + version, epochMs, frame(0, 0, jpeg, 64, 36, null)));
            v[2] = (byte) version;
            out.add(new Poison("wrong-version", key("p-version-" + version), v, DeadLetter.INGEST, "unsupported wire version"));
        }
        // 3. Truncated bodies.
        for (int i = 0; i < 5; i++) {
            String id = "p-cut-" + i;
            byte[] whole = encode(batch(id, epochMs, frame(0, 0, jpeg, 64, 36, thumb)));
            int at = 3 + (whole.length - 3) * (i + 1) / 7;
            out.add(new Poison("truncated", key(id), Arrays.copyOf(whole, at), DeadLetter.INGEST, "undecodable CBOR"));
        }
        // 4. Bytes after the CBOR map.
        for (int i = 0; i < 5; i++) {
            String id = "p-trailing-" + i;
            byte[] whole = encode(batch(id, epochMs, frame(0, 0, jpeg, 64, 36, thumb)));
            byte[] extra = i == 0 ? new byte[] {0} : i == 1 ? encodeBody(Map.of("x", 1)) : random(rnd, 1 + i * 7);
            out.add(new Poison("trailing-bytes", key(id), concat(whole, extra), DeadLetter.INGEST, "undecodable CBOR"));
        }
        // 5. No record key.
        for (int i = 0; i < 5; i++) {
            String id = "p-nokey-" + i;
            out.add(new Poison("null-key", null, encode(batch(id, epochMs, frame(i, i * 40L, jpeg, 64, 36, thumb))), DeadLetter.INGEST,
                    "record key missing"));
        }
        // 6. A key that is not UTF-8.
        for (int i = 0; i < 3; i++) {
            String id = "p-badkey-" + i;
            out.add(new Poison("key-not-utf8", new byte[] {'p', (byte) 0xC3, (byte) 0x28, (byte) i},
                    encode(batch(id, epochMs, frame(0, 0, jpeg, 64, 36, thumb))), DeadLetter.INGEST, "not valid UTF-8"));
        }
        // 7. A key naming another stream.
        for (int i = 0; i < 3; i++) {
            String id = "p-otherkey-" + i;
            out.add(new Poison("key-mismatch", key("someone-else-" + i), encode(batch(id, epochMs, frame(0, 0, jpeg, 64, 36, thumb))),
                    DeadLetter.INGEST, "differs from the batch's stream id"));
        }
        // 8. The stream id as another type.
        Object[] ids = {42, 3.5, true, List.of("a"), Map.of("id", "x")};
        for (int i = 0; i < ids.length; i++) {
            Map<String, Object> b = batch("unused", epochMs, frame(0, 0, jpeg, 64, 36, thumb));
            b.put("stream_id", ids[i]);
            out.add(new Poison("stream-id-not-text", key(String.valueOf(ids[i])), encode(b), DeadLetter.INGEST, "undecodable CBOR"));
        }
        // 9. Pictures sent as base64 text instead of CBOR byte strings.
        for (int i = 0; i < 5; i++) {
            String id = "p-base64-" + i;
            Map<String, Object> f = frame(0, 0, jpeg, 64, 36, thumb);
            f.put(i % 2 == 0 ? "jpeg" : "thumb", Base64.getEncoder().encodeToString(i % 2 == 0 ? jpeg : thumb));
            out.add(new Poison("jpeg-as-text", key(id), encode(batch(id, epochMs, f)), DeadLetter.INGEST, "CBOR byte string"));
        }
        // 10. Times that are not whole finite numbers in range.
        Object[] times = {Double.NaN, Double.POSITIVE_INFINITY, 1.5e12, "1700000000000", -5L};
        for (int i = 0; i < times.length; i++) {
            String id = "p-time-" + i;
            Map<String, Object> b = batch(id, epochMs, frame(0, 0, jpeg, 64, 36, thumb));
            b.put("epoch_ms", times[i]);
            out.add(new Poison("bad-epoch-ms", key(id), encode(b), DeadLetter.INGEST, times[i] instanceof Long ? "outside" : "undecodable CBOR"));
        }
        // 11. Huge declared pictures (the 60000x60000 header that once put the job in a restart loop).
        int[][] huge = {{60000, 60000}, {20000, 20000}, {9000, 100}, {100, 9000}, {8000, 6000}};
        for (int[] wh : huge) {
            String id = "p-huge-" + wh[0] + "x" + wh[1];
            byte[] declared = withSize(jpeg, wh[0], wh[1]);
            out.add(new Poison("huge-declared-size", key(id), encode(batch(id, epochMs, frame(0, 0, declared, wh[0], wh[1], null))),
                    DeadLetter.INGEST, "pixels"));
        }
        // 12. Decompression bombs in the thumbnail, and thumbnails of another picture.
        byte[][] thumbs = {withSize(thumb, 80, 60000), withSize(thumb, 60000, 45), withSize(thumb, 65535, 65535), jpeg(80, 300, Color.RED)};
        for (int i = 0; i < thumbs.length; i++) {
            String id = "p-thumbbomb-" + i;
            out.add(new Poison("thumbnail-bomb", key(id), encode(batch(id, epochMs, frame(0, 0, jpeg, 64, 36, thumbs[i]))),
                    DeadLetter.INGEST, "thumbnail is"));
        }
        // 13. No frames.
        for (int i = 0; i < 3; i++) {
            String id = "p-empty-" + i;
            Map<String, Object> b = batch(id, epochMs);
            if (i == 1) {
                b.remove("frames");
            } else if (i == 2) {
                b.put("frames", null);
            }
            out.add(new Poison("no-frames", key(id), encode(b), DeadLetter.INGEST, "empty batch"));
        }
        // 14. Frames out of order or out of range.
        List<List<Map<String, Object>>> orders = List.of(
                List.of(frame(0, 400, jpeg, 64, 36, thumb), frame(1, 0, jpeg, 64, 36, thumb)),
                List.of(frame(-1, 0, jpeg, 64, 36, thumb)),
                List.of(frame(3, 0, jpeg, 64, 36, thumb), frame(3, 40, jpeg, 64, 36, thumb)),
                List.of(frame(0, 9_000_000_000_000L, jpeg, 64, 36, thumb)),
                List.of(frame(0, -40, jpeg, 64, 36, thumb)));
        for (int i = 0; i < orders.size(); i++) {
            String id = "p-order-" + i;
            out.add(new Poison("frame-order-or-range", key(id), encode(batch(id, epochMs, orders.get(i).toArray(Map[]::new))),
                    DeadLetter.INGEST, "frame"));
        }
        // 15. Corrupt JPEGs.
        byte[][] corrupt = {Arrays.copyOf(jpeg, jpeg.length / 2), Arrays.copyOfRange(jpeg, 2, jpeg.length), new byte[0],
                random(rnd, 900)};
        for (int i = 0; i < corrupt.length; i++) {
            String id = "p-corrupt-" + i;
            out.add(new Poison("corrupt-jpeg", key(id), encode(batch(id, epochMs, frame(0, 0, corrupt[i], 64, 36, null))), DeadLetter.INGEST,
                    "corrupt JPEG"));
        }
        // 16. CBOR nested far deeper than a batch ever is.
        for (int depth : new int[] {200, 900}) { // Jackson itself refuses to write past 1000
            String id = "p-deep-" + depth;
            Object nested = "x";
            for (int d = 0; d < depth; d++) {
                nested = List.of(nested);
            }
            Map<String, Object> b = batch(id, epochMs, frame(0, 0, jpeg, 64, 36, thumb));
            b.put("extra", nested);
            out.add(new Poison("deep-nesting", key(id), encode(b), DeadLetter.INGEST, "undecodable CBOR"));
        }
        // 17. A key written twice.
        for (int i = 0; i < 2; i++) {
            String id = "p-dupkey-" + i;
            out.add(new Poison("duplicate-keys", key(id), duplicateStreamId(id, "p-dupkey-other-" + i, epochMs, jpeg, thumb), DeadLetter.INGEST,
                    "undecodable CBOR"));
        }
        // 18. Stream ids outside the safe alphabet.
        String[] badIds = {"../etc", "a".repeat(200), "spaces in id"};
        for (String id : badIds) {
            out.add(new Poison("bad-stream-id", key(id), encode(batch(id, epochMs, frame(0, 0, jpeg, 64, 36, thumb))), DeadLetter.INGEST,
                    "stream id"));
        }
        // 19. More frames in one record than allowed.
        String many = "p-many-frames";
        List<Map<String, Object>> lots = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            lots.add(frame(i, i * 40L, jpeg, 64, 36, null));
        }
        out.add(new Poison("too-many-frames", key(many), encode(batch(many, epochMs, lots.toArray(Map[]::new))), DeadLetter.INGEST, "at most"));
        // 20. Well-formed headers over pixels that do not decode: refused by the first operator that decodes them.
        for (int i = 0; i < 3; i++) {
            String id = "p-noscan-" + i;
            out.add(new Poison("undecodable-pixels", key(id), encode(batch(id, epochMs, frame(0, 0, headerOnly(64 + i, 36), 64 + i, 36, null))),
                    "frame-features", "does not decode"));
        }
        return out;
    }

    /** The JPEG of the frame in a {@code undecodable-pixels} record: what its dead letter carries. */
    public static byte[] frameJpeg(Poison p) {
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> b = LOOSE.readValue(Arrays.copyOfRange(p.value(), 3, p.value().length), Map.class);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> frames = (List<Map<String, Object>>) b.get("frames");
            return (byte[]) frames.get(0).get("jpeg");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> batch(String id, long epochMs, Map<?, ?>... frames) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("stream_id", id);
        b.put("source_kind", "video");
        b.put("source_uri", "poison://" + id);
        b.put("seq", 0L);
        b.put("epoch_ms", epochMs);
        b.put("frames", List.of(frames));
        b.put("last", true);
        return b;
    }

    private static Map<String, Object> frame(long index, long pts, byte[] jpeg, int w, int h, byte[] thumb) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("index", index);
        f.put("pts_ms", pts);
        f.put("width", w);
        f.put("height", h);
        f.put("jpeg", jpeg);
        if (thumb != null) {
            f.put("thumb", thumb);
        }
        return f;
    }

    private static byte[] encode(Map<String, Object> batch) {
        return concat(new byte[] {FrameBatchCodec.MAGIC_0, FrameBatchCodec.MAGIC_1, FrameBatchCodec.VERSION}, encodeBody(batch));
    }

    private static byte[] encodeBody(Object o) {
        try {
            return LOOSE.writeValueAsBytes(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] duplicateStreamId(String first, String second, long epochMs, byte[] jpeg, byte[] thumb) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.write(new byte[] {FrameBatchCodec.MAGIC_0, FrameBatchCodec.MAGIC_1, FrameBatchCodec.VERSION});
            try (CBORGenerator g = (CBORGenerator) LOOSE.getFactory().createGenerator(bytes)) {
                g.writeStartObject();
                g.writeStringField("stream_id", first);
                g.writeStringField("source_kind", "video");
                g.writeNumberField("epoch_ms", epochMs);
                g.writeFieldName("frames");
                LOOSE.writeValue(g, List.of(frame(0, 0, jpeg, 64, 36, thumb)));
                g.writeStringField("stream_id", second);
                g.writeEndObject();
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JPEG whose frame header (SOF) is rewritten to declare another size: no pixel is added. */
    static byte[] withSize(byte[] jpeg, int w, int h) {
        byte[] out = jpeg.clone();
        for (int i = 2; i + 9 < out.length; ) {
            int marker = out[i + 1] & 0xFF;
            int len = ((out[i + 2] & 0xFF) << 8) | (out[i + 3] & 0xFF);
            if (marker == 0xC0 || marker == 0xC2) {
                out[i + 5] = (byte) (h >> 8);
                out[i + 6] = (byte) h;
                out[i + 7] = (byte) (w >> 8);
                out[i + 8] = (byte) w;
                return out;
            }
            i += 2 + len;
        }
        throw new IllegalStateException("no SOF segment");
    }

    /** Start of image, a baseline frame header and end of image: well-formed, but no pixels to decode. */
    public static byte[] headerOnly(int w, int h) {
        return new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xC0, 0, 17, 8, (byte) (h >> 8), (byte) h, (byte) (w >> 8), (byte) w, 3,
                1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, (byte) 0xFF, (byte) 0xD9};
    }

    /** A small real JPEG of one colour with a diagonal line. */
    public static byte[] jpeg(int w, int h, Color colour) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(colour);
        g.fillRect(0, 0, w, h);
        g.setColor(Color.BLACK);
        g.drawLine(0, 0, w - 1, h - 1);
        g.dispose();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(img, "jpg", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] random(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
