package io.videoworld.query.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import io.videoworld.core.TranscriptDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.query.QueryConfig;
import io.videoworld.query.QueryServer;
import io.videoworld.testkit.SnapshotStreams;
import io.videoworld.testkit.TestInfra;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.auth.Caller;
import java.net.InetAddress;
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
    /** Each delivery to /flaky as it came: body bytes, timestamp and signature headers. */
    private static final List<Signed> signed = new CopyOnWriteArrayList<>();

    private record Signed(byte[] body, String timestamp, String signature) {}

    /** Each delivery to /heard. */
    private static final List<JsonNode> heard = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        prefix = "alert-" + Long.toString(System.nanoTime(), 36);
        transport = EsClients.transport(TestInfra.get().elasticsearchUrl());
        es = EsClients.sync(transport);
        EsIndices.ensure(es, EsIndices.ALL);
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/flaky", x -> {
            byte[] bytes = x.getRequestBody().readAllBytes();
            signed.add(new Signed(bytes, x.getRequestHeaders().getFirst(WebhookSignature.TIMESTAMP_HEADER),
                    x.getRequestHeaders().getFirst(WebhookSignature.SIGNATURE_HEADER)));
            received.add(Json.MAPPER.readTree(bytes));
            deliveryHeaders.add(x.getRequestHeaders().getFirst("X-VideoWorld-Delivery"));
            receivedAt.add(System.currentTimeMillis());
            x.sendResponseHeaders(received.size() == 1 ? 503 : 204, -1);
            x.close();
        });
        receiver.createContext("/heard", x -> {
            heard.add(Json.MAPPER.readTree(x.getRequestBody().readAllBytes()));
            x.sendResponseHeaders(204, -1);
            x.close();
        });
        receiver.createContext("/down", x -> {
            x.sendResponseHeaders(500, -1);
            x.close();
        });
        receiver.start();
        server = new QueryServer(config()).start("127.0.0.1", 0);
    }

    /** The receiver is on this machine: loopback has to be allowed, as an operator would for a local receiver. */
    private static QueryConfig config() {
        return QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString())
                .withWebhooks(WebhookEgress.of(List.of(), List.of("127.0.0.0/8")));
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
        String secret = parcel.path("webhook_secret").asText();
        assertThat(secret).as("the secret is answered once, at creation").matches("whsec_[0-9a-f]{64}");
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

        // The receiver verifies every delivery with the secret; a changed body or an old timestamp does not verify.
        long now = System.currentTimeMillis() / 1000;
        assertThat(signed).hasSize(2).allSatisfy(s -> {
            assertThat(s.signature()).matches("v1=[0-9a-f]{64}");
            assertThat(Long.parseLong(s.timestamp())).isCloseTo(now, org.assertj.core.data.Offset.offset(60L));
            assertThat(WebhookSignature.verify(secret, s.timestamp(), s.signature(), s.body(), now, WebhookSignature.DEFAULT_TOLERANCE_S))
                    .isTrue();
        });
        Signed first = signed.get(0);
        byte[] tampered = new String(first.body(), StandardCharsets.UTF_8).replace("parcel", "pardel").getBytes(StandardCharsets.UTF_8);
        assertThat(WebhookSignature.verify(secret, first.timestamp(), first.signature(), tampered, now, 300)).isFalse();
        assertThat(WebhookSignature.verify(secret, first.timestamp(), first.signature(), first.body(), now + 3600, 300)).isFalse();
        assertThat(WebhookSignature.verify("whsec_other", first.timestamp(), first.signature(), first.body(), now, 300)).isFalse();
        assertThat(call("GET", "/v1/alerts", null).toString()).as("listings never show the secret").doesNotContain(secret)
                .doesNotContain("webhook_secret");

        JsonNode dog = waitFor(dogId, 1, "failed").path("deliveries").get(0);
        assertThat(dog.path("event").path("category").asText()).isEqualTo("dog");
        assertThat(dog.path("attempts")).extracting(a -> a.path("status").asInt()).containsExactly(500, 500);

        // A merge rewrites the episode: the alert has fired for it already.
        SnapshotStreams.write(es, EsDocuments.episode(episode(prefix + "-porch", 2, 2, "A parcel is left on the porch and taken in")));
        Thread.sleep(2_500);
        assertThat(received).hasSize(2);
        assertThat(call("GET", "/v1/alerts/" + parcelId + "/deliveries", null).path("deliveries")).hasSize(1);

        // Alerts live in Elasticsearch: a new server (a restart) lists them.
        try (QueryServer second = new QueryServer(config()).start("127.0.0.1", 0)) {
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
    void aSpokenPhraseFiresASpeechAlertAndOnlyIt() throws Exception {
        String hook = "http://127.0.0.1:" + receiver.getAddress().getPort();
        String kitchen = prefix + "-kitchen";
        String id = call("POST", "/v1/alerts", "{\"stream_pattern\": \"" + kitchen + "\", \"query\": \"kettle broken\", \"kinds\": [\"speech\"],"
                + " \"webhook_url\": \"" + hook + "/heard\"}").path("alert_id").asText();
        SnapshotStreams.write(es, EsDocuments.transcript(said(kitchen, 1_000, "the kettle is fine", TranscriptDoc.OK)));
        SnapshotStreams.write(es, EsDocuments.transcript(said(kitchen, 9_000, null, TranscriptDoc.FAILED)));
        SnapshotStreams.write(es, EsDocuments.transcript(said(kitchen, 12_000, "oh no the kettle is broken again", TranscriptDoc.OK)));
        // Seen, not said: an episode with the same words does not fire a speech alert.
        SnapshotStreams.write(es, EsDocuments.episode(episode(kitchen, 1, 1, "The kettle is broken")));
        JsonNode log = waitFor(id, 1, "delivered");
        JsonNode event = log.path("deliveries").get(0).path("event");
        assertThat(event.path("type").asText()).isEqualTo("speech");
        assertThat(event.path("change").asText()).isEqualTo("said");
        assertThat(event.path("text").asText()).isEqualTo("oh no the kettle is broken again");
        assertThat(event.path("recognizer").asText()).isEqualTo("sphinx4:en-us");
        assertThat(event.path("start_time").asDouble()).isEqualTo(12.0);
        assertThat(event.path("end_time").asDouble()).isEqualTo(14.5);
        Thread.sleep(2_000);
        assertThat(heard).hasSize(1);
        assertThat(heard.get(0).path("event").path("text").asText()).isEqualTo("oh no the kettle is broken again");
        // An alert that names no kinds follows episodes and tracks, as before speech was followed.
        assertThat(call("POST", "/v1/alerts", "{\"stream_pattern\": \"" + kitchen + "\", \"query\": \"kettle\", \"webhook_url\": \"" + hook
                + "/heard\"}").path("kinds")).extracting(JsonNode::asText).containsExactly("episode", "track");
    }

    private static TranscriptDoc said(String stream, long startMs, String text, String status) {
        return new TranscriptDoc(stream, EPOCH, startMs, startMs + 2_500, 0.9, -20, "silero-vad-v5", "sphinx4:en-us", status, text, List.of(),
                text == null ? "the recogniser timed out" : null);
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

    @Test
    void webhooksToLoopbackPrivateLinkLocalOrNonHttpUrlsAreRefusedByDefault() {
        WebhookEgress dflt = WebhookEgress.publicOnly();
        for (String url : List.of("http://127.0.0.1:9/hook", "http://localhost/hook", "http://10.1.2.3/hook", "http://192.168.0.7/x",
                "http://172.20.0.1/x", "http://169.254.169.254/latest/meta-data/", "http://[::1]/x", "http://[fe80::1]/x",
                "http://[fd00::5]/x", "http://0.0.0.0/x", "http://100.64.0.1/x", "file:///etc/passwd", "ftp://93.184.216.34/x",
                "http://user:pw@93.184.216.34/x", "gopher://93.184.216.34/x")) {
            assertThatThrownBy(() -> AlertRequest.parse(Json.MAPPER.readTree("{\"stream_pattern\": \"cam-*\", \"query\": \"parcel\","
                    + " \"webhook_url\": \"" + url + "\"}"), Caller.ANYONE, 0, dflt)).as(url).isInstanceOfSatisfying(ApiException.class,
                            e -> assertThat(e.field()).isEqualTo("webhook_url"));
        }
        assertThatCode(() -> dflt.check("https://93.184.216.34/hook")).doesNotThrowAnyException();

        // A name is judged by what it resolves to: a public-looking name pointing inside is refused.
        WebhookEgress inside = dflt.withResolver(h -> new InetAddress[] {InetAddress.getByName("93.184.216.34"), InetAddress.getByName("10.0.0.8")});
        assertThatThrownBy(() -> inside.check("https://hooks.example.com/x")).isInstanceOf(WebhookEgress.Refused.class)
                .hasMessageContaining("10.0.0.8").hasMessageContaining("private");

        // Only what is configured opens: a network for private addresses, names to restrict public ones.
        WebhookEgress lab = WebhookEgress.of(List.of("*.example.com"), List.of("10.8.0.0/16", "127.0.0.1"))
                .withResolver(h -> new InetAddress[] {InetAddress.getByName(h.matches("[0-9.]+") ? h : h.startsWith("lab") ? "10.8.3.4" : "93.184.216.34")});
        assertThatCode(() -> lab.check("http://127.0.0.1:8080/x")).doesNotThrowAnyException();
        assertThatCode(() -> lab.check("http://lab.internal/x")).doesNotThrowAnyException();
        assertThatCode(() -> lab.check("https://hooks.example.com/x")).doesNotThrowAnyException();
        assertThatThrownBy(() -> lab.check("https://elsewhere.org/x")).isInstanceOf(WebhookEgress.Refused.class)
                .hasMessageContaining("not among the allowed webhook hosts");
        assertThatThrownBy(() -> lab.check("http://127.0.0.2/x")).isInstanceOf(WebhookEgress.Refused.class).hasMessageContaining("loopback");
        assertThatThrownBy(() -> lab.check("http://10.9.0.1/x")).isInstanceOf(WebhookEgress.Refused.class);
        assertThatThrownBy(() -> WebhookEgress.of(List.of(), List.of("intranet"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WebhookEgress.of(List.of(), List.of("10.0.0.0/33"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSignatureVerifiesOnlyForItsSecretBodyAndTime() {
        String secret = WebhookSignature.newSecret();
        byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        String sig = WebhookSignature.sign(secret, 1_700_000_000L, body);
        assertThat(WebhookSignature.verify(secret, "1700000000", sig, body, 1_700_000_100L, 300)).isTrue();
        assertThat(WebhookSignature.verify(secret, "1700000000", "v0=abc, " + sig, body, 1_700_000_100L, 300)).as("one of several").isTrue();
        assertThat(WebhookSignature.verify(secret, "1700000001", sig, body, 1_700_000_100L, 300)).as("another timestamp").isFalse();
        assertThat(WebhookSignature.verify(secret, "1700000000", sig, "{\"a\":2}".getBytes(StandardCharsets.UTF_8), 1_700_000_100L, 300))
                .isFalse();
        assertThat(WebhookSignature.verify(secret, "1700000000", sig, body, 1_700_000_301L, 300)).as("replayed too late").isFalse();
        assertThat(WebhookSignature.verify(secret, "1700000000", "v1=zz", body, 1_700_000_100L, 300)).isFalse();
        // The same computation a receiver in another language does, from docs/webhooks.md.
        assertThat(sig).isEqualTo("v1=" + hmacHex(secret, "1700000000." + "{\"a\":1}"));
    }

    @Test
    void aDeliveryIsCheckedAgainWhenTheHostNowResolvesInside() throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> address = new java.util.concurrent.atomic.AtomicReference<>("93.184.216.34");
        WebhookEgress moving = WebhookEgress.publicOnly().withResolver(h -> h.equals("hook.invalid")
                ? new InetAddress[] {InetAddress.getByName(address.get())} : InetAddress.getAllByName(h));
        try (Alerts alerts = new Alerts(es, 300, 2_000, moving).start()) {
            String id = alerts.create(Caller.ANYONE, Json.MAPPER.readTree("{\"stream_pattern\": \"" + prefix + "-moving\", \"query\": \"ladder\","
                    + " \"webhook_url\": \"http://hook.invalid/x\", \"retry\": {\"max_attempts\": 5, \"backoff_ms\": 100}}")).alertId();
            address.set("127.0.0.1");
            SnapshotStreams.write(es, EsDocuments.episode(episode(prefix + "-moving", 1, 1, "A ladder leans on the wall")));
            JsonNode d = waitFor(id, 1, "failed").path("deliveries").get(0);
            assertThat(d.path("attempts")).as("refused once, not retried").hasSize(1);
            assertThat(d.path("attempts").get(0).path("error").asText()).startsWith("refused: ");
            alerts.delete(Caller.ANYONE, id);
        }
    }

    private static String hmacHex(String secret, String text) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
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
