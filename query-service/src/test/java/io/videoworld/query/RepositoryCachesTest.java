package io.videoworld.query;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.esread.MemoryRepository;
import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.ObjectRepository.Entity;
import io.videoworld.connectors.esread.PerceptionRepository;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.testkit.TestInfra;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The query service's read caches over the real Elasticsearch: a repository reads its own writes
 * at once however fresh its cached read is, sees other writers once that read expires, and
 * writes again what was deleted (by a stream delete here, or elsewhere once the check is due).
 */
class RepositoryCachesTest {
    private static RestClientTransport transport;
    private static ElasticsearchClient es;

    @BeforeAll
    static void connect() throws Exception {
        transport = EsClients.transport(TestInfra.get().elasticsearchUrl());
        es = EsClients.sync(transport);
        EsIndices.ensure(es, EsIndices.ALL);
    }

    @AfterAll
    static void close() throws Exception {
        transport.close();
    }

    private static Entity entity(String stream, String id, long atMs) {
        return new Entity(id, stream, "the box", "the box", "box", List.of(stream + ":t:1"), atMs, null);
    }

    @Test
    void anEntityWrittenIsInTheNextReadsWhileTheCachedReadIsStillFresh() throws Exception {
        String stream = "own-writes-" + System.nanoTime();
        ObjectRepository repo = new ObjectRepository(es, 60_000);
        repo.save(entity(stream, "ent_b", 5000));
        assertThat(repo.entities(stream)).extracting(Entity::entityId).containsExactly("ent_b");
        // Both reads are now cached for a minute; the writes below must show through them.
        assertThat(repo.entity(stream, "ent_a")).isEmpty();
        repo.save(entity(stream, "ent_a", 2000));
        repo.save(new Entity("ent_b", stream, "renamed", "renamed", "box", List.of(), 5000, null));
        assertThat(repo.entities(stream)).extracting(Entity::entityId, Entity::name).containsExactly(
                org.assertj.core.groups.Tuple.tuple("ent_a", "the box"), org.assertj.core.groups.Tuple.tuple("ent_b", "renamed"));
        assertThat(repo.entity(stream, "ent_a")).map(Entity::registeredAtMs).contains(2000L);
        // And they are really in the index: a repository without caches finds them once the index refreshes.
        ObjectRepository fresh = new ObjectRepository(es);
        es.indices().refresh(r -> r.index(Names.ENTITIES_INDEX));
        assertThat(fresh.entities(stream)).extracting(Entity::name).containsExactly("the box", "renamed");
    }

