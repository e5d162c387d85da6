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
