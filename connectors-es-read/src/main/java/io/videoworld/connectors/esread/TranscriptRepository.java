package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.videoworld.core.Names;
import io.videoworld.core.TranscriptDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Read side of {@code vw-transcripts}: a push's stretches of speech, in time order. */
public final class TranscriptRepository {
    /** Most stretches one read returns. */
    public static final int MAX = 2_000;
    private final ElasticsearchClient client;

    public TranscriptRepository(ElasticsearchClient client) {
        this.client = client;
    }

    /** A recognised stretch whose text matched, with its BM25 score divided by the best hit's (so in (0, 1]). */
    public record Match(TranscriptDoc doc, double score) {}

    /**
     * The {@code k} recognised stretches of a push overlapping {@code [fromMs, toMs]} whose text
     * matches {@code text} (BM25, any word), best first; failed stretches never match. Empty when
     * the text is blank, nothing matches or the index does not exist yet.
     */
    public List<Match> search(String streamId, long epochMs, String text, long fromMs, long toMs, int k) throws IOException {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        try {
            List<Hit<TranscriptDoc>> hits = client.search(s -> s.index(Names.TRANSCRIPTS_INDEX).size(k)
                    .query(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                            .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))
                            .filter(f -> f.term(t -> t.field("status").value(TranscriptDoc.OK)))
                            .filter(f -> f.range(r -> r.number(n -> n.field("start_ms").lte((double) toMs))))
                            .filter(f -> f.range(r -> r.number(n -> n.field("end_ms").gte((double) fromMs))))
                            .must(m -> m.match(mm -> mm.field("text").query(text))))), TranscriptDoc.class).hits().hits();
            double top = hits.stream().mapToDouble(h -> h.score() == null ? 0 : h.score()).max().orElse(1);
            List<Match> out = new ArrayList<>();
            for (Hit<TranscriptDoc> h : hits) {
                if (h.source() != null && top > 0) {
                    out.add(new Match(h.source(), (h.score() == null ? 0 : h.score()) / top));
                }
            }
            return out;
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    /** Whether the job indexed any stretch of speech (recognised or failed) for a push. */
    public boolean any(String streamId, long epochMs) throws IOException {
        try {
            return client.count(c -> c.index(Names.TRANSCRIPTS_INDEX).query(q -> q.bool(b -> b
                    .filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                    .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))))).count() > 0;
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return false;
            }
            throw e;
        }
    }

    /** The stretch heard last (latest event time) in any stream, failed ones included; empty when none is indexed. */
    public java.util.Optional<TranscriptDoc> newest() throws IOException {
        try {
            List<Hit<TranscriptDoc>> hits = client.search(s -> s.index(Names.TRANSCRIPTS_INDEX).size(1)
                    .sort(o -> o.field(f -> f.field("event_time_ms").order(SortOrder.Desc))), TranscriptDoc.class).hits().hits();
            return hits.isEmpty() ? java.util.Optional.empty() : java.util.Optional.ofNullable(hits.get(0).source());
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return java.util.Optional.empty();
            }
            throw e;
        }
    }

    /**
     * The stretches of a push that overlap presentation times {@code [fromMs, toMs]}, failed ones
     * included, by start time; empty when there are none or the index does not exist yet.
     */
    public List<TranscriptDoc> overlapping(String streamId, long epochMs, long fromMs, long toMs) throws IOException {
        try {
            List<TranscriptDoc> out = new ArrayList<>();
            for (Hit<TranscriptDoc> h : client.search(s -> s.index(Names.TRANSCRIPTS_INDEX).size(MAX)
                    .query(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("stream_id").value(streamId)))
                            .filter(f -> f.term(t -> t.field("epoch_ms").value(epochMs)))
                            .filter(f -> f.range(r -> r.number(n -> n.field("start_ms").lte((double) toMs))))
                            .filter(f -> f.range(r -> r.number(n -> n.field("end_ms").gte((double) fromMs))))))
                    .sort(o -> o.field(f -> f.field("start_ms").order(SortOrder.Asc))), TranscriptDoc.class).hits().hits()) {
                if (h.source() != null) {
                    out.add(h.source());
                }
            }
            return out;
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }
}
