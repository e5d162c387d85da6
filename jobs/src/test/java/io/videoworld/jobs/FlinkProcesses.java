package io.videoworld.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Flink standalone session cluster as separate JVMs, the way deploy/cluster.sh starts one: a
 * JobManager ({@code StandaloneSessionClusterEntrypoint}) and TaskManagers ({@code TaskManagerRunner})
 * from a generated configuration, on this test's classpath (the job's classes are on it, so no jar
 * is uploaded). Each process can be killed with SIGKILL and started again under the same id.
 */
final class FlinkProcesses implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** What Flink's own scripts add to the JVM for its reflection (as in deploy/cluster.sh). */
    private static final List<String> OPENS = List.of("--add-exports=java.base/sun.net.util=ALL-UNNAMED",
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private final Path dir;
    private final int restPort;
    private final Map<String, Process> running = new LinkedHashMap<>();

    /** Writes the configuration: {@code slots} per TaskManager, checkpoints and restarts as the cluster script sets them. */
    FlinkProcesses(Path dir, int slots) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.restPort = freePort();
        Files.createDirectories(dir.resolve("tmp"));
        Files.createDirectories(dir.resolve("conf"));
        Files.writeString(dir.resolve("conf/config.yaml"), String.join("\n",
                "jobmanager.rpc.address: 127.0.0.1", "jobmanager.rpc.port: " + freePort(), "jobmanager.bind-host: 127.0.0.1",
                "taskmanager.bind-host: 127.0.0.1", "taskmanager.host: 127.0.0.1", "rest.address: 127.0.0.1",
                "rest.bind-address: 127.0.0.1", "rest.port: " + restPort, "io.tmp.dirs: " + dir.resolve("tmp"),
                "jobmanager.memory.process.size: 768m",
                // TaskManagerRunner started directly (no flink-dist scripts to derive them): the whole resource spec
                "taskmanager.cpu.cores: 1", "taskmanager.memory.framework.heap.size: 96m", "taskmanager.memory.task.heap.size: 384m",
                "taskmanager.memory.framework.off-heap.size: 128m", "taskmanager.memory.task.off-heap.size: 64m",
                "taskmanager.memory.network.min: 64m", "taskmanager.memory.network.max: 64m", "taskmanager.memory.managed.size: 32m",
                "taskmanager.memory.jvm-metaspace.size: 256m", "taskmanager.memory.jvm-overhead.min: 192m",
                "taskmanager.memory.jvm-overhead.max: 192m", "taskmanager.numberOfTaskSlots: " + slots,
                "taskmanager.load-balance.mode: slots", "restart-strategy.type: fixed-delay",
                "restart-strategy.fixed-delay.attempts: 1000", "restart-strategy.fixed-delay.delay: 1 s",
                "heartbeat.interval: 1000", "heartbeat.timeout: 6000", ""));
        Files.writeString(dir.resolve("conf/log4j.properties"), String.join("\n", "rootLogger.level = INFO",
                "rootLogger.appenderRef.file.ref = file", "appender.file.type = File", "appender.file.name = file",
                "appender.file.fileName = ${sys:log.file}", "appender.file.layout.type = PatternLayout",
                "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-40c{1} - %m%n", "logger.kafka.name = org.apache.kafka",
                "logger.kafka.level = WARN", ""));
    }

    int restPort() {
        return restPort;
    }

    Path logs() {
        return dir;
    }

    /** Starts the JobManager ({@code jm}) or a TaskManager ({@code tm1}, {@code tm2}, ...). */
    void start(String name) throws IOException {
        String main = name.equals("jm") ? "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint"
                : "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:MaxDirectMemorySize=300m", "-XX:+UseSerialGC",
                "-Dlog.file=" + dir.resolve(name + ".log"), "-Dlog4j.configurationFile=" + dir.resolve("conf/log4j.properties")));
        cmd.addAll(OPENS);
        cmd.addAll(List.of("-cp", classpath(), main, "--configDir", dir.resolve("conf").toString()));
        if (!name.equals("jm")) {
            cmd.addAll(List.of("-D", "taskmanager.resource-id=" + name));
        }
        running.put(name, new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".out").toFile())).start());
    }

    /** kill -9: the process gets no chance to deregister or flush. */
    void kill(String name) throws InterruptedException {
        Process p = running.remove(name);
        p.destroyForcibly();
        p.waitFor();
    }

    /** GET on the REST API, or null while it does not answer. */
    JsonNode rest(String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + restPort + path))
                    .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Json.MAPPER.readTree(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** TaskManagers registered with the JobManager. */
    int taskManagers() {
        JsonNode tms = rest("/taskmanagers");
        return tms == null ? 0 : tms.path("taskmanagers").size();
    }

    /** Whether the job and every one of its vertices are RUNNING. */
    boolean running(String jobId) {
        JsonNode j = rest("/jobs/" + jobId);
        if (j == null || !j.path("state").asText().equals("RUNNING")) {
            return false;
        }
        for (JsonNode v : j.path("vertices")) {
            if (!v.path("status").asText().equals("RUNNING")) {
                return false;
            }
        }
        return true;
    }

    /** Failures in the job's exception history (each one a restart). */
    int failures(String jobId) {
        JsonNode e = rest("/jobs/" + jobId + "/exceptions");
        return e == null ? -1 : e.path("exceptionHistory").path("entries").size();
    }

    /** The surefire test classpath (the JVM's own is a manifest-only jar under surefire). */
    private static String classpath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (String name : new ArrayList<>(running.keySet())) {
            kill(name);
        }
    }
}
