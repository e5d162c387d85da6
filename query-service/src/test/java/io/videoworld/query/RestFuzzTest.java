package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.Json;
import io.videoworld.query.api.RequestLimits;
import io.videoworld.query.api.ToolCatalog;
import io.videoworld.testkit.KitchenCam;
import io.videoworld.testkit.TestInfra;
import io.videoworld.testkit.ToolFuzz;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import java.util.function.IntPredicate;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile HTTP against every route the service has: every tool in the catalog, frames, ask, and
 * raw framing over a socket. Whatever a client sends, the answer is not a 5xx (501 for a missing
 * capability excepted) and carries no Java class names or stack frames; the limits answer 400 or
 * 413 naming themselves. Seeded, so every run sends the same requests.
 */
class RestFuzzTest {
    private static final String KITCHEN = "fuzz-kitchen";
    private static final String CAM = ToolFuzz.STREAM;
    private static final ToolCatalog CATALOG = ToolCatalog.load();
    private static final RequestLimits LIMITS = RequestLimits.defaults();

    @TempDir
    static Path tmp;
    private static QueryServer server;

    private FuzzClient client;
    private final Random rnd = new Random(20261123);

    @BeforeAll
    static void start() throws Exception {
        String es = TestInfra.get().elasticsearchUrl();
        ToolFuzz.indexStream(es, tmp);
        KitchenCam.index(es, tmp, KITCHEN, 1_700_200_000_000L);
        server = new QueryServer(QueryConfig.of(es, tmp.toString())).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void hostileRequestsGetA4xxNamingTheProblemAndNeverA5xxOrJavaInternals() throws Exception {
        client = new FuzzClient(server.port());
        long t0 = System.nanoTime();
        JsonNode listed = Json.MAPPER.readTree(client.send("GET", "/v1/tools", null).body());
        assertThat(listed.get("tools")).hasSize(CATALOG.all().size());
        for (JsonNode t : listed.get("tools")) {
            tool(CATALOG.find(t.get("name").asText()).orElseThrow());
        }
        images();
        frames();
        ask();
        double seconds = (System.nanoTime() - t0) / 1e9;
        int total = client.total();
        System.out.printf("[rest-fuzz] %d requests in %.1f s, by status: %s%n", total, seconds, client.byStatus());
        assertThat(client.failures()).as("requests answered wrongly").isEmpty();
        assertThat(total).isGreaterThanOrEqualTo(300);
        assertThat(client.byStatus().keySet()).allMatch(s -> s < 500 || s == 501);
        assertThat(seconds).isLessThan(45);
    }

    // ---- every tool -------------------------------------------------------------------------

    private void tool(ToolCatalog.ToolDef t) throws Exception {
        String path = "/v1/tools/" + t.name();
        JsonNode props = t.parameters().path("properties");
        String name = t.name();
        IntPredicate bad = s -> s == 400;
        client.post(name + " deep array", path, "{\"video_id\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}", bad, "32 levels");
        client.post(name + " deep object", path, "{\"a\":".repeat(40) + "1" + "}".repeat(40), bad, "32 levels");
        client.post(name + " 100k video_id", path, "{\"video_id\":\"" + "v".repeat(100_000) + "\"}", bad, "\"field\":\"video_id\"");
        client.post(name + " path video_id", path, "{\"video_id\":\"../../etc/passwd\"}", bad, "\"field\":\"video_id\"");
        client.post(name + " nulls", path, withEvery(props, p -> Json.MAPPER.nullNode(), false).toString(), bad, "video_id");
        client.post(name + " wrong types", path, withEvery(props, RestFuzzTest::wrongType, true).toString(),
                hasOnlyVideoId(props) ? s -> s < 500 || s == 501 : bad, null);
        ObjectNode longText = withEvery(props, p -> "string".equals(p.path("type").asText()) && !p.has("enum")
                ? Json.MAPPER.getNodeFactory().textNode("y".repeat(100_000)) : null, true);
        client.post(name + " 100k strings", path, longText.toString(), longText.size() > 1 ? bad : s -> s < 500 || s == 501, null);
        // Just under the string limit, many words: what reaches Elasticsearch as a query is its problem to refuse, and ours to answer 4xx.
        ObjectNode words = withEvery(props, p -> "string".equals(p.path("type").asText()) && !p.has("enum")
                ? Json.MAPPER.getNodeFactory().textNode("w0rd ".repeat(LIMITS.maxStringLength() / 5 - 1)) : null, true);
        client.post(name + " 8k of words", path, words.toString(), s -> s < 500 || s == 501, null);
        for (String n : new String[] {"1e309", "-1e309", "1" + "0".repeat(400), "-1", "2147483648", "9.9e18", "1e-320"}) {
            ObjectNode numbers = withEvery(props, p -> p.path("type").asText().matches("integer|number")
                    ? Json.MAPPER.getNodeFactory().textNode("@@") : null, true);
            client.post(name + " numbers " + n.substring(0, Math.min(12, n.length())), path, numbers.toString().replace("\"@@\"", n), s -> s < 500 || s == 501, null);
        }
        client.post(name + " NaN", path, "{\"video_id\":\"" + KITCHEN + "\",\"top_k\":NaN,\"start_time\":NaN}", bad, "not valid JSON");
        client.post(name + " unknown fields", path, "{\"video_id\":\"" + CAM + "\",\"zzz\":1,\"__proto__\":{\"a\":null},\"\":[]}", s -> s < 500 || s == 501, null);
        String[] notObjects = {"[]", "\"x\"", "42", "null", "true"};
        client.post(name + " not an object", path, notObjects[rnd.nextInt(notObjects.length)], bad, null);
        client.post(name + " truncated", path, "{\"video_id\":\"" + CAM + "\"", bad, "not valid JSON");
        client.post(name + " trailing", path, "{\"video_id\":\"" + CAM + "\"}{", bad, "not valid JSON");
        client.post(name + " single quotes", path, "{'video_id':'" + CAM + "'}", bad, "not valid JSON");
        client.postBytes(name + " invalid UTF-8", path, concat("{\"video_id\":\"".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xff, (byte) 0xfe, 0},
                "\"}".getBytes(StandardCharsets.UTF_8)), bad, null);
        for (int i = 0; i < 3; i++) {
            client.post(name + " mutated " + i, path, ToolFuzz.mutate(rnd, t.parameters()).toString(), s -> s < 500 || s == 501, null);
        }
    }