    @Test
    void anotherWritersEntityIsSeenOnceTheCachedReadExpires() throws Exception {
        String stream = "other-writer-" + System.nanoTime();
        long ttl = 2000;
        ObjectRepository repo = new ObjectRepository(es, ttl);
        assertThat(repo.entities(stream)).isEmpty();
        long read = System.nanoTime();
        ObjectNode doc = Json.MAPPER.valueToTree(entity(stream, "ent_x", 1000));
        doc.remove("appearance");
        es.index(i -> i.index(Names.ENTITIES_INDEX).id(stream + ":ent_x").document(doc).refresh(Refresh.True));
        if ((System.nanoTime() - read) / 1e6 < ttl - 200) {
            assertThat(repo.entities(stream)).as("still the cached read").isEmpty();
        }
        long deadline = System.currentTimeMillis() + ttl + 5000;
        while (repo.entities(stream).isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(repo.entities(stream)).extracting(Entity::entityId).containsExactly("ent_x");
        assertThat((System.nanoTime() - read) / 1e6).as("not before the read expired").isGreaterThanOrEqualTo(ttl);
    }

    @Test
    void aDeletedStreamIsForgottenAndItsEntityWrittenAgain() throws Exception {
        String stream = "deleted-" + System.nanoTime();
        ObjectRepository repo = new ObjectRepository(es, 60_000);
        Entity e = entity(stream, "ent_d", 1000);
        repo.save(e);
        // What a stream delete does to the index (the test cluster has no delete-by-query), then tells the repository.
        es.delete(d -> d.index(Names.ENTITIES_INDEX).id(stream + ":ent_d").refresh(Refresh.True));
        repo.forgetStream(stream);
        assertThat(repo.entities(stream)).isEmpty();
        assertThat(repo.entity(stream, "ent_d")).isEmpty();
        repo.save(e);
        assertThat(es.exists(x -> x.index(Names.ENTITIES_INDEX).id(stream + ":ent_d")).value()).as("written again, not taken as still there").isTrue();
    }

    @Test
    void aMemoryIsFoundRightAfterItsWriteAndRewrittenOnceItsDeletionElsewhereIsDue() throws Exception {
        String stream = "memories-" + System.nanoTime();
        long cacheMs = 200;
        MemoryRepository repo = new MemoryRepository(es, cacheMs);
        ObjectNode doc = Json.MAPPER.createObjectNode().put("memory_id", "mem_1").put("stream_id", stream).put("level", "event")
                .put("type", "note").put("content", "the parcel arrives at the porch").put("start_time", 10.0).put("end_time", 20.0)
                .put("created_ms", System.currentTimeMillis());
        assertThat(repo.searchMemories(stream, List.of(), "parcel porch", null, 0, 100, 5)).isEmpty();
        repo.save(stream, "mem_1", doc);
        assertThat(repo.memory(stream, "mem_1")).map(m -> m.path("content").asText()).contains("the parcel arrives at the porch");
        assertThat(repo.searchMemories(stream, List.of(), "parcel porch", null, 0, 100, 5)).extracting(s -> s.source().path("memory_id").asText())
                .containsExactly("mem_1");
        es.delete(d -> d.index(Names.MEMORIES_INDEX).id(stream + ":mem_1").refresh(Refresh.True));
        // Past the window in which the same write stands unchecked (the read cache's period and its grace).
        Thread.sleep(cacheMs + 1000 + 300);
        repo.save(stream, "mem_1", doc.deepCopy().put("created_ms", System.currentTimeMillis()));
        assertThat(es.exists(x -> x.index(Names.MEMORIES_INDEX).id(stream + ":mem_1")).value()).isTrue();
    }

    @Test
    void aKeyframesTextLinesAreReadOnceAndTheirRewriteSeenOnceTheReadExpires() throws Exception {
        String stream = "lines-" + System.nanoTime();
        long ttl = 1000;
        PerceptionRepository repo = new PerceptionRepository(es, ttl);
        writeLines(stream, "EXIT");
        assertThat(repo.linesNear(stream, 1, 5000, 1000)).extracting(io.videoworld.core.TextLine::text).containsExactly("EXIT");
        long read = System.nanoTime();
        writeLines(stream, "ENTRANCE");
        if ((System.nanoTime() - read) / 1e6 < ttl - 200) {
            assertThat(repo.linesNear(stream, 1, 5000, 1000)).as("still the cached read").extracting(io.videoworld.core.TextLine::text)
                    .containsExactly("EXIT");
        }
        // Staleness bound: the cache period plus the grace in which an expired read answers while it is renewed.
        long deadline = System.currentTimeMillis() + ttl + 1000 + 3000;
        while (!repo.linesNear(stream, 1, 5000, 1000).get(0).text().equals("ENTRANCE") && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertThat(repo.linesNear(stream, 1, 5000, 1000)).extracting(io.videoworld.core.TextLine::text).containsExactly("ENTRANCE");
        assertThat((System.nanoTime() - read) / 1e6).as("not before the read expired").isGreaterThanOrEqualTo(ttl);
    }

    /** A keyframe's analysis at 5 s of push 1 with one text line, as the job writes it, searchable at once. */
    private static void writeLines(String stream, String text) throws Exception {
        ObjectNode doc = Json.MAPPER.createObjectNode().put("stream_id", stream).put("epoch_ms", 1L).put("frame_index", 25L).put("pts_ms", 5000L)
                .put("text", text);
        doc.putArray("lines").addObject().put("text", text).put("x", 10).put("y", 20).put("width", 100).put("height", 16).put("score", 0.9);
        es.index(i -> i.index(Names.PERCEPTION_INDEX).id(stream + ":25").document(doc).refresh(Refresh.True));
    }
}
