package io.videoworld.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench record's parsing of printed tables, and the report it feeds. */
class BenchReportTest {
    @Test
    void parsesPrintedTablesWithTheLineAboveAsTitleAndKeepsOtherLinesAsNotes() {
        String out = """
                [videoworld-tests] infrastructure: in-JVM Kafka
                sample video: 60 s, 640x360 @ 25 fps
                | path | frames/s | ratio |
                |---|---:|---:|
                | push | 285 | 1.90 |
                | push + ingest | 228 | 0.11 |
                push: 2 encoding threads
                """;
        BenchRecord.Parsed p = BenchRecord.parse(out);
        assertThat(p.tables()).hasSize(1);
        BenchRecord.Table t = p.tables().get(0);
        assertThat(t.title()).isEqualTo("sample video: 60 s, 640x360 @ 25 fps");
        assertThat(t.columns()).containsExactly("path", "frames/s", "ratio");
        assertThat(t.rows()).containsExactly(java.util.List.of("push", "285", "1.90"), java.util.List.of("push + ingest", "228", "0.11"));
        assertThat(p.notes()).containsExactly("push: 2 encoding threads");
    }

    @Test
    void rendersEachResultInTheBenchOrderWithCommandDateMachineAndLoad(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("tracker.json"), """
                {"bench": "tracker", "command": "bin/videoworld bench tracker", "date": "2026-11-27T10:00:00Z",
                 "machine": {"cores": 16, "memory_gib": 125.7, "cpu": "Some CPU"}, "load": "0.50 -> 1.00",
                 "tables": [{"title": "", "columns": ["tracker", "MOTA"], "rows": [["ours", "0.9"]]}], "notes": []}
                """);
        Files.writeString(dir.resolve("ingest.json"), """
                {"bench": "ingest", "command": "bin/videoworld bench ingest 60", "date": "2026-11-24",
                 "machine": {"cores": 2, "memory_gib": null, "cpu": null}, "load": "2.6 -> 3.8", "source": "transcribed",
                 "tables": [{"title": "one run", "columns": ["run", "frames/s"], "rows": [["cold", "285"]]}], "notes": ["a note"]}
                """);
        Files.writeString(dir.resolve("not-json.txt"), "ignored");
        String page = BenchReport.render(dir);
        assertThat(page).startsWith("# Benchmarks\n");
        assertThat(page.indexOf("## ingest")).isPositive().isLessThan(page.indexOf("## tracker"));
        assertThat(page).contains("- command: `bin/videoworld bench ingest 60`\n- date: 2026-11-24\n- machine: 2 cores\n"
                + "- load average (1 min, before -> after): 2.6 -> 3.8\n- source: transcribed\n");
        assertThat(page).contains("one run\n\n| run | frames/s |\n|---|---:|\n| cold | 285 |\n");
        assertThat(page).contains("- a note\n");
        assertThat(page).contains("- machine: 16 cores, 125.7 GiB, Some CPU\n");
        assertThat(page).contains("| tracker | MOTA |\n|---|---:|\n| ours | 0.9 |\n");
    }

    @Test
    void anEmptyFolderSaysHowToFillIt(@TempDir Path dir) throws Exception {
        assertThat(BenchReport.render(dir)).contains("No results yet: run a bench");
    }
}
