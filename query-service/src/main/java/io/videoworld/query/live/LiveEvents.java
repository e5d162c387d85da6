package io.videoworld.query.live;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import io.videoworld.core.Names;
import io.videoworld.query.api.ApiException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /v1/streams/{id}/events}: one stream's shots, episodes, tracks and recognised speech as server-sent
 * events while they are indexed, by polling the indices' sequence numbers ({@link IndexTail})
 * every {@code pollMs}. Each event's id is the position after it, so a client that reconnects
 * with {@code Last-Event-ID} misses nothing and sees nothing twice (beyond writes that became
 * searchable out of order within the settle time).
 */
public final class LiveEvents implements AutoCloseable {
    /** Where the events go; a client gone away makes {@link #event} throw, which ends the stream. */
    public interface Sink {
        void event(String id, String name, Object data);

        /** A comment line that keeps proxies from closing an idle connection and finds clients gone away. */
        void keepAlive();
    }

    /** The first event: where the stream starts, so a client knows it is connected before anything is indexed. */
    public record Ready(String streamId, String from, long pollMs) {}

    static final long KEEP_ALIVE_MS = 15_000;

    private final ElasticsearchClient es;
    private final long pollMs;
    private final long settleMs;
    private volatile boolean closed;

    public LiveEvents(ElasticsearchClient es, long pollMs, long settleMs) {
        this.es = es;
        this.pollMs = pollMs;
        this.settleMs = settleMs;
    }

    /**
     * Where a connection starts: the {@code Last-Event-ID} header when present, else {@code from}
     * ({@code now}, the default, or {@code start} for everything indexed so far).
     */
    public static IndexTail.Position start(String lastEventId, String from) {
        if (lastEventId != null && !lastEventId.isBlank()) {
            try {
                return IndexTail.Position.decode(lastEventId.strip());
            } catch (IllegalArgumentException e) {
                throw ApiException.badField("Last-Event-ID", "Last-Event-ID " + e.getMessage() + " (send back an event's id as it came)");
            }
        }
        if (from == null || from.equals("now")) {
            return null;
        }
        if (from.equals("start")) {
            return IndexTail.Position.START;
        }
        throw ApiException.badField("from", "from must be 'now' or 'start', not '" + ApiException.quote(from) + "'");
    }

    /** Sends the stream's events to {@code sink} until the client goes away or the service closes. */
    public void follow(String streamId, IndexTail.Position start, Sink sink) throws IOException, InterruptedException {
        IndexTail tail = new IndexTail(es, filters(streamId), start, settleMs, System::currentTimeMillis);
        IndexTail.Position at = tail.position();
        sink.event(at.encode(), "ready", new Ready(streamId, start == null ? "now" : "position", pollMs));
        long lastSent = System.currentTimeMillis();
        while (!closed) {
            for (IndexTail.Change c : tail.poll()) {
                at = at.after(c);
                LiveEvent e = LiveEvent.of(c.index(), c.id(), c.source());
                if (e != null) {
                    sink.event(at.encode(), e.type(), e);
                    lastSent = System.currentTimeMillis();
                }
            }
            if (System.currentTimeMillis() - lastSent > KEEP_ALIVE_MS) {
                sink.keepAlive();
                lastSent = System.currentTimeMillis();
            }
            Thread.sleep(pollMs);
        }
    }

    /** The documents of one stream worth an event: its shots (not scenes), episodes, tracks and stretches of speech. */
    static Map<String, Query> filters(String streamId) {
        Query stream = Query.of(q -> q.term(t -> t.field("stream_id").value(streamId)));
        Map<String, Query> f = new LinkedHashMap<>();
        f.put(Names.SHOTS_INDEX, Query.of(q -> q.bool(b -> b.filter(stream).filter(k -> k.term(t -> t.field("kind").value("shot"))))));
        f.put(Names.EPISODES_INDEX, stream);
        f.put(Names.TRACKS_INDEX, stream);
        f.put(Names.TRANSCRIPTS_INDEX, stream);
        return f;
    }

    /** Ends every open stream at its next poll, so the server can stop. */
    @Override
    public void close() {
        closed = true;
    }
}
