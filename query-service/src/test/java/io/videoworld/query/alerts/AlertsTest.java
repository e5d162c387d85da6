package io.videoworld.query.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Json;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.query.QueryConfig;
import io.videoworld.query.QueryServer;
import io.videoworld.testkit.SnapshotStreams;
import io.videoworld.testkit.TestInfra;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts end to end against the real Elasticsearch and a webhook receiver on this machine
 * ({@code com.sun.net.httpserver}) that refuses a delivery's first attempt and takes the second:
 * the matching episode is posted, retried after the backoff, logged with both attempts, and not
 * posted again when the episode is merged; a labels alert on a webhook that always fails ends
 * {@code failed} after its attempts; alerts outlive the server; bad requests are 400s naming the field.
 */
class AlertsTest {
    private static final long EPOCH = 1_700_001_200_000L;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static HttpServer receiver;
    private static RestClientTransport transport;
    private static ElasticsearchClient es;
    private static String prefix;
    private static final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private static final List<String> deliveryHeaders = new CopyOnWriteArrayList<>();
    private static final List<Long> receivedAt = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        prefix = "alert-" + Long.toString(System.nanoTime(), 36);
        transport = EsClients.transport(TestInfra.get().elasticsearchUrl());
        es = EsClients.sync(transport);
        EsIndices.ensure(es, EsIndices.ALL);
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/flaky", x -> {
            received.add(Json.MAPPER.readTree(x.getRequestBody()));
            deliveryHeaders.add(x.getRequestHeaders().getFirst("X-VideoWorld-Delivery"));
            receivedAt.add(System.currentTimeMillis());
            x.sendResponseHeaders(received.size() == 1 ? 503 : 204, -1);
            x.close();
        });
        receiver.createContext("/down", x -> {
            x.sendResponseHeaders(500, -1);
            x.close();
        });
        receiver.start();
        server = new QueryServer(QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString())).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            for (JsonNode a : call("GET", "/v1/alerts", null).path("alerts")) {
                if (a.path("stream_pattern").asText().startsWith(prefix)) {
                    call("DELETE", "/v1/alerts/" + a.path("alert_id").asText(), null);
                }
            }
            server.close();
        }
        if (receiver != null) {
            receiver.stop(0);
        }
        if (transport != null) {
            transport.close();
        }
    }

    @Test
    void aMatchingEpisodeIsPostedRetriedAndLoggedOnceAndAFailingWebhookEndsFailed() throws Exception {
        String hook = "http://127.0.0.1:" + receiver.getAddress().getPort();
        JsonNode parcel = call("POST", "/v1/alerts", "{\"stream_pattern\": \"" + prefix + "-*\", \"query\": \"Parcel, porch\", \"name\": \"parcels\","
                + " \"webhook_url\": \"" + hook + "/flaky\", \"retry\": {\"max_attempts\": 4, \"backoff_ms\": 300}}");
        String parcelId = parcel.path("alert_id").asText();
        assertThat(parcelId).startsWith("alert_");
        String dogId = call("POST", "/v1/alerts", "{\"stream_pattern\": \"" + prefix + "-yard\", \"labels\": [\"dog\"], \"kinds\": [\"track\"],"
                + " \"webhook_url\": \"" + hook + "/down\", \"retry\": {\"max_attempts\": 2, \"backoff_ms\": 100}}").path("alert_id").asText();

        SnapshotStreams.write(es, EsDocuments.episode(episode(prefix + "-porch", 1, 1, "The cat sleeps on the porch")));
        SnapshotStreams.write(es, EsDocuments.episode(episode(prefix + "-porch", 2, 1, "A parcel is left on the porch")));
        SnapshotStreams.write(es, EsDocuments.episode(episode("other-" + prefix, 1, 1, "A parcel is left on the porch")));
        SnapshotStreams.write(es, EsDocuments.track(dog(prefix + "-yard")));

        JsonNode log = waitFor(parcelId, 1, "delivered");
        JsonNode delivery = log.path("deliveries").get(0);
        assertThat(received).hasSize(2);
        assertThat(received.get(0).path("event").path("summary").asText()).isEqualTo("A parcel is left on the porch");
        assertThat(received.get(0).path("event").path("stream_id").asText()).isEqualTo(prefix + "-porch");
        assertThat(received).extracting(r -> r.path("attempt").asInt()).containsExactly(1, 2);
        assertThat(deliveryHeaders).containsOnly(delivery.path("delivery_id").asText());
        assertThat(receivedAt.get(1) - receivedAt.get(0)).as("the retry waits for the backoff").isGreaterThanOrEqualTo(300);
        JsonNode attempts = delivery.path("attempts");
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).path("status").asInt()).isEqualTo(503);
        assertThat(attempts.get(0).path("error").asText()).isEqualTo("HTTP 503");
        assertThat(attempts.get(1).path("status").asInt()).isEqualTo(204);
        assertThat(attempts.get(1).has("error")).isFalse();

        JsonNode dog = waitFor(dogId, 1, "failed").path("deliveries").get(0);
        assertThat(dog.path("event").path("category").asText()).isEqualTo("dog");
        assertThat(dog.path("attempts")).extracting(a -> a.path("status").asInt()).containsExactly(500, 500);

        // A merge rewrites the episode: the alert has fired for it already.
        SnapshotStreams.write(es, EsDocuments.episode(episode(prefix + "-porch", 2, 2, "A parcel is left on the porch and taken in")));
        Thread.sleep(2_500);
        assertThat(received).hasSize(2);
        assertThat(call("GET", "/v1/alerts/" + parcelId + "/deliveries", null).path("deliveries")).hasSize(1);

        // Alerts live in Elasticsearch: a new server (a restart) lists them.
        try (QueryServer second = new QueryServer(QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString())).start("127.0.0.1", 0)) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + second.port() + "/v1/alerts")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.body()).contains(parcelId).contains(dogId);
        }
        assertThat(call("DELETE", "/v1/alerts/" + dogId, null).path("deleted").asBoolean()).isTrue();
        assertThat(status("DELETE", "/v1/alerts/" + dogId, null)).isEqualTo(404);
        assertThat(status("GET", "/v1/alerts/" + dogId + "/deliveries", null)).isEqualTo(404);
        assertThat(call("GET", "/v1/alerts", null).toString()).contains(parcelId).doesNotContain(dogId);
    }

    @Test
    void badAlertsAreRefusedNamingTheField() throws Exception {
        String ok = "\"stream_pattern\": \"cam-*\", \"query\": \"parcel\", \"webhook_url\": \"http://127.0.0.1:9/hook\"";
        assertRefused("{" + ok.replace("http://127.0.0.1:9/hook", "ftp://example.org/x") + "}", "webhook_url");
        assertRefused("{" + ok.replace("http://127.0.0.1:9/hook", "not a url") + "}", "webhook_url");
        assertRefused("{" + ok.replace("\"cam-*\"", "\"\"") + "}", "stream_pattern");
        assertRefused("{" + ok.replace("\"cam-*\"", "\"cam/../x\"") + "}", "stream_pattern");
        assertRefused("{\"stream_pattern\": \"cam-*\", \"webhook_url\": \"http://127.0.0.1:9/hook\"}", "query");
        assertRefused("{" + ok.replace("\"parcel\"", "\"  ,; \"") + "}", "query");
        assertRefused("{" + ok + ", \"labels\": [\"dog\", 3]}", "labels[1]");
        assertRefused("{" + ok + ", \"kinds\": [\"shot\"]}", "kinds");
        assertRefused("{" + ok + ", \"retry\": {\"max_attempts\": 0}}", "retry.max_attempts");
        assertRefused("{" + ok + ", \"webhook\": \"http://x\"}", "webhook");
        assertRefused("{\"query\": \"parcel\", \"webhook_url\": \"http://127.0.0.1:9/hook\"}", "stream_pattern");
        assertThat(status("DELETE", "/v1/alerts/nope", null)).isEqualTo(400);
        assertThat(status("GET", "/v1/alerts/alert_000000000000/deliveries", null)).isEqualTo(404);
    }

    private static void assertRefused(String body, String field) throws Exception {
        HttpResponse<String> r = send("POST", "/v1/alerts", body);
        assertThat(r.statusCode()).as(body).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(r.body()).path("error").path("field").asText()).as(body).isEqualTo(field);
    }

    private static JsonNode waitFor(String alertId, int deliveries, String status) throws Exception {
        long until = System.currentTimeMillis() + 15_000;
        JsonNode log = null;
        while (System.currentTimeMillis() < until) {
            log = call("GET", "/v1/alerts/" + alertId + "/deliveries", null);
            if (log.path("deliveries").size() == deliveries && log.path("deliveries").get(0).path("status").asText().equals(status)) {
                return log;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("alert " + alertId + " never had " + deliveries + " " + status + " deliveries: " + log);
    }

    private static EpisodeDoc episode(String stream, long seq, long revision, String summary) {
        return new EpisodeDoc(stream, EPOCH, seq, revision, "scene_activity", "camera", EPOCH, EPOCH + 4000, 0, 4000, null, summary,
                "[details] " + summary, List.of("porch"), List.of(), (int) revision, null, "rules", true, false);
    }

    private static TrackDoc dog(String stream) {
        TrackPoint first = new TrackPoint(20, 800, 10, 10, 60, 60, 0.8);
        TrackPoint last = new TrackPoint(80, 3200, 100, 10, 150, 60, 0.7);
        return new TrackDoc(stream, EPOCH, 3, "dog", 640, 360, first, last, 5, 0.75, true, 0, List.of(first, last), null);
    }

    private static JsonNode call(String method, String path, String body) throws Exception {
        HttpResponse<String> r = send(method, path, body);
        assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isBetween(200, 201);
        return Json.MAPPER.readTree(r.body());
    }

    private static int status(String method, String path, String body) throws Exception {
        return send(method, path, body).statusCode();
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.BodyPublisher p = body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8);
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).method(method, p)
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    }
}
