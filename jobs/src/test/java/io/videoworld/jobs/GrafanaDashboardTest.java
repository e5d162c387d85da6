package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Ingested;
import io.videoworld.core.Json;
import io.videoworld.operators.CountDeadLetters;
import io.videoworld.operators.RouteDeadLetters;
import io.videoworld.query.QueryConfig;
import io.videoworld.query.QueryServer;
import io.videoworld.testkit.TestInfra;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/grafana's dashboard reads only metrics that exist: every metric name in its PromQL is one
 * that a real query service serves at {@code /metrics}, or one that Flink's Prometheus reporter
 * serves for a running job made of the ingest job's own metric-registering operators, configured
 * the way {@link LocalLauncher} configures it.
 */
class GrafanaDashboardTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** PromQL words that are not metric names. */
    private static final Set<String> PROMQL = Set.of("sum", "max", "min", "avg", "count", "rate", "irate", "increase", "by", "without",
            "on", "ignoring", "group_left", "group_right", "histogram_quantile", "and", "or", "unless", "topk", "bottomk", "offset", "bool");
    private static final Pattern WORD = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    @TempDir
    Path tmp;

    @Test
    void everyMetricOfTheDashboardIsServed() throws Exception {
        Path repo = Path.of("").toAbsolutePath();
        while (!Files.exists(repo.resolve("docker-compose.yml"))) {
            repo = repo.getParent();
        }
        JsonNode dashboard = Json.MAPPER.readTree(repo.resolve("deploy/grafana/videoworld.json").toFile());
        List<String> expressions = new ArrayList<>();
        collect(dashboard.path("panels"), expressions);
        assertThat(expressions).hasSizeGreaterThan(10);
        Set<String> named = new TreeSet<>();
        expressions.forEach(e -> named.addAll(metricNames(e)));
        assertThat(named).contains("vw_requests_seconds_count", "vw_es_requests_seconds_bucket", "vw_sse_clients",
                "vw_alert_deliveries_total", "cache_gets_total", "flink_taskmanager_job_task_operator_vwDeadLetters", "flink_jobmanager_job_uptime");

        Set<String> served = new TreeSet<>(queryServiceMetrics());
        served.addAll(flinkMetrics(named.stream().filter(n -> n.startsWith("flink_")).toList()));
        assertThat(named).as("metric names in deploy/grafana/videoworld.json").isSubsetOf(served);
    }

    /** The metric names of one PromQL expression: label matchers, strings, ranges and grouping lists taken out first. */
    static Set<String> metricNames(String promql) {
        String e = promql.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"").replaceAll("\\{[^}]*\\}", " ").replaceAll("\\[[^]]*\\]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Set<String> names = new TreeSet<>();
        Matcher m = WORD.matcher(e);
        while (m.find()) {
            String w = m.group();
            boolean call = e.substring(m.end()).stripLeading().startsWith("(");
            if (!call && !PROMQL.contains(w) && !w.matches("\\d.*")) {
                names.add(w);
            }
        }
        return names;
    }

    private static void collect(JsonNode panels, List<String> out) {
        for (JsonNode p : panels) {
            p.path("targets").forEach(t -> out.add(t.path("expr").asText()));
            collect(p.path("panels"), out);
        }
    }

    /** What a real query service serves once it has answered a few requests and has a cache bound. */
    private Set<String> queryServiceMetrics() throws Exception {
        try (QueryServer server = new QueryServer(QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString())).start("127.0.0.1", 0)) {
            String base = "http://127.0.0.1:" + server.port();
            HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/tools")).build(), HttpResponse.BodyHandlers.discarding());
            HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/tools/get_video_info"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"video_id\": \"nothing-here\"}")).build(), HttpResponse.BodyHandlers.discarding());
            long[] stats = {1, 1};
            server.metrics().bindCache("dashboard-test", stats, s -> s[0], s -> s[1]);
            return names(HTTP.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body());
        }
    }

    /**
     * What Flink's Prometheus reporter serves for a running job whose operators register the ingest
     * job's counters (RouteDeadLetters, CountDeadLetters), waiting until {@code wanted} are all there
     * or a minute has passed.
     */
    private static Set<String> flinkMetrics(List<String> wanted) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Configuration flink = new Configuration();
        LocalLauncher.prometheus(flink, Integer.toString(port));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, flink);
        SingleOutputStreamOperator<FrameBatch> batches = env.fromSequence(0, Long.MAX_VALUE).map(new Slowly())
                .process(new RouteDeadLetters()).name("route-dead-letters");
        batches.sinkTo(new DiscardingSink<>());
        batches.getSideOutput(io.videoworld.operators.deadletters.DeadLetters.TAG).map(new CountDeadLetters()).name("count-dead-letters").sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("dashboard-metrics");
        try {
            Set<String> served = Set.of();
            for (int i = 0; i < 120 && !served.containsAll(wanted); i++) {
                Thread.sleep(500);
                try {
                    served = names(HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                            HttpResponse.BodyHandlers.ofString()).body());
                } catch (java.io.IOException notYet) {
                    // the reporter starts with the cluster
                }
            }
            return served;
        } finally {
            job.cancel().get();
        }
    }

    /** Metric names of a Prometheus text exposition. */
    static Set<String> names(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }

    /** Undecodable records, a few a second: the counters move and the job runs until cancelled. */
    static final class Slowly implements MapFunction<Long, Ingested> {
        @Override
        public Ingested map(Long n) throws Exception {
            Thread.sleep(20);
            return new Ingested(null, new DeadLetter("not a frame batch", "decode", "test", n, new byte[0], new byte[0]));
        }
    }
}
