package io.videoworld.operators.memory;

import io.videoworld.engines.memory.EpisodePolicy;
import io.videoworld.engines.memory.EpisodeWriting;
import static io.videoworld.testkit.MemoryFixtures.EPOCH;
import static io.videoworld.testkit.MemoryFixtures.topic;
import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.clients.llm.LlmConfig;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.SourceKind;
import io.videoworld.testkit.ScriptedLlm;
import io.videoworld.testkit.ScriptedLlm.Reply;
import io.videoworld.testkit.TestInfra;
import java.time.Duration;
import java.util.List;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The model is asked only about ambiguous batches, in MIRIX's one-call protocol, and its verdict survives a replay. */
class EpisodeContextTest {
    private static ScriptedLlm llm;
    private static EpisodeContext context;
    private static co.elastic.clients.elasticsearch.ElasticsearchClient es;
    private static final String STREAM = "ctx-" + System.nanoTime();

    @BeforeAll
    static void start() throws Exception {
        llm = ScriptedLlm.start();
        context = new EpisodeContext(TestInfra.get().elasticsearchUrl(), new LlmConfig(llm.baseUrl(), "scripted", null, Duration.ofSeconds(2), 0, false), 2);
        context.start(new UnregisteredMetricsGroup());
        es = io.videoworld.connectors.es.EsClients.sync(io.videoworld.connectors.es.EsClients.transport(TestInfra.get().elasticsearchUrl()));
        io.videoworld.connectors.es.EsIndices.ensure(es, io.videoworld.connectors.es.EsIndices.ALL);
    }

    @AfterAll
    static void stop() throws Exception {
        context.close();
        llm.close();
    }

    private static EpisodeBatch batch(long seq, String relation) {
        List<EpisodeBatch.Digest> recent = List.of(new EpisodeBatch.Digest(seq - 1, 0, 4000, "mail", "Inbox - Mail", "Quarterly report due Friday",
                topic(0, 0), "sc"));
        return new EpisodeBatch(STREAM, EPOCH, seq, SourceKind.SCREEN, 4000, 8000, EPOCH + 4000, EPOCH + 8000, 4, "s", "sc", "mail", "Inbox - Mail",
                List.of("Inbox - Mail", "Flight to Lisbon confirmed"), List.of(), List.of(), topic(0, 1.2), relation, -1, 0.4, recent, List.of(), null);
    }

    @Test
    void anAmbiguousBatchIsDecidedByOneFunctionCallThatIsRecordedAndReusedOnReplay() throws Exception {
        int before = llm.requests().size();
        llm.script(Reply.toolCall(EpisodeContext.FUNCTION, "{\"action\":\"merge\",\"reason\":\"same inbox session\"}"));
        EpisodeBatch decided = context.decide(batch(7, EpisodeBatch.AMBIGUOUS));
        assertThat(decided.relation()).isEqualTo(EpisodeBatch.CONTINUE);
        assertThat(decided.decidedBy()).isEqualTo("llm");
        assertThat(llm.requests()).hasSize(before + 1);
        var request = llm.requests().get(before);
        assertThat(request.get("tools").get(0).get("function").get("name").asText()).isEqualTo(EpisodeContext.FUNCTION);
        assertThat(request.get("messages").get(1).get("content").asText()).contains("Quarterly report due Friday").contains("Flight to Lisbon confirmed");

        EpisodeBatch replayed = context.decide(batch(7, EpisodeBatch.AMBIGUOUS));
        assertThat(replayed.relation()).isEqualTo(EpisodeBatch.CONTINUE);
        assertThat(llm.requests()).as("a replay reads the recorded verdict").hasSize(before + 1);
    }

    @Test
    void theModelIsToldWhatWasSaidDuringTheBatchQuotedAsData() throws Exception {
        int before = llm.requests().size();
        llm.script(Reply.toolCall(EpisodeContext.FUNCTION, "{\"action\":\"insert\"}"));
        EpisodeBatch b = batch(60, EpisodeBatch.AMBIGUOUS).withSaid(List.of(
                new EpisodeBatch.Utterance(4_500, 6_000, "book the \"Lisbon\" flight for Tuesday", "sphinx4:en-us"),
                new EpisodeBatch.Utterance(6_500, 7_000, null, "sphinx4:en-us")));
        EpisodeBatch decided = context.decide(b);
        assertThat(decided.decidedBy()).isEqualTo("llm");
        assertThat(decided.said()).isEqualTo(b.said());
        String prompt = llm.requests().get(before).get("messages").get(1).get("content").asText();
        assertThat(prompt).contains("said [4-6 s]: \"book the 'Lisbon' flight for Tuesday\"").doesNotContain("null");
    }

