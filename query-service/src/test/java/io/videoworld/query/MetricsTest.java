package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.query.metrics.ServiceMetrics;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /metrics} after real requests: the series docs/metrics.md names, in Prometheus text format. */
class MetricsTest {
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        server = new QueryServer(QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString())).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder at(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    }

    static String scrape() throws Exception {
        HttpResponse<String> r = send(at("/metrics"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
        return r.body();
    }

    @Test
    void requestsAreCountedByRouteToolAndStatus() throws Exception {
        assertThat(send(at("/v1/tools")).statusCode()).isEqualTo(200);
        // an alias is counted under the tool's own name; a stream nobody indexed is a 404 read from Elasticsearch
        assertThat(send(at("/v1/tools/get_video_metadata").POST(HttpRequest.BodyPublishers.ofString("{\"video_id\": \"no-such-stream\"}")))
                .statusCode()).isEqualTo(404);
        assertThat(send(at("/v1/tools/not_a_tool").POST(HttpRequest.BodyPublishers.ofString("{}"))).statusCode()).isEqualTo(404);
        assertThat(send(at("/random/path/" + System.nanoTime())).statusCode()).isEqualTo(404);

        String m = scrape();
        assertThat(m).contains("# TYPE vw_requests_seconds histogram")
                .contains("vw_requests_seconds_count{method=\"GET\",route=\"/v1/tools\",status=\"200\",tool=\"none\"} 1")
                .contains("vw_requests_seconds_count{method=\"POST\",route=\"/v1/tools/{name}\",status=\"404\",tool=\"get_video_info\"} 1")
                .contains("vw_requests_seconds_count{method=\"POST\",route=\"/v1/tools/{name}\",status=\"404\",tool=\"unknown\"} 1")
                .contains("vw_requests_seconds_count{method=\"GET\",route=\"unmatched\",status=\"404\",tool=\"none\"}")
                .contains("vw_requests_seconds_bucket{method=\"GET\",route=\"/v1/tools\",status=\"200\",tool=\"none\",le=\"0.005\"}")
                // the raw path of a request that matched no route never becomes a label
                .doesNotContain("/random/path");
        // the Elasticsearch read behind the 404, timed at the client
        assertThat(m).containsPattern("vw_es_requests_seconds_count\\{endpoint=\"get\",outcome=\"(ok|not_found)\"\\} [1-9]");
        assertThat(m).contains("vw_sse_clients 0.0").contains("vw_alert_deliveries_total{outcome=\"delivered\"} 0.0")
                .contains("vw_in_flight{kind=\"ask\"} 0.0").contains("vw_limited_total{limit=\"rate\"} 0.0").contains("jvm_memory_used_bytes").contains("jvm_classes_loaded_classes")
                .contains("jvm_threads_live_threads").contains("process_uptime_seconds");
    }

    @Test
    void theServicesOwnReadCachesAreCounted() throws Exception {
        for (int i = 0; i < 3; i++) {
            send(at("/v1/tools/get_temporal_structure").POST(HttpRequest.BodyPublishers.ofString("{\"video_id\": \"cache-probe\"}")));
        }
        String m = scrape();
        assertThat(m).contains("cache_gets_total{cache=\"segments.").contains("cache_gets_total{cache=\"evidence.")
                .contains("cache_gets_total{cache=\"video.seeker\",result=\"miss\"}");
        double videoLookups = m.lines().filter(l -> l.startsWith("cache_gets_total{cache=\"videos."))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        assertThat(videoLookups).as("stream lookups counted by the videos cache").isGreaterThanOrEqualTo(3);
    }

    @Test
    void metricsNeedNoTokenAndAreListedInTheOpenApiDocument() throws Exception {
        assertThat(send(at("/openapi.json")).body()).contains("\"/metrics\"");
    }

    @Test
    void alertAttemptsAreCountedByOutcomeAndCachesCanBeBound() {
        try (ServiceMetrics metrics = new ServiceMetrics()) {
            metrics.alertDelivery("pending");
            metrics.alertDelivery("failed");
            metrics.alertDelivery("delivered");
            metrics.alertDelivery("delivered");
            long[] stats = {7, 3};
            metrics.bindCache("videos", stats, s -> s[0], s -> s[1]);
            String m = metrics.scrape();
            assertThat(m).contains("vw_alert_deliveries_total{outcome=\"retrying\"} 1.0")
                    .contains("vw_alert_deliveries_total{outcome=\"failed\"} 1.0")
                    .contains("vw_alert_deliveries_total{outcome=\"delivered\"} 2.0")
                    .contains("cache_gets_total{cache=\"videos\",result=\"hit\"} 7.0")
                    .contains("cache_gets_total{cache=\"videos\",result=\"miss\"} 3.0");
        }
    }
}
