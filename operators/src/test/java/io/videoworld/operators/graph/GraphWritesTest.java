package io.videoworld.operators.graph;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.core.TranscriptDoc;
import io.videoworld.operators.deadletters.DeadLetters;
import java.util.List;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** The graph stages write versioned documents with the record's ids, keep nothing, and dead-letter a record they cannot read. */
class GraphWritesTest {
    private static EpisodeDoc episode(long revision, boolean deleted, String summary) {
        return new EpisodeDoc("gw-desk", 2_000_000L, 1, revision, "screen_activity", "user", 1, 2, 3_000, 6_000, "gedit", summary, "", List.of(),
                List.of(), 1, null, "rules", false, deleted);
    }

    @Test
    void anEventsWritesAreVersionedByItsRevisionAndItsDeletionDeletesTheSameIds() throws Exception {
        try (OneInputStreamOperatorTestHarness<EpisodeDoc, EsWrite> h = ProcessFunctionTestHarnesses.forProcessFunction(GraphWrites.fromEpisodes())) {
            h.processElement(episode(1, false, "Using plan.txt - gedit: milk"), 10);
            h.processElement(episode(2, true, "Using plan.txt - gedit: milk"), 11);
            List<EsWrite> out = h.extractOutputValues();
            List<EsWrite> written = out.stream().filter(w -> !w.isDelete()).toList();
            List<EsWrite> deleted = out.stream().filter(EsWrite::isDelete).toList();
            assertThat(written).extracting(EsWrite::id).containsExactly("gw-desk:e:000001:g", "gw-desk:e:000001:g:uses", "gw-desk:g:app:gedit",
                    "gw-desk:e:000001:g:opens", "gw-desk:g:document:plan.txt");
            assertThat(out).allMatch(w -> w.index().equals(Names.GRAPH_INDEX));
            assertThat(deleted).extracting(EsWrite::id).containsExactly("gw-desk:e:000001:g", "gw-desk:e:000001:g:uses", "gw-desk:e:000001:g:opens");
            assertThat(deleted.get(0).version()).isEqualTo(written.get(0).version() + 1);
            JsonNode opens = Json.MAPPER.readTree(written.get(3).json());
            assertThat(opens.get("kind").asText()).isEqualTo("opens");
            assertThat(opens.get("level").asText()).isEqualTo("low");
            assertThat(opens.get("clip_id").asText()).isEqualTo("gw-desk:e:000001");
            assertThat(opens.get("start_ms").asLong()).isEqualTo(3_000);
            assertThat(opens.get("event_time_ms").asLong()).isEqualTo(2_003_000);
            assertThat(h.getSideOutput(DeadLetters.TAG)).isNullOrEmpty();
            org.apache.flink.runtime.checkpoint.OperatorSubtaskState state = h.snapshot(1L, 20L);
            assertThat(state.getManagedKeyedState().isEmpty()).as("no keyed state").isTrue();
            assertThat(state.getManagedOperatorState().isEmpty()).as("no operator state").isTrue();
            assertThat(state.getRawKeyedState().isEmpty()).as("no timers").isTrue();
        }
    }

    @Test
    void aRecordThatCannotBeReadIsADeadLetterNotAFailure() throws Exception {
        try (OneInputStreamOperatorTestHarness<TranscriptDoc, EsWrite> h = ProcessFunctionTestHarnesses.forProcessFunction(GraphWrites.fromTranscripts())) {
            // A stream id that cannot be part of a document id.
            h.processElement(new TranscriptDoc("bad id/..", 1L, 0, 1_000, 0.9, -20, "vad", "asr", TranscriptDoc.OK, "hello", List.of(), null), 5);
            h.processElement(new TranscriptDoc("gw-talk", 1L, 0, 1_000, 0.9, -20, "vad", "asr", TranscriptDoc.OK, "hello there", List.of(), null), 6);
            assertThat(h.extractOutputValues()).extracting(EsWrite::id).containsExactly("gw-talk:a:000000000000:g", "gw-talk:a:000000000000:g:says");
            assertThat(h.getSideOutput(DeadLetters.TAG)).hasSize(1);
        }
    }
}