    @Test
    void clearBatchesNeverReachTheModel() throws Exception {
        int before = llm.requests().size();
        EpisodeBatch decided = context.decide(batch(20, EpisodeBatch.NEW));
        assertThat(decided.relation()).isEqualTo(EpisodeBatch.NEW);
        assertThat(decided.decidedBy()).isEqualTo("rules");
        assertThat(llm.requests()).hasSize(before);
    }

    @Test
    void aModelThatAnswersInProseOrWithAnUnknownActionIsOverruledByTheRules() throws Exception {
        llm.script(Reply.text("I think this is a new activity."));
        EpisodeBatch prose = context.decide(batch(30, EpisodeBatch.AMBIGUOUS));
        assertThat(prose.decidedBy()).isEqualTo("fallback");
        assertThat(prose.relation()).isEqualTo(EpisodePolicy.lean(batch(30, EpisodeBatch.AMBIGUOUS)));
        llm.script(Reply.toolCall(EpisodeContext.FUNCTION, "{\"action\":\"delete_everything\"}"));
        assertThat(context.decide(batch(31, EpisodeBatch.AMBIGUOUS)).decidedBy()).isEqualTo("fallback");
        llm.script(Reply.toolCall(EpisodeContext.FUNCTION, "{not json"));
        assertThat(context.decide(batch(32, EpisodeBatch.AMBIGUOUS)).decidedBy()).isEqualTo("fallback");
    }

    @Test
    void aModelSlowerThanItsTimeoutIsNotWaitedFor() throws Exception {
        llm.script(Reply.toolCall(EpisodeContext.FUNCTION, "{\"action\":\"merge\"}").after(4000));
        long t0 = System.nanoTime();
        EpisodeBatch decided = context.decide(batch(40, EpisodeBatch.AMBIGUOUS));
        assertThat(decided.decidedBy()).isEqualTo("fallback");
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(3900);
    }

    @Test
    void theModelMayMergeABatchIntoAnEarlierStoredEventWhichTheWriterLinksAsAReturn() throws Exception {
        String earlier = STREAM + ":e:000003";
        List<Float> vector = new java.util.ArrayList<>();
        for (float f : topic(0, 1.2)) {
            vector.add(f);
        }
        es.index(i -> i.index(io.videoworld.core.Names.EPISODES_INDEX).id(earlier).refresh(co.elastic.clients.elasticsearch._types.Refresh.True)
                .document(java.util.Map.of("stream_id", STREAM, "event_id", earlier, "summary", "Using Flights - Mail: Lisbon", "app", "mail",
                        "occurred_at", EPOCH, "embedding", vector)));
        int before = llm.requests().size();
        llm.script(Reply.toolCall(EpisodeContext.FUNCTION, "{\"action\":\"merge\",\"event_id\":\"" + earlier + "\",\"reason\":\"back to the flight\"}"));
        EpisodeBatch decided = context.decide(batch(50, EpisodeBatch.AMBIGUOUS));
        assertThat(decided.relation()).isEqualTo(EpisodeBatch.RETURN);
        assertThat(decided.decidedBy()).isEqualTo("llm");
        assertThat(decided.relevant().get(0).eventId()).isEqualTo(earlier);
        assertThat(llm.requests().get(before).get("messages").get(1).get("content").asText()).as("the candidates are offered").contains(earlier);

        EpisodeBatch replayed = context.decide(batch(50, EpisodeBatch.AMBIGUOUS));
        assertThat(llm.requests()).as("a replay reads the recorded verdict").hasSize(before + 1);
        assertThat(replayed.relation()).isEqualTo(EpisodeBatch.RETURN);
        assertThat(replayed.relevant().get(0).eventId()).isEqualTo(earlier);

        var written = new EpisodeWriting(600_000).write(null, decided);
        assertThat(written.decision()).isEqualTo("insert");
        assertThat(written.docs().get(written.docs().size() - 1).linkedEventIds()).containsExactly(earlier);

        llm.script(Reply.toolCall(EpisodeContext.FUNCTION, "{\"action\":\"merge\",\"event_id\":\"" + STREAM + ":e:999999\"}"));
        EpisodeBatch madeUp = context.decide(batch(51, EpisodeBatch.AMBIGUOUS));
        assertThat(madeUp.decidedBy()).as("an event that was not offered").isEqualTo("fallback");
    }
}
