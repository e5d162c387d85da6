package io.videoworld.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.bench.docs.ConfigReference;
import io.videoworld.query.api.Endpoints;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps README.md and docs/ true to the code where a test can read them: the generated pages, the
 * commands, option names and endpoints they name, and the README's length. Regenerate the
 * configuration page with {@code -Dvw.docs.update=true} (or {@code bin/videoworld docs}).
 */
class DocsTest {
    private static final Path ROOT = root();
    /** Namespaces of the ingest job's options: a name under one must be an option. */
    private static final Set<String> JOB_NAMESPACES = Set.of("vw.kafka", "vw.ingest", "vw.es", "vw.shots", "vw.perception", "vw.detect",
            "vw.track", "vw.memory", "vw.privacy");

    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("bin/videoworld"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("no bin/videoworld above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    /** README.md and every page under docs/, by path relative to the root. */
    private static Map<String, String> pages() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("README.md", Files.readString(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                out.put("docs/" + f.getFileName(), Files.readString(f));
            }
        }
        return out;
    }

    @Test
    void configurationPageIsGeneratedFromTheOptionsClasses() throws IOException {
        Path page = ROOT.resolve("docs/configuration.md");
        String generated = ConfigReference.render();
        if (Boolean.getBoolean("vw.docs.update")) {
            Files.writeString(page, generated, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(page))
                .as("docs/configuration.md differs from the options classes: run bin/videoworld docs "
                        + "(or this test with -Dvw.docs.update=true) and commit the result")
                .isEqualTo(generated);
    }

    @Test
    void benchmarksPageIsRenderedFromTheSavedResults() throws IOException {
        assertThat(Files.readString(ROOT.resolve("docs/benchmarks.md")))
                .as("docs/benchmarks.md differs from bench/results/*.json: run bin/videoworld bench report and commit the result")
                .isEqualTo(BenchReport.render(ROOT.resolve("bench/results")));
    }

    @Test
    void readmeIsShort() throws IOException {
        assertThat(Files.readAllLines(ROOT.resolve("README.md"))).as("README.md lines").hasSizeLessThanOrEqualTo(300);
    }

    @Test
    void everyCommandNamedIsOneBinVideoworldKnows() throws IOException {
        String script = Files.readString(ROOT.resolve("bin/videoworld"));
        Set<String> top = labels(script.substring(script.indexOf("case \"$cmd\" in")), "^  ([a-z|-]+)\\)");
        Set<String> bench = labels(script, "^      ([a-z-]+)\\) (?:(?:VW_JAVA_OPTS=\\S+ \\S+ \\S+ )?java_main bench|exec \"\\$repo/deploy/)");
        Set<String> cluster = labels(Files.readString(ROOT.resolve("deploy/cluster.sh")), "^  ([a-z-]+)\\)");
        cluster.add("faults");
        assertThat(top).contains("demo", "push", "bench", "cluster");
        assertThat(bench).contains("ingest", "stack", "report");
        List<String> unknown = new ArrayList<>();
        Pattern use = Pattern.compile("bin/videoworld ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?");
        for (Map.Entry<String, String> page : pages().entrySet()) {
            Matcher m = use.matcher(page.getValue());
            while (m.find()) {
                String cmd = m.group(1);
                String sub = m.group(2);
                if (!top.contains(cmd)) {
                    unknown.add(page.getKey() + ": bin/videoworld " + cmd);
                } else if (sub != null && cmd.equals("bench") && !bench.contains(sub)) {
                    unknown.add(page.getKey() + ": bin/videoworld bench " + sub);
                } else if (sub != null && cmd.equals("cluster") && !cluster.contains(sub)) {
                    unknown.add(page.getKey() + ": bin/videoworld cluster " + sub);
                }
            }
        }
        assertThat(unknown).as("commands bin/videoworld does not know").isEmpty();
    }

    @Test
    void everyOptionNamedExists() throws IOException {
        Set<String> options = new TreeSet<>(ConfigReference.jobKeys());
        Set<String> literals = sourceLiterals();
        List<String> unknown = new ArrayList<>();
        Pattern name = Pattern.compile("(?<![A-Za-z0-9_./-])vw\\.[a-z0-9][a-z0-9.-]*[a-z0-9]");
        for (Map.Entry<String, String> page : pages().entrySet()) {
            Matcher m = name.matcher(page.getValue());
            while (m.find()) {
                String n = m.group();
                String[] parts = n.split("\\.");
                boolean jobNamespace = parts.length >= 3 && JOB_NAMESPACES.contains(parts[0] + "." + parts[1]);
                boolean known = options.contains(n) || (!jobNamespace && literals.contains(n));
                if (!known) {
                    unknown.add(page.getKey() + ": " + n);
                }
            }
        }
        assertThat(unknown).as("vw.* names in the docs that are neither job options nor names the code reads").isEmpty();
    }

    /** Every "vw.…" string literal in the sources: topics, headers, system properties. */
    private static Set<String> sourceLiterals() throws IOException {
        Set<String> out = new TreeSet<>();
        Pattern literal = Pattern.compile("\"(?:\\$\\{sys:)?(vw\\.[a-z0-9][a-z0-9.-]*[a-z0-9])\\}?\"");
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/")
                    && !p.toString().contains("/.vw/")).toList()) {
                Matcher m = literal.matcher(Files.readString(f));
                while (m.find()) {
                    out.add(m.group(1));
                }
            }
        }
        return out;
    }

    @Test
    void everyEndpointNamedIsServed() throws IOException {
        List<String[]> served = new ArrayList<>();
        for (Endpoints.Endpoint e : Endpoints.ALL) {
            served.add(segments(e.path()));
        }
        served.add(segments("/v1/tools/{name}"));
        List<String> unknown = new ArrayList<>();
        Pattern path = Pattern.compile("/v1(?:/[A-Za-z0-9_{}<>.:-]+)+");
        for (Map.Entry<String, String> page : pages().entrySet()) {
            Matcher m = path.matcher(page.getValue());
            while (m.find()) {
                String[] doc = segments(m.group());
                if (served.stream().noneMatch(s -> matches(s, doc))) {
                    unknown.add(page.getKey() + ": " + m.group());
                }
            }
        }
        assertThat(unknown).as("endpoints the docs name that QueryServer does not serve").isEmpty();
    }

    private static String[] segments(String path) {
        return path.replaceAll("^/+|/+$", "").split("/");
    }

    /** A documented path matches a route when each segment is equal or the route's is a parameter. */
    private static boolean matches(String[] route, String[] doc) {
        if (route.length != doc.length) {
            return false;
        }
        for (int i = 0; i < route.length; i++) {
            boolean param = route[i].startsWith("{");
            if (!param && !route[i].equals(doc[i])) {
                return false;
            }
        }
        return true;
    }

    private static Set<String> labels(String text, String regex) {
        Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
        while (m.find()) {
            for (String l : m.group(1).split("\\|")) {
                out.add(l);
            }
        }
        return out;
    }
}
