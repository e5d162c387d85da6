package io.videoworld.connectors.flink.es;

import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsWrite;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.FrameDoc;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.VideoDoc;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EsSinkPartsTest {
    @Test
    void versionConflictsAreDoneOverloadIsRetriedBadDocumentsAreFatal() {
        assertThat(BulkItemOutcome.of(201)).isEqualTo(BulkItemOutcome.DONE);
        assertThat(BulkItemOutcome.of(409)).isEqualTo(BulkItemOutcome.DONE);
        assertThat(BulkItemOutcome.of(429)).isEqualTo(BulkItemOutcome.RETRY);
        assertThat(BulkItemOutcome.of(503)).isEqualTo(BulkItemOutcome.RETRY);
        assertThat(BulkItemOutcome.of(0)).isEqualTo(BulkItemOutcome.RETRY);
        assertThat(BulkItemOutcome.of(400)).isEqualTo(BulkItemOutcome.DEAD_LETTER);
        assertThat(BulkItemOutcome.of(403)).isEqualTo(BulkItemOutcome.FATAL);
        assertThat(BulkItemOutcome.of(400, "mapper_parsing_exception")).isEqualTo(BulkItemOutcome.DEAD_LETTER);
        assertThat(BulkItemOutcome.of(400, "index_closed_exception")).isEqualTo(BulkItemOutcome.FATAL);
        assertThat(BulkItemOutcome.of(404)).isEqualTo(BulkItemOutcome.FATAL);
    }

    @Test
    void bufferedWritesSurviveACheckpoint() throws Exception {
        EsWrite w = new EsWrite("vw-frames", "cam:f:0000000007", 12, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        EsWriteStateSerializer s = new EsWriteStateSerializer();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        s.serializeRequestToStream(w, new DataOutputStream(bytes));
        EsWrite back = s.deserializeRequestFromStream(bytes.size(), new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(back).isEqualTo(w);
    }

    @Test
    void streamDocumentsAreVersionedSoALateWriteCannotRollThemBack() {
        SourceInfo info = new SourceInfo(25, null, null, "h264", false, 0, 0, null, null, 64, 36, 25);
        VideoDoc early = new VideoDoc("cam", SourceKind.VIDEO, "u", info, 0, 0, 40, 40, 2, 1, 0, 1, 64, 36, VideoDoc.LIVE);
        VideoDoc later = new VideoDoc("cam", SourceKind.VIDEO, "u", info, 0, 0, 80, 80, 3, 2, 1, 2, 64, 36, VideoDoc.LIVE);
        assertThat(EsDocuments.video(later).version()).isGreaterThan(EsDocuments.video(early).version());
        assertThat(EsDocuments.video(later.withStatus(VideoDoc.IDLE)).version()).isGreaterThan(EsDocuments.video(later).version());
        assertThat(EsDocuments.video(later).id()).isEqualTo("cam");
    }

    @Test
    void zeroLengthVectorsAreLeftOutRatherThanRefusedByTheMapping() {
        var p = new io.videoworld.core.Perception("cam", 1_700_000_000_000L, 3, 120, "first", java.util.List.of(), "", new float[4],
                new float[] {0, 1}, "cpu", 640, 360, java.util.List.of(), 1_700_000_000_120L);
        String json = new String(EsDocuments.perception(p).json(), StandardCharsets.UTF_8);
        assertThat(json).doesNotContain("text_embedding").contains("\"image_descriptor\":[0.0,1.0]");
    }

    @Test
    void boxesAreWrittenNormalisedAndInPixelsWithoutTheirAppearance() throws Exception {
        var person = new io.videoworld.core.Detection("person", 0.8123456, 64, 36, 320, 360, new float[] {1, 0});
        var f = new io.videoworld.core.DetectedFrame("cam", 1_700_000_000_000L, 7, 280, 1_700_000_000_280L, 640, 360, false,
                java.util.List.of(person), null, "cpu");
        var node = io.videoworld.core.Json.MAPPER.readTree(EsDocuments.detections(f).json());
        assertThat(node.at("/labels/0").asText()).isEqualTo("person");
        assertThat(node.at("/objects/0/bbox").toString()).isEqualTo("[0.1,0.1,0.5,1.0]");
        assertThat(node.at("/objects/0/bbox_pixels").toString()).isEqualTo("[64,36,320,360]");
        assertThat(node.at("/objects/0/score").asDouble()).isEqualTo(0.8123);
        assertThat(node.toString()).doesNotContain("appearance");
    }

    @Test
    void aTrackThatDiedOutranksEveryEarlierWriteOfIt() {
        var a = new io.videoworld.core.TrackPoint(1, 40, 0, 0, 10, 10, 0.9);
        var b = new io.videoworld.core.TrackPoint(9, 360, 5, 5, 15, 15, 0.8);
        var alive = new io.videoworld.core.TrackDoc("cam", 1_700_000_000_000L, 3, "person", 640, 360, a, b, 10, 0.85, true, 0,
                java.util.List.of(a, b), new float[] {0, 1});
        var dead = new io.videoworld.core.TrackDoc("cam", 1_700_000_000_000L, 3, "person", 640, 360, a, b, 10, 0.85, false, 0,
                java.util.List.of(a, b), new float[] {0, 1});
        var longer = new io.videoworld.core.TrackDoc("cam", 1_700_000_000_000L, 3, "person", 640, 360, a, b, 11, 0.85, true, 0,
                java.util.List.of(a, b), new float[] {0, 1});
        assertThat(EsDocuments.track(dead).version()).isGreaterThan(EsDocuments.track(alive).version());
        assertThat(EsDocuments.track(longer).version()).isGreaterThan(EsDocuments.track(dead).version());
        assertThat(EsDocuments.track(alive).id()).isEqualTo("cam:t:000003");
    }

    @Test
    void frameDocumentsHaveSnakeCaseJsonAndDeterministicIds() {
        EsWrite w = EsDocuments.frame(new FrameDoc("cam", 1_700_000_000_000L, 7, 280, 1280, 1, 64, 36, 900, SourceKind.SCREEN));
        assertThat(w.id()).isEqualTo("cam:f:0000000007");
        assertThat(w.version()).isEqualTo(EsDocuments.pushVersion(1_700_000_000_000L, 1));
        assertThat(new String(w.json(), StandardCharsets.UTF_8))
                .contains("\"frame_index\":7").contains("\"event_time_ms\":1280").contains("\"source_kind\":\"screen\"");
    }
}
