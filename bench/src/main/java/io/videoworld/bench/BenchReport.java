package io.videoworld.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code bin/videoworld bench report}: renders {@code docs/benchmarks.md} from the JSON results
 * the benches saved under {@code bench/results/} ({@link BenchRecord}), one section per bench.
 */
public final class BenchReport {
    /** The order sections appear in; benches not named here follow in name order. */
    static final List<String> ORDER = List.of("ingest", "stack", "tools", "scale", "shots", "detector", "inference", "gate", "tracker", "memory",
            "cluster-faults", "cluster-throughput");

    private static final ObjectMapper JSON = new ObjectMapper();

    private BenchReport() {}

    /** {@code [RESULTS_DIR [OUT]]}, by default {@code bench/results} and {@code docs/benchmarks.md}. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "bench/results");
        Path out = Path.of(args.length > 1 ? args[1] : "docs/benchmarks.md");
        if (!Files.isDirectory(dir)) {
            System.err.println("bench report: no results in " + dir + "; run a bench first (bin/videoworld bench ingest)");
            System.exit(2);
        }
        Files.writeString(out, render(dir), StandardCharsets.UTF_8);
        System.out.println("wrote " + out);
    }

    /** The page for every {@code *.json} in {@code dir}. */
    public static String render(Path dir) throws IOException {
        List<JsonNode> results = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList()) {
                results.add(JSON.readTree(f.toFile()));
            }
        }
        results.sort(Comparator.comparingInt((JsonNode r) -> rank(r.path("bench").asText())).thenComparing(r -> r.path("bench").asText()));
        return render(results);
    }

    static int rank(String bench) {
        int i = ORDER.indexOf(bench);
        return i < 0 ? ORDER.size() : i;
    }

    /** The page for these results, in the order given. */
    static String render(List<JsonNode> results) {
        StringBuilder b = new StringBuilder();
        b.append("# Benchmarks\n\n");
        b.append("<!-- Written by `bin/videoworld bench report` from bench/results/*.json; do not edit by hand. -->\n\n");
        b.append("Today's figures only: each bench saves its latest result as `bench/results/<bench>.json` and "
                + "`bin/videoworld bench report` writes this page from them. Earlier figures are in the history of those files. "
                + "Each bench measures a reference on the same input in the same run (FFmpeg decoding alone, a bare Kafka "
                + "consumer, a pass-through job, `GET /v1/tools`, PySceneDetect, ByteTrack) and prints ratios against it, so "
                + "compare ratios rather than absolute figures across machines.\n");
        if (results.isEmpty()) {
            b.append("\nNo results yet: run a bench (`bin/videoworld bench ingest`), then `bin/videoworld bench report`.\n");
        }
        for (JsonNode r : results) {
            b.append("\n## ").append(r.path("bench").asText()).append("\n\n");
            b.append("- command: `").append(r.path("command").asText()).append("`\n");
            b.append("- date: ").append(r.path("date").asText()).append("\n");
            b.append("- machine: ").append(machine(r.path("machine"))).append("\n");
            if (!r.path("load").asText().isEmpty()) {
                b.append("- load average (1 min, before -> after): ").append(r.path("load").asText()).append("\n");
            }
            if (!r.path("source").asText().isEmpty()) {
                b.append("- source: ").append(r.path("source").asText()).append("\n");
            }
            for (JsonNode t : r.path("tables")) {
                b.append("\n");
                if (!t.path("title").asText().isEmpty()) {
                    b.append(t.path("title").asText()).append("\n\n");
                }
                List<String> cols = new ArrayList<>();
                t.path("columns").forEach(c -> cols.add(c.asText()));
                b.append(row(cols));
                b.append("|");
                for (int i = 0; i < cols.size(); i++) {
                    b.append(i == 0 ? "---|" : "---:|");
                }
                b.append("\n");
                for (JsonNode row : t.path("rows")) {
                    List<String> cells = new ArrayList<>();
                    row.forEach(c -> cells.add(c.asText()));
                    b.append(row(cells));
                }
            }
            if (r.path("notes").size() > 0) {
                b.append("\n");
                for (JsonNode n : r.path("notes")) {
                    b.append("- ").append(n.asText()).append("\n");
                }
            }
        }
        return b.toString();
    }

    private static String machine(JsonNode m) {
        List<String> parts = new ArrayList<>();
        if (m.hasNonNull("cores")) {
            parts.add(m.path("cores").asInt() + " cores");
        }
        if (m.hasNonNull("memory_gib")) {
            parts.add(m.path("memory_gib").asText() + " GiB");
        }
        if (m.hasNonNull("cpu")) {
            parts.add(m.path("cpu").asText());
        }
        return parts.isEmpty() ? "not recorded" : String.join(", ", parts);
    }

    private static String row(List<String> cells) {
        StringBuilder b = new StringBuilder("|");
        for (String c : cells) {
            b.append(" ").append(c.replace("\n", " ")).append(" |");
        }
        return b.append("\n").toString();
    }
}
