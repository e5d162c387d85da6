package io.videoworld.connectors.flink.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.media.video.JpegEncoder;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.Ingested;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Scalar;
import org.junit.jupiter.api.Test;

class FrameBatchDeserializerTest {
    private static byte[] batch(String stream) {
        SourceFrame f;
        try (Mat img = new Mat(36, 64, org.bytedeco.opencv.global.opencv_core.CV_8UC3, new Scalar(10, 200, 30, 0))) {
            f = new JpegEncoder(0, 80).encode(img, 0, null);
        }
        return FrameBatchCodec.encode(new FrameBatch(stream, SourceKind.VIDEO, "v.mp4", 0, 1000,
                new SourceInfo(25, null, null, "h264", false, 0, 0, null, null, 64, 36, 25),
                List.of(new Frame(0, 0, null, f.width(), f.height(), f.jpeg(), f.thumb()))));
    }

    private static ConsumerRecord<byte[], byte[]> record(String key, byte[] value) {
        return new ConsumerRecord<>("vw.frames", 1, 42, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
    }

    @Test
    void aValidRecordBecomesABatch() {
        Ingested in = FrameBatchDeserializer.decode(record("garden", batch("garden")));
        assertThat(in.deadLetter()).isNull();
        assertThat(in.batch().streamId()).isEqualTo("garden");
        assertThat(in.eventTimeMs()).isEqualTo(1000);
    }

    @Test
    void aKeyThatDisagreesWithTheBatchIsADeadLetterNotAMisroutedBatch() {
        byte[] value = batch("garden");
        Ingested in = FrameBatchDeserializer.decode(record("kitchen", value));
        assertThat(in.batch()).isNull();
        assertThat(in.deadLetter().reason()).contains("'kitchen'").contains("'garden'");
        assertThat(in.deadLetter().value()).isEqualTo(value);
        assertThat(in.deadLetter().origin()).isEqualTo("vw.frames/1@42");
    }

    @Test
    void aNullValueIsADeadLetterWithItsReason() {
        Ingested in = FrameBatchDeserializer.decode(record("garden", null));
        assertThat(in.deadLetter().reason()).contains("too short");
    }
}
