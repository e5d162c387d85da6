package io.videoworld.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The query service in its own JVM, started as {@code bin/videoworld query-service} starts it: the
 * same main class and options, the module's classpath, and no JVM options but those in
 * {@code $VW_SERVICE_JAVA_OPTS} (empty by default, as {@code $VW_JAVA_OPTS} is for a user), so its
 * heap is the JVM's default one and no other work's garbage pauses it.
 */
final class ServiceProcess implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final int port;

    private ServiceProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts the service over {@code esUrl}, {@code frameStore} and {@code models}, its output in
     * {@code log}, and returns once it answers {@code /health} (any status: 503 only says the ingest
     * job is not checked the way a deployment checks it).
     */
    static ServiceProcess start(String esUrl, Path frameStore, Path models, Path log) throws Exception {
        return start(esUrl, frameStore, models, log, List.of());
    }

    /** {@link #start(String, Path, Path, Path)} with more of the service's options ({@code --llm-url URL}, ...). */
    static ServiceProcess start(String esUrl, Path frameStore, Path models, Path log, List<String> more) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String opts = System.getenv("VW_SERVICE_JAVA_OPTS");
        if (opts != null && !opts.isBlank()) {
            cmd.addAll(List.of(opts.trim().split("\\s+")));
        }
        cmd.addAll(List.of("-cp", classpath(), "io.videoworld.query.QueryServiceMain", "--host", "127.0.0.1", "--port",
                String.valueOf(port), "--es-url", esUrl, "--frame-store", frameStore.toAbsolutePath().toString(), "--models",
                models.toAbsolutePath().toString(), "--flink-url", "none"));
        // The bench measures latency under its own open loop: the traffic limits (docs/limits.md) would
        // turn the queueing it measures into refusals.
        cmd.addAll(List.of("--rate-limit", "0", "--request-deadline", "0", "--max-concurrent-ask", "100000", "--max-workers", "100000"));
        cmd.addAll(more);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServiceProcess service = new ServiceProcess(p, log, port);
        // The bench may be stopped by a signal (its run limit); the service must not outlive it.
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly));
        service.awaitUp(Duration.ofSeconds(180));
        System.out.printf("query service: its own JVM (pid %d, options '%s'), log %s%n", p.pid(), opts == null ? "" : opts.trim(), log);
        return service;
    }

    /**
     * The classpath {@code bin/videoworld} gives the service: its module's classes and
     * {@code target/classpath.txt}; {@code -Dvw.bench.service-cp} overrides it (a worktree's own
     * module classes ahead of the shared repository's jars), and without a build the bench's own.
     */
    private static String classpath() throws IOException {
        String given = System.getProperty("vw.bench.service-cp");
        if (given != null && !given.isBlank()) {
            return given;
        }
        Path file = Path.of("query-service", "target", "classpath.txt");
        if (Files.exists(file)) {
            return Path.of("query-service", "target", "classes").toAbsolutePath() + ":" + Files.readString(file).trim();
        }
        System.out.println("note: no query-service/target/classpath.txt here; the service runs on the bench's classpath");
        return System.getProperty("java.class.path");
    }

    private void awaitUp(Duration limit) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create(url() + "/health")).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the query service exited with " + process.exitValue() + "; " + tail());
            }
            try {
                http.send(health, HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException notYet) {
                Thread.sleep(500);
            }
        }
        close();
        throw new IllegalStateException("the query service did not answer /health in " + limit.toSeconds() + " s; " + tail());
    }

    private String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return "last lines of " + log + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    /** Stops it as a user's Ctrl-C does (its shutdown hook closes the server), then for good after 15 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
