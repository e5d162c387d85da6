package io.videoworld.query.live;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.json.JsonData;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * Follows writes to Elasticsearch indices by each shard's sequence number ({@code _seq_no}): every
 * index, update or rewrite of a document gets a higher number in its shard, so "what has been
 * written since" is a range query per shard, and the ingest job needs to write nothing extra.
 *
 * <p>Writes from concurrent bulk requests can become searchable slightly out of order, so a number
 * is only taken as final ({@link Position}) once a poll made {@code settleMs} earlier had seen
 * past it; above that, what was delivered is remembered and not delivered twice.
 */
public final class IndexTail {
    /** One write seen: the document as it is now; {@code shard} is the {@link Position} key it advances. */
    public record Change(String index, String shard, String id, long seqNo, JsonNode source) {}

    private static final int PAGE = 500;

    private final ElasticsearchClient client;
    private final List<String> indices;
    private final Map<String, Query> filters;
    private final long settleMs;
    private final LongSupplier clock;
    private final Map<String, ShardState> shards = new LinkedHashMap<>();

    /**
     * @param filters per index, which of its documents to follow (e.g. one stream's shots)
     * @param start where to begin: a {@link Position} from {@link #position()} or a resumed client;
     *     null begins at the indices' current ends, {@link Position#START} at their beginnings
     */
    public IndexTail(ElasticsearchClient client, Map<String, Query> filters, Position start, long settleMs, LongSupplier clock)
            throws IOException {
        this.client = client;
        this.indices = List.copyOf(filters.keySet());
        this.filters = Map.copyOf(filters);
        this.settleMs = settleMs;
        this.clock = clock;
        for (String index : indices) {
            for (int shard = 0; shard < shardCount(index); shard++) {
                String key = index + "/" + shard;
                long floor = start == null ? head(index, shard) : start.floor(key);
                shards.put(key, new ShardState(index, shard, floor));
            }
        }
    }

    /** The writes since the last poll, oldest first per shard. */
    public List<Change> poll() throws IOException {
        long now = clock.getAsLong();
        List<Change> out = new ArrayList<>();
        for (ShardState s : shards.values()) {
            long maxSeen = s.floor;
            for (Hit<JsonNode> h : search(s.index, s.shard, s.floor, filters.get(s.index), PAGE, SortOrder.Asc)) {
                long seq = h.seqNo();
                maxSeen = Math.max(maxSeen, seq);
                if (s.sent.add(seq)) {
                    out.add(new Change(s.index, s.index + "/" + s.shard, h.id(), seq, h.source()));
                }
                s.delivered = Math.max(s.delivered, seq);
            }
            s.marks.add(new long[] {now, maxSeen});
            while (!s.marks.isEmpty() && s.marks.peek()[0] <= now - settleMs) {
                s.floor = Math.max(s.floor, s.marks.poll()[1]);
            }
            s.sent.headSet(s.floor, true).clear();
        }
        out.sort(Comparator.comparing(Change::index).thenComparingLong(Change::seqNo));
        return out;
    }

    /** Where a client that has seen everything delivered so far would resume. */
    public Position position() {
        Map<String, Long> at = new LinkedHashMap<>();
        shards.forEach((k, s) -> at.put(k, Math.max(s.floor, s.delivered)));
        return new Position(at);
    }

    private long head(String index, int shard) throws IOException {
        List<Hit<JsonNode>> last = search(index, shard, -1, null, 1, SortOrder.Desc);
        return last.isEmpty() ? -1 : last.get(0).seqNo();
    }

    private List<Hit<JsonNode>> search(String index, int shard, long after, Query filter, int size, SortOrder order) throws IOException {
        try {
            return client.search(s -> s.index(index).preference("_shards:" + shard).size(size).seqNoPrimaryTerm(true)
                    .query(q -> q.bool(b -> {
                        b.filter(f -> f.range(r -> r.untyped(u -> u.field("_seq_no").gt(JsonData.of(after)))));
                        if (filter != null) {
                            b.filter(filter);
                        }
                        return b;
                    }))
                    .source(src -> src.filter(f -> f.excludes("embedding", "appearance", "text_embedding", "image_descriptor")))
                    .sort(o -> o.field(f -> f.field("_seq_no").order(order))), JsonNode.class).hits().hits();
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    /** An index that does not exist yet is followed as one shard: a new index starts with one unless configured otherwise. */
    private int shardCount(String index) throws IOException {
        try {
            var settings = client.indices().getSettings(g -> g.index(index)).get(index);
            String n = settings == null || settings.settings() == null || settings.settings().index() == null ? null
                    : settings.settings().index().numberOfShards();
            return n == null ? 1 : Integer.parseInt(n);
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return 1;
            }
            throw e;
        }
    }

    private static final class ShardState {
        final String index;
        final int shard;
        long floor;
        long delivered = -1;
        final TreeSet<Long> sent = new TreeSet<>();
        /** (poll time, highest number that poll saw). */
        final ArrayDeque<long[]> marks = new ArrayDeque<>();

        ShardState(String index, int shard, long floor) {
            this.index = index;
            this.shard = shard;
            this.floor = floor;
        }
    }

    /**
     * How far each shard has been read, as {@code index/shard=seqNo} pairs joined by commas: the
     * server-sent events' ids, sent back as {@code Last-Event-ID} to resume.
     */
    public record Position(Map<String, Long> at) {
        /** Every shard from its beginning. */
        public static final Position START = new Position(Map.of());

        public Position {
            at = Map.copyOf(at);
        }

        /** This position moved on to a change. */
        public Position after(Change c) {
            Map<String, Long> next = new LinkedHashMap<>(at);
            next.merge(c.shard(), c.seqNo(), Math::max);
            return new Position(next);
        }

        long floor(String key) {
            return at.getOrDefault(key, -1L);
        }

        public String encode() {
            StringBuilder b = new StringBuilder();
            at.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> b.append(b.isEmpty() ? "" : ",").append(e.getKey()).append('=').append(e.getValue()));
            return b.toString();
        }

        /** Parses {@link #encode()}'s form; anything else is an {@link IllegalArgumentException} saying what. */
        public static Position decode(String text) {
            Map<String, Long> at = new LinkedHashMap<>();
            if (text.length() > 2000) {
                throw new IllegalArgumentException("is longer than 2000 characters");
            }
            for (String part : text.split(",")) {
                if (part.isBlank()) {
                    continue;
                }
                int eq = part.indexOf('=');
                if (eq <= 0 || !part.substring(0, eq).matches("vw-[a-z-]+/\\d{1,4}") || !part.substring(eq + 1).matches("-?\\d{1,18}")) {
                    throw new IllegalArgumentException("'" + part + "' is not index/shard=sequence-number");
                }
                at.put(part.substring(0, eq), Long.parseLong(part.substring(eq + 1)));
            }
            return new Position(at);
        }
    }
}
