package io.videoworld.query.live;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.query.QueryConfig;
import io.videoworld.query.QueryServer;
import io.videoworld.testkit.SnapshotStreams;
import io.videoworld.testkit.TestInfra;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /v1/streams/{id}/events} against the real Elasticsearch: documents written as the
 * ingest job writes them arrive as shot, episode (new, then merged) and track (seen, then ended)
 * events, only for the stream asked about; a client resuming with {@code Last-Event-ID} gets what
 * came after that event and nothing before it; bad starts are 400s naming the field.
 */
class LiveEventsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final long EPOCH = 1_700_001_100_000L;
    @TempDir
    static Path tmp;
    private static QueryServer server;
    private static RestClientTransport transport;
    private static ElasticsearchClient es;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static String stream;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        stream = "live-" + Long.toString(System.nanoTime(), 36);
        transport = EsClients.transport(TestInfra.get().elasticsearchUrl());
        es = EsClients.sync(transport);
        EsIndices.ensure(es, EsIndices.ALL);
        server = new QueryServer(QueryConfig.of(TestInfra.get().elasticsearchUrl(), tmp.toString())).start("127.0.0.1", 0);
        base = "http://127.0.0.1:" + server.port() + "/v1/streams/";
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (transport != null) {
            transport.close();
        }
    }

    @Test
    void writesArriveAsEventsInOrderAndAResumedClientGetsOnlyWhatCameAfter() throws Exception {
        String resumeAt;
        try (SseReader sse = new SseReader(HTTP, base + stream + "/events", null)) {
            assertThat(sse.status).isEqualTo(200);
            SseReader.Event ready = sse.next(WAIT);
            assertThat(ready.name()).isEqualTo("ready");
            assertThat(ready.data().path("stream_id").asText()).isEqualTo(stream);

            SnapshotStreams.write(es, EsDocuments.segment(shot(stream, 50)));
            SnapshotStreams.write(es, EsDocuments.segment(shot("other-" + stream, 50)));
            SseReader.Event shot = sse.next(WAIT);
            assertThat(shot.name()).isEqualTo("shot");
            assertThat(shot.data().path("id").asText()).isEqualTo(stream + ":shot:0000000050");
            assertThat(shot.data().path("start_time").asDouble()).isEqualTo(2.0);
            assertThat(shot.data().path("transition").asText()).isEqualTo("cut");

            SnapshotStreams.write(es, EsDocuments.episode(episode(1, "A parcel is left on the porch")));
            SseReader.Event inserted = sse.next(WAIT);
            assertThat(inserted.name()).isEqualTo("episode");
            assertThat(inserted.data().path("change").asText()).isEqualTo("new");
            assertThat(inserted.data().path("summary").asText()).isEqualTo("A parcel is left on the porch");
            resumeAt = inserted.id();

            SnapshotStreams.write(es, EsDocuments.episode(episode(2, "A parcel is left on the porch and taken inside")));
            SseReader.Event merged = sse.next(WAIT);
            assertThat(merged.data().path("change").asText()).isEqualTo("merged");
            assertThat(merged.data().path("id").asText()).isEqualTo(inserted.data().path("id").asText());
            assertThat(merged.data().path("revision").asLong()).isEqualTo(2);

            SnapshotStreams.write(es, EsDocuments.track(track(true)));
            SseReader.Event seen = sse.next(WAIT);
            assertThat(seen.name()).isEqualTo("track");
            assertThat(seen.data().path("change").asText()).isEqualTo("seen");
            assertThat(seen.data().path("category").asText()).isEqualTo("dog");
            SnapshotStreams.write(es, EsDocuments.track(track(false)));
            SseReader.Event ended = sse.next(WAIT);
            assertThat(ended.data().path("change").asText()).isEqualTo("ended");
            assertThat(ended.data().path("end_time").asDouble()).isEqualTo(3.2);
            assertThat(sse.poll(Duration.ofMillis(1500))).as("the other stream's shot is not delivered").isNull();
        }

        // The episode was merged and the track ended since: the resumed client gets their latest state, not the shot again.
        try (SseReader resumed = new SseReader(HTTP, base + stream + "/events", resumeAt)) {
            assertThat(resumed.next(WAIT).name()).isEqualTo("ready");
            SseReader.Event first = resumed.next(WAIT);
            SseReader.Event second = resumed.next(WAIT);
            assertThat(List.of(first.name() + "/" + first.data().path("change").asText(), second.name() + "/" + second.data().path("change").asText()))
                    .containsExactly("episode/merged", "track/ended");
            assertThat(resumed.poll(Duration.ofMillis(1200))).isNull();
        }

        try (SseReader replay = new SseReader(HTTP, base + stream + "/events?from=start", null)) {
            assertThat(replay.next(WAIT).name()).isEqualTo("ready");
            assertThat(List.of(replay.next(WAIT).name(), replay.next(WAIT).name(), replay.next(WAIT).name()))
                    .containsExactly("episode", "shot", "track");
        }
    }

    @Test
    void recognisedSpeechArrivesAsSpeechEventsWithItsWordsAndAFailureAsFailed() throws Exception {
        String talk = stream + "-talk";
        try (SseReader sse = new SseReader(HTTP, base + talk + "/events", null)) {
            assertThat(sse.next(WAIT).name()).isEqualTo("ready");
            SnapshotStreams.write(es, EsDocuments.transcript(new TranscriptDoc(talk, EPOCH, 4_200, 6_700, 0.97, -18, "silero-vad-v5",
                    "sphinx4:en-us", TranscriptDoc.OK, "front center", List.of(new TranscriptDoc.Word("front", 4_300, 4_800)), null)));
            SseReader.Event said = sse.next(WAIT);
            assertThat(said.name()).isEqualTo("speech");
            assertThat(said.data().path("change").asText()).isEqualTo("said");
            assertThat(said.data().path("text").asText()).isEqualTo("front center");
            assertThat(said.data().path("recognizer").asText()).isEqualTo("sphinx4:en-us");
            assertThat(said.data().path("start_time").asDouble()).isEqualTo(4.2);
            assertThat(said.data().path("end_time").asDouble()).isEqualTo(6.7);
            assertThat(said.data().path("id").asText()).isEqualTo(io.videoworld.core.Ids.transcript(talk, 4_200));
            SnapshotStreams.write(es, EsDocuments.transcript(new TranscriptDoc(talk, EPOCH, 9_000, 10_000, 0.9, -20, "silero-vad-v5",
                    "sphinx4:en-us", TranscriptDoc.FAILED, null, List.of(), "the recogniser timed out")));
            SseReader.Event failed = sse.next(WAIT);
            assertThat(failed.data().path("change").asText()).isEqualTo("failed");
            assertThat(failed.data().has("text")).as("a failure is not an empty transcript").isFalse();
        }
    }

    @Test
    void badStartsAreRefusedNamingTheField() throws Exception {
        try (SseReader bad = new SseReader(HTTP, base + stream + "/events", "vw-shots/0=abc")) {
            assertThat(bad.status).isEqualTo(400);
            assertThat(bad.body).contains("\"field\":\"Last-Event-ID\"");
        }
        try (SseReader bad = new SseReader(HTTP, base + stream + "/events?from=yesterday", null)) {
            assertThat(bad.status).isEqualTo(400);
            assertThat(bad.body).contains("\"field\":\"from\"");
        }
        HttpResponse<String> badId = HTTP.send(HttpRequest.newBuilder(URI.create(base + "no%20spaces/events")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(badId.statusCode()).isEqualTo(400);
        assertThat(badId.body()).contains("\"field\":\"id\"");
    }

    private static Segment shot(String streamId, long start) {
        return new Segment(streamId, Segment.SHOT, EPOCH, SourceKind.VIDEO, start, start + 30, start * 40, (start + 30) * 40,
                EPOCH + start * 40, EPOCH + (start + 30) * 40, "cut", "adaptive", 40, start, 1, start + 15, List.of(), true);
    }

    private static EpisodeDoc episode(long revision, String summary) {
        return new EpisodeDoc(stream, EPOCH, 1, revision, "scene_activity", "camera", EPOCH, EPOCH + 4000, 0, 4000, null, summary,
                "[details] " + summary, List.of("porch"), List.of(), (int) revision, null, "rules", revision > 1, false);
    }

    private static TrackDoc track(boolean alive) {
        TrackPoint first = new TrackPoint(20, 800, 10, 10, 60, 60, 0.8);
        TrackPoint last = new TrackPoint(80, 3200, 100, 10, 150, 60, 0.7);
        return new TrackDoc(stream, EPOCH, 7, "dog", 640, 360, first, last, alive ? 5 : 9, 0.75, alive, 0, List.of(first, last), null);
    }
}
