package io.videoworld.connectors.es;

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
        assertThat(BulkItemOutcome.of(400)).isEqualTo(BulkItemOutcome.FATAL);
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
                new float[] {0, 1}, "cpu");
        String json = new String(EsDocuments.perception(p).json(), StandardCharsets.UTF_8);
        assertThat(json).doesNotContain("text_embedding").contains("\"image_descriptor\":[0.0,1.0]");
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
