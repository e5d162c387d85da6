package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.videoworld.connectors.flink.kafka.FrameBatchDeserializer;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.Ingested;
import io.videoworld.engines.shots.FeatureExtractor;
import io.videoworld.testkit.MalformedRecords;
import io.videoworld.testkit.MalformedRecords.Poison;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Every record of the hostile corpus is refused at the stage it names, with its reason; no check throws. */
class MalformedRecordsTest {
    private static final List<Poison> CORPUS = MalformedRecords.corpus(1_700_000_000_000L);

    @Test
    void theCorpusCoversAtLeastTwelveClassesAndSixtyRecords() {
        assertThat(CORPUS).hasSizeGreaterThanOrEqualTo(60);
        assertThat(CORPUS.stream().map(Poison::kind).collect(Collectors.toSet())).hasSizeGreaterThanOrEqualTo(12);
    }

    @Test
    void everyRecordMeantForTheEdgeIsADeadLetterWithItsReason() {
        java.util.Map<String, String> table = new java.util.LinkedHashMap<>();
        for (Poison p : CORPUS) {
            if (!DeadLetter.INGEST.equals(p.stage())) {
                continue;
            }
            Ingested in = FrameBatchDeserializer.decode(new ConsumerRecord<>("vw.frames", 0, 7, p.key(), p.value()));
            assertThat(in.batch()).as("%s must not pass the edge", p).isNull();
            assertThat(in.deadLetter().reason()).as("reason for %s", p).contains(p.reason());
            assertThat(in.deadLetter().value()).as("original bytes of %s", p).isEqualTo(p.value());
            assertThat(in.deadLetter().origin()).isEqualTo("vw.frames/0@7");
            table.merge(p.kind(), "1 | " + in.deadLetter().reason(), (a, b) -> (Integer.parseInt(a.substring(0, a.indexOf(' '))) + 1)
                    + a.substring(a.indexOf(' ')));
        }
        // The per-class table the README and the closing note quote.
        table.forEach((kind, row) -> System.out.println("[malformed] " + kind + " | " + row));
    }

    @Test
    void wellFormedHeadersOverUndecodablePixelsPassTheEdgeAndFailTheFirstDecoder() {
        List<Poison> late = CORPUS.stream().filter(p -> !DeadLetter.INGEST.equals(p.stage())).toList();
        assertThat(late).isNotEmpty();
        for (Poison p : late) {
            Ingested in = FrameBatchDeserializer.decode(new ConsumerRecord<>("vw.frames", 0, 7, p.key(), p.value()));
            assertThat(in.deadLetter()).as("%s passes the edge", p).isNull();
            FrameBatch b = in.batch();
            assertThatThrownBy(() -> FeatureExtractor.extract(b, b.frames().get(0))).hasMessageContaining(p.reason());
        }
    }
}
