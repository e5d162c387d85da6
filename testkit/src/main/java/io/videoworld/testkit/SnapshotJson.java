package io.videoworld.testkit;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.videoworld.core.JpegInfo;
import io.videoworld.core.Json;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How the snapshot test writes and compares answers. {@link #normalise} replaces only what is not
 * the service's to fix:
 * <ul>
 *   <li>the test's temporary directory in any text (absolute source paths) becomes {@code $TMP};</li>
 *   <li>{@code search_time_ms} (a timing) becomes {@code "<timing>"}, and a {@code timestamp} past
 *       1e9 (write_memory's wall-clock time of writing, in epoch seconds) becomes {@code "<wall clock>"};</li>
 *   <li>"logged as &lt;id&gt;" in error messages: the id is random;</li>
 *   <li>JPEG data (base64 {@code image_data}, a crop's {@code data}) becomes its size as the JPEG
 *       header declares it, and {@code file_size_kb} becomes {@code "<size>"}: the bytes come from
 *       FFmpeg's decoder and colour conversion, whose SIMD paths differ from CPU to CPU;</li>
 *   <li>the order of keys of objects whose key set is in {@link #ANY_ORDER}: those were built with
 *       {@code Map.of}, whose iteration order changes from one JVM to the next, so their keys are sorted.
 *       Every other object keeps the order the service wrote, and it is compared.</li>
 * </ul>
 * {@link #firstDifference} compares everything exactly except search scores ({@link #SCORES}), which
 * may differ by {@link #SCORE_TOLERANCE}: Elasticsearch quantises stored vectors to int8 per segment
 * and normalises BM25 by index-wide statistics, so the same question scores a little differently
 * depending on what else the shared indices hold.
 */
public final class SnapshotJson {
    /** Key sets of objects the service built with {@code Map.of} (random order per JVM). */
    public static final Set<Set<String>> ANY_ORDER = Set.of(
            Set.of("width", "height"),
            Set.of("start_time", "end_time"),
            Set.of("frame_id", "timestamp", "role"),
            Set.of("frame_id", "frame_number"),
            Set.of("id", "bbox"),
            Set.of("centre_normalized", "edge_normalized", "centre_pixels"),
            Set.of("mean_brightness", "contrast", "sky_fraction_of_top_quarter", "tallest_person_fraction"),
            Set.of("time", "bbox", "confidence"),
            Set.of("format", "data"),
            Set.of("entities", "total_count"),
            Set.of("step", "stage", "clips", "streams"));

    /** The fields that carry Elasticsearch search scores. */
    public static final Set<String> SCORES = Set.of("score", "similarity", "relevance_score");
    public static final double SCORE_TOLERANCE = 0.01;

    private SnapshotJson() {}

    /** A copy of an answer with what differs between runs and machines replaced (see the class comment). */
    public static JsonNode normalise(JsonNode node, String tmpDir) {
        return walk(node.deepCopy(), null, tmpDir);
    }

    private static JsonNode walk(JsonNode node, String key, String tmpDir) {
        if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            Map<String, JsonNode> fields = new java.util.LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> f = it.next();
                fields.put(f.getKey(), walk(f.getValue(), f.getKey(), tmpDir));
            }
            boolean jpeg = "jpeg".equals(o.path("format").asText()) && o.path("data").isTextual();
            if (jpeg) {
                fields.put("data", jpegSize(o.path("data").asText()));
            }
            if (ANY_ORDER.contains(fields.keySet())) {
                fields = new TreeMap<>(fields);
            }
            o.removeAll();
            fields.forEach(o::set);
            return o;
        }
        if (node.isArray()) {
            ArrayNode a = (ArrayNode) node;
            for (int i = 0; i < a.size(); i++) {
                a.set(i, walk(a.get(i), key, tmpDir));
            }
            return a;
        }
        if ("search_time_ms".equals(key)) {
            return TextNode.valueOf("<timing>");
        }
        if ("timestamp".equals(key) && node.isNumber() && node.asDouble() > 1e9) {
            return TextNode.valueOf("<wall clock>");
        }
        if ("file_size_kb".equals(key) && node.isNumber()) {
            return TextNode.valueOf("<size>");
        }
        if (node.isTextual()) {
            String s = node.asText();
            if ("image_data".equals(key) && s.startsWith("data:image/jpeg;base64,")) {
                return jpegSize(s.substring(s.indexOf(',') + 1));
            }
            return TextNode.valueOf(s.replace(tmpDir, "$TMP").replaceAll("logged as [0-9a-f]{8}", "logged as <id>"));
        }
        return node;
    }

    private static JsonNode jpegSize(String base64) {
        JpegInfo info = JpegInfo.parse(Base64.getDecoder().decode(base64));
        return TextNode.valueOf(info == null ? "<not a JPEG>" : "<jpeg " + info.width() + "x" + info.height() + ">");
    }

    /** Pretty-printed with two-space indents and a final newline, the form the snapshot files have. */
    public static String print(JsonNode doc) throws Exception {
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        return Json.MAPPER.writer(pp).writeValueAsString(doc) + "\n";
    }

    /** Where two snapshots first differ (a JSON path and both values), or null when they agree. */
    public static String firstDifference(String expected, String actual) throws Exception {
        return difference("$", Json.MAPPER.readTree(expected), Json.MAPPER.readTree(actual), null);
    }

    private static String difference(String path, JsonNode e, JsonNode a, String key) {
        if (e.isNumber() && a.isNumber() && SCORES.contains(key)) {
            return Math.abs(e.asDouble() - a.asDouble()) <= SCORE_TOLERANCE ? null : path + ": expected " + e + " but was " + a;
        }
        if (e.isObject() && a.isObject()) {
            List<String> ek = new ArrayList<>();
            List<String> ak = new ArrayList<>();
            e.fieldNames().forEachRemaining(ek::add);
            a.fieldNames().forEachRemaining(ak::add);
            if (!ek.equals(ak)) {
                return path + ": expected the keys " + ek + " but were " + ak;
            }
            for (String k : ek) {
                String d = difference(path + "." + k, e.get(k), a.get(k), k);
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        if (e.isArray() && a.isArray()) {
            if (e.size() != a.size()) {
                return path + ": expected " + e.size() + " items but were " + a.size();
            }
            for (int i = 0; i < e.size(); i++) {
                String d = difference(path + "[" + i + "]", e.get(i), a.get(i), key);
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        return e.equals(a) ? null : path + ": expected " + e + " but was " + a;
    }
}