    /** A body with {@code video_id} valid (when {@code keepVideoId}) and every other property the function's value (null: left out). */
    private ObjectNode withEvery(JsonNode props, java.util.function.Function<JsonNode, JsonNode> value, boolean keepVideoId) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        Iterator<Map.Entry<String, JsonNode>> it = props.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> p = it.next();
            if (p.getKey().equals("video_id") && keepVideoId) {
                o.put("video_id", rnd.nextBoolean() ? CAM : KITCHEN);
                continue;
            }
            JsonNode v = value.apply(p.getValue());
            if (v != null) {
                o.set(p.getKey(), v);
            }
        }
        return o;
    }

    private static boolean hasOnlyVideoId(JsonNode props) {
        return props.size() == 1;
    }

    private static JsonNode wrongType(JsonNode schema) {
        var f = Json.MAPPER.getNodeFactory();
        return switch (schema.path("type").asText()) {
            case "string" -> f.numberNode(12345);
            case "integer" -> f.numberNode(1.5);
            case "number" -> f.textNode("abc");
            case "array" -> f.objectNode().put("x", 1);
            case "object" -> f.textNode("an object");
            case "boolean" -> f.textNode("yes");
            default -> f.arrayNode();
        };
    }

    // ---- uploaded images and the pixel budget -------------------------------------------------

    private void images() throws Exception {
        byte[] jpeg = image("jpg");
        byte[] png = image("png");
        IntPredicate tooLarge = s -> s == 413;
        client.post("crop jpeg 60000x60000", "/v1/tools/crop_region", crop(KITCHEN, declare(jpeg, 60_000, 60_000)), tooLarge, "8192 pixels a side");
        client.post("crop png 100000x100000", "/v1/tools/crop_region", crop(KITCHEN, declare(png, 100_000, 100_000)), tooLarge, "source.image_data");
        client.post("crop png 8000x8000", "/v1/tools/crop_region", crop(KITCHEN, declare(png, 8000, 8000)), tooLarge, "40 megapixels");
        client.post("crop png 2^31", "/v1/tools/crop_region", crop(KITCHEN, declare(png, Integer.MAX_VALUE, Integer.MAX_VALUE)), tooLarge, null);
        client.post("crop real jpeg", "/v1/tools/crop_region", crop(KITCHEN, jpeg), s -> s == 200, "cropped_regions");
        client.post("crop real png", "/v1/tools/crop_region", crop(KITCHEN, png), s -> s == 200, "cropped_regions");
        client.post("crop jpeg without end", "/v1/tools/crop_region", crop(KITCHEN, java.util.Arrays.copyOf(jpeg, jpeg.length - 2)), s -> s == 400,
                "source.image_data");
        byte[] brokenPng = png.clone();
        java.util.Arrays.fill(brokenPng, 41, brokenPng.length - 12, (byte) 0x5A);
        client.post("crop png with broken pixels", "/v1/tools/crop_region", crop(KITCHEN, brokenPng), s -> s == 400 || s == 200, null);
        byte[] brokenJpeg = jpeg.clone();
        java.util.Arrays.fill(brokenJpeg, brokenJpeg.length / 2, brokenJpeg.length - 2, (byte) 0xFF);
        client.post("crop jpeg with broken pixels", "/v1/tools/crop_region", crop(KITCHEN, brokenJpeg), s -> s == 400 || s == 200, null);
        client.post("crop gif", "/v1/tools/crop_region", crop(KITCHEN, "GIF89a\u0001\u0000\u0001\u0000".getBytes(StandardCharsets.ISO_8859_1)),
                s -> s == 400, "source.image_data");
        client.post("crop not base64", "/v1/tools/crop_region", "{\"video_id\":\"" + KITCHEN + "\",\"source\":{\"type\":\"image_data\",\"image_data\":\"!!%%\"},"
                + "\"regions\":[{\"bbox\":[0,0,1,1]}]}", s -> s == 400, "source.image_data");
        String regions = "[" + String.join(",", java.util.Collections.nCopies(50, "{\"bbox\":[0,0,0.5,0.5]}")) + "]";
        client.post("crop 50 regions at 8192x8192", "/v1/tools/crop_region", "{\"video_id\":\"" + KITCHEN
                + "\",\"source\":{\"type\":\"timestamp\",\"timestamp\":1.0},\"regions\":" + regions
                + ",\"output_resolution\":{\"width\":8192,\"height\":8192}}", tooLarge, "megapixels per request");
        client.post("crop sliver to 8192 wide", "/v1/tools/crop_region", "{\"video_id\":\"" + KITCHEN
                + "\",\"source\":{\"type\":\"timestamp\",\"timestamp\":1.0},\"regions\":[{\"bbox\":[0,0,0.002,1]}]"
                + ",\"output_resolution\":{\"width\":8192}}", tooLarge, "output_resolution");
        client.post("memory with deep metadata", "/v1/tools/write_memory", "{\"video_id\":\"" + KITCHEN + "\",\"content\":\"x\",\"metadata\":"
                + "{\"a\":".repeat(30) + "1" + "}".repeat(30) + "}", s -> s < 500, null);
        client.post("crop frame of another stream", "/v1/tools/crop_region", "{\"video_id\":\"" + KITCHEN
                + "\",\"source\":{\"type\":\"frame\",\"frame_id\":\"" + CAM + ":f:0000000001\"},\"regions\":[{\"bbox\":[0,0,1,1]}]}",
                s -> s == 400, "source.frame_id");
        long t = System.nanoTime();
        client.post("sample 50 frames 8192x8192", "/v1/tools/sample_frames", "{\"video_id\":\"" + KITCHEN
                + "\",\"num_frames\":50,\"resolution\":{\"width\":8192,\"height\":8192},\"format\":\"base64\"}", tooLarge, "150 megapixels");
        assertThat((System.nanoTime() - t) / 1e9).as("refused before decoding").isLessThan(2);
        client.post("sample 10 frames 8192 wide", "/v1/tools/sample_frames", "{\"video_id\":\"" + KITCHEN
                + "\",\"num_frames\":10,\"resolution\":{\"width\":8192}}", tooLarge, "num_frames");
        client.post("sample 5 frames 320x180", "/v1/tools/sample_frames", "{\"video_id\":\"" + KITCHEN
                + "\",\"num_frames\":5,\"resolution\":{\"width\":320,\"height\":180}}", s -> s == 200, "\"total_frames\":5");
        client.post("sample 200 urls", "/v1/tools/sample_frames", "{\"video_id\":\"" + KITCHEN + "\",\"num_frames\":200,\"format\":\"url\"}",
                s -> s == 200, "image_url");
        client.post("sample 1e309 frames", "/v1/tools/sample_frames", "{\"video_id\":\"" + KITCHEN + "\",\"num_frames\":1e309}", s -> s == 400, "num_frames");
        client.post("sample -1 frames", "/v1/tools/sample_frames", "{\"video_id\":\"" + KITCHEN + "\",\"num_frames\":-1}", s -> s == 400, "num_frames");
        client.post("sample 10^400 frames", "/v1/tools/sample_frames", "{\"video_id\":\"" + KITCHEN + "\",\"num_frames\":1" + "0".repeat(400) + "}",
                s -> s == 400, "num_frames");
        client.post("sample resolution -1", "/v1/tools/sample_frames", "{\"video_id\":\"" + KITCHEN + "\",\"resolution\":{\"width\":-1}}",
                s -> s == 400, "resolution");
        client.post("sample interval 1e-300", "/v1/tools/sample_frames", "{\"video_id\":\"" + KITCHEN + "\",\"sample_interval\":1e-300}",
                s -> s == 400, "sample_interval");
    }

    /** A crop_region request cropping the whole of an uploaded image. */
    private static String crop(String stream, byte[] image) {
        return "{\"video_id\":\"" + stream + "\",\"source\":{\"type\":\"image_data\",\"image_data\":\"data:image/png;base64,"
                + Base64.getEncoder().encodeToString(image) + "\"},\"regions\":[{\"bbox\":[0.25,0.25,0.5,0.5],\"label\":\"x\"}]}";
    }

    private static byte[] image(String format) throws IOException {
        BufferedImage img = new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 48; y++) {
            for (int x = 0; x < 64; x++) {
                img.setRGB(x, y, (x * 4) << 16 | (y * 5) << 8 | 90);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, format, out);
        return out.toByteArray();
    }

    /** The same file with its header (JPEG SOF or PNG IHDR) claiming another size; the pixels stay 64x48. */
    private static byte[] declare(byte[] file, long width, long height) {
        byte[] b = file.clone();
        if ((b[0] & 0xFF) == 0xFF) {
            for (int i = 2; i + 9 < b.length; i++) {
                if ((b[i] & 0xFF) == 0xFF && (b[i + 1] & 0xFF) == 0xC0) {
                    b[i + 5] = (byte) (height >> 8);
                    b[i + 6] = (byte) height;
                    b[i + 7] = (byte) (width >> 8);
                    b[i + 8] = (byte) width;
                    return b;
                }
            }
            throw new IllegalStateException("no baseline frame header");
        }
        for (int k = 0; k < 4; k++) {
            b[16 + k] = (byte) (width >> (24 - 8 * k));
            b[20 + k] = (byte) (height >> (24 - 8 * k));
        }
        return b;
    }

    // ---- /v1/frames -----------------------------------------------------------------------------

    private void frames() throws Exception {
        String frame = "/v1/frames/" + KITCHEN + ":f:0000000010";
        client.get("frame", frame + "?width=320", s -> s == 200, "(image)");
        IntPredicate bad = s -> s == 400;
        for (String p : new String[] {"abc", "-1e308", "NaN", "Infinity", "2", "", "1e400", "0x", "-0.1"}) {
            client.get("padding=" + p, frame + "?crop=0.1,0.1,0.5,0.5&padding=" + encode(p), bad, "\"field\":\"padding\"");
        }
        client.get("padding without crop", frame + "?padding=abc", bad, "\"field\":\"padding\"");
        for (String w : new String[] {"0", "-5", "99999", "abc", "1.5", "2147483648", "", "%20"}) {
            client.get("width=" + w, frame + "?width=" + w.replace(" ", "%20"), bad, "\"field\":\"width\"");
            client.get("height=" + w, frame + "?height=" + w.replace(" ", "%20"), bad, "\"field\":\"height\"");
        }
        for (String c : new String[] {"1,2,3", "NaN,0,1,1", "0.5,0.5,0.6,0.1", "1e400,0,1,1", "0,0,0,0", "a,b,c,d", ",,,", "0,0,1,1,1", "-0.1,0,1,1", "1,0,0.0001,1", "0,1.0001,1,0.0001"}) {
            client.get("crop=" + c, frame + "?crop=" + encode(c), bad, "\"field\":\"crop\"");
        }
        client.get("width twice", frame + "?width=10&width=20", bad, "given at most once");
        client.get("sliver to 8192 wide", frame + "?crop=0,0,0.002,1&width=8192", s -> s == 413, "8192 pixels a side");
        client.get("no :f:", "/v1/frames/" + KITCHEN + "-10", bad, "not a frame id");
        client.get("bad stream", "/v1/frames/a%20b:f:1", bad, "stream id");
        client.get("long id", "/v1/frames/" + "k".repeat(5000) + ":f:1", bad, "not a frame id");
        client.get("unknown stream", "/v1/frames/nope:f:1", s -> s == 404, null);
        client.get("frame past the end", "/v1/frames/" + KITCHEN + ":f:9999999999", s -> s == 404, null);
        client.get("frame not a number", "/v1/frames/" + KITCHEN + ":f:abc", s -> s == 404, null);
        client.get("frame index overflow", "/v1/frames/" + KITCHEN + ":f:99999999999999999999999", s -> s == 404, null);
        client.get("dot segments", "/v1/frames/..%2F..%2Fetc:f:1", s -> s == 400, null);
    }

    // ---- /v1/ask ------------------------------------------------------------------------------

    private void ask() throws Exception {
        String ask = "/v1/ask";
        IntPredicate bad = s -> s == 400;
        String q = "\"question\":\"what is on the table?\"";
        client.post("ask ok", ask, "{" + q + ",\"stream_ids\":[\"" + KITCHEN + "\"]}", s -> s == 200, "\"evidence\"");
        client.post("ask deep", ask, "{" + q + ",\"stream_ids\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}", bad, "32 levels");
        client.post("ask deep budget", ask, "{" + q + ",\"budget\":" + "{\"a\":".repeat(35) + "1" + "}".repeat(35) + "}", bad, "32 levels");
        client.post("ask 100k question", ask, "{\"question\":\"" + "q".repeat(100_000) + "\",\"stream_ids\":[\"" + KITCHEN + "\"]}", bad, "question");
        client.post("ask 4001 question", ask, "{\"question\":\"" + "q".repeat(4001) + "\",\"stream_ids\":[\"" + KITCHEN + "\"]}", bad, "question");
        client.post("ask 100k stream id", ask, "{" + q + ",\"stream_ids\":[\"" + "s".repeat(100_000) + "\"]}", bad, "stream_ids[0]");
        client.post("ask path stream id", ask, "{" + q + ",\"stream_ids\":[\"../x\"]}", bad, "stream_ids[0]");
        client.post("ask video_ids", ask, "{" + q + ",\"video_ids\":[\"a b\"]}", bad, "video_ids[0]");
        client.post("ask stream_ids string", ask, "{" + q + ",\"stream_ids\":\"" + KITCHEN + "\"}", bad, "stream_ids");
        client.post("ask 21 streams", ask, "{" + q + ",\"stream_ids\":" + Json.MAPPER.valueToTree(java.util.Collections.nCopies(21, KITCHEN)) + "}",
                bad, "stream_ids");
        client.post("ask steps 1e309", ask, "{" + q + ",\"stream_ids\":[\"" + KITCHEN + "\"],\"budget\":{\"max_steps\":1e309}}", bad, "max_steps");
        client.post("ask steps -1", ask, "{" + q + ",\"stream_ids\":[\"" + KITCHEN + "\"],\"budget\":{\"max_steps\":-1}}", bad, "max_steps");
        client.post("ask clips NaN", ask, "{" + q + ",\"stream_ids\":[\"" + KITCHEN + "\"],\"budget\":{\"max_clips\":NaN}}", bad, "not valid JSON");
        client.post("ask range inverted", ask, "{" + q + ",\"stream_ids\":[\"" + KITCHEN + "\"],\"time_range\":{\"start_time\":5,\"end_time\":1}}",
                bad, "end_time");
        client.post("ask range 1e309", ask, "{" + q + ",\"stream_ids\":[\"" + KITCHEN + "\"],\"time_range\":{\"start_time\":-1e309}}",
                bad, "start_time");
        client.post("ask nulls", ask, "{\"question\":null,\"stream_ids\":null,\"budget\":null}", bad, null);
        client.post("ask unknown fields", ask, "{" + q + ",\"stream_ids\":[\"" + KITCHEN + "\"],\"zz\":[1,2,{}]}", s -> s == 200, null);
        client.post("ask array", ask, "[]", bad, null);
        client.post("ask truncated", ask, "{" + q, bad, "not valid JSON");
        client.post("ask empty", ask, "", bad, "question");
        client.post("ask stream bad", ask, "{\"stream\":true,\"question\":\"\",\"stream_ids\":[\"" + KITCHEN + "\"]}", bad, "question");
        client.post("ask stream ok", ask, "{\"stream\":true," + q + ",\"stream_ids\":[\"" + KITCHEN + "\"]}", s -> s == 200, "event: result");
        client.post("ask unknown stream", ask, "{" + q + ",\"stream_ids\":[\"nope\"]}", s -> s < 500 || s == 501, null);
        client.post("ask wrong types", ask, "{\"question\":42,\"stream_ids\":[42],\"stream\":\"yes\"}", bad, null);
    }

    private static String encode(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
