package io.videoworld.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Saves what a bench printed as {@code bench/results/<bench>.json}: the command, the date, the
 * machine (cores, memory, CPU model), the load average before and after, and every Markdown table
 * the bench printed on standard output, which {@link BenchReport} turns into {@code docs/benchmarks.md}.
 * A bench calls {@link #start} first; the record is written when the JVM exits, unless the run
 * failed or printed no table.
 */
public final class BenchRecord {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** The Elasticsearch client's OpenTelemetry logs an INFO line through java.util.logging; held, as JUL holds loggers weakly. */
    private static final java.util.logging.Logger OTEL = java.util.logging.Logger.getLogger("io.opentelemetry");
    private static volatile BenchRecord current;

    private final String bench;
    private final String command;
    private final String date;
    private final double loadBefore;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private volatile boolean failed;
    private volatile boolean saved;

    private BenchRecord(String bench, String[] args) {
        this.bench = bench;
        this.command = ("bin/videoworld bench " + bench + " " + String.join(" ", args)).strip();
        this.date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        this.loadBefore = load();
    }

    /**
     * Starts recording: standard output is copied from now on, and the record is saved at exit.
     *
     * @param bench the name {@code bin/videoworld bench} knows it by
     * @param args the bench's arguments, for the command line recorded
     */
    public static synchronized BenchRecord start(String bench, String[] args) {
        OTEL.setLevel(java.util.logging.Level.WARNING);
        BenchRecord r = new BenchRecord(bench, args);
        PrintStream out = System.out;
        System.setOut(new PrintStream(new Tee(out, r.captured), true, StandardCharsets.UTF_8));
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> fail(e));
        Runtime.getRuntime().addShutdownHook(new Thread(r::saveQuietly, "bench-record"));
        current = r;
        return r;
    }

    /** Marks the running bench as failed, so that nothing is saved (for benches that catch their own failure). */
    public static void failed() {
        BenchRecord r = current;
        if (r != null) {
            r.failed = true;
        }
    }

    /**
     * Ends a failed bench: nothing is saved, one line on standard error says what failed (the stack
     * trace only with {@code -Dvw.bench.trace=true}), and the JVM exits with 1 even while the local
     * cluster's threads are still running.
     */
    public static void fail(Throwable e) {
        failed();
        BenchRecord r = current;
        String message = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName()
                : e.getMessage().lines().findFirst().orElse("");
        System.err.println("[bench] " + (r == null ? "" : r.bench + " ") + "failed: " + message
                + (Boolean.getBoolean("vw.bench.trace") ? "" : " (VW_JAVA_OPTS=-Dvw.bench.trace=true prints the stack trace)"));
        if (Boolean.getBoolean("vw.bench.trace")) {
            e.printStackTrace();
        }
        System.exit(1);
    }

    private void saveQuietly() {
        try {
            Path file = save();
            if (file != null) {
                System.err.println("[bench] saved " + file + " (bin/videoworld bench report writes docs/benchmarks.md)");
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("[bench] could not save the result: " + e.getMessage());
        }
    }

    /** Writes the record now; null when the run failed, printed no table or was saved already. */
    public synchronized Path save() throws IOException {
        if (failed || saved) {
            return null;
        }
        Parsed parsed = parse(captured.toString(StandardCharsets.UTF_8));
        if (parsed.tables().isEmpty()) {
            return null;
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("bench", bench);
        doc.put("command", command);
        doc.put("date", date);
        doc.put("machine", machine());
        doc.put("load", String.format(Locale.ROOT, "%.2f -> %.2f", loadBefore, load()));
        doc.put("tables", parsed.tables());
        doc.put("notes", parsed.notes());
        Path dir = Path.of(System.getProperty("vw.bench.results", "bench/results"));
        Files.createDirectories(dir);
        Path file = dir.resolve(bench + ".json");
        JSON.writeValue(file.toFile(), doc);
        saved = true;
        return file;
    }

    /** One printed table: the line printed above it, its header and its rows. */
    public record Table(String title, List<String> columns, List<List<String>> rows) {}

    /** The tables in a bench's output and the other lines (notes), in order. */
    public record Parsed(List<Table> tables, List<String> notes) {}

    /** Splits printed output into Markdown tables (a header, a separator row, rows) and notes. */
    public static Parsed parse(String output) {
        List<Table> tables = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        String[] lines = output.split("\\R");
        String lastText = "";
        int i = 0;
        while (i < lines.length) {
            String line = lines[i].strip();
            if (line.startsWith("|") && i + 1 < lines.length && lines[i + 1].strip().matches("\\|[-:| ]+\\|")) {
                List<String> columns = cells(line);
                List<List<String>> rows = new ArrayList<>();
                i += 2;
                while (i < lines.length && lines[i].strip().startsWith("|")) {
                    rows.add(cells(lines[i].strip()));
                    i++;
                }
                if (!lastText.isEmpty() && !notes.isEmpty() && notes.get(notes.size() - 1).equals(lastText)) {
                    notes.remove(notes.size() - 1);
                }
                tables.add(new Table(lastText, columns, rows));
                lastText = "";
                continue;
            }
            if (!line.isEmpty() && !line.startsWith("[videoworld-tests]")) {
                lastText = line;
                notes.add(line);
            }
            i++;
        }
        return new Parsed(tables, notes.size() > 40 ? notes.subList(notes.size() - 40, notes.size()) : notes);
    }

    private static List<String> cells(String row) {
        String inner = row.substring(1, row.endsWith("|") && row.length() > 1 ? row.length() - 1 : row.length());
        List<String> out = new ArrayList<>();
        for (String c : inner.split("(?<!\\\\)\\|", -1)) {
            out.add(c.strip());
        }
        return out;
    }

    /** This machine: cores, memory and CPU model. */
    static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("memory_gib", memoryGib());
        m.put("cpu", cpuModel());
        return m;
    }

    private static Double memoryGib() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (l.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(l.replaceAll("\\D+", ""));
                    return Math.round(kb / 1024.0 / 1024.0 * 10) / 10.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return null;
    }

    private static String cpuModel() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (l.startsWith("model name")) {
                    return l.substring(l.indexOf(':') + 1).strip();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /** Writes to the console and to the capture. */
    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int x) throws IOException {
            a.write(x);
            synchronized (b) {
                b.write(x);
            }
        }

        @Override
        public void write(byte[] bytes, int off, int len) throws IOException {
            a.write(bytes, off, len);
            synchronized (b) {
                b.write(bytes, off, len);
            }
        }

        @Override
        public void flush() throws IOException {
            a.flush();
        }
    }
}
