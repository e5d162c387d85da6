package io.videoworld.connectors.es;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch.core.GetResponse;
import io.videoworld.core.Names;
import io.videoworld.core.StreamRules;
import java.io.IOException;
import java.util.List;

/**
 * The per-stream exclusion rules in {@code vw-rules}, one document a stream (its id), every version
 * kept: the query service appends a version, the ingest job reads them. Appends are optimistic
 * (sequence number and primary term), so two at once both land, in some order.
 */
public final class StreamRulesStore {
    private final ElasticsearchClient es;
    private volatile boolean ensured;

    /** Rules in the Elasticsearch {@code es} talks to. */
    public StreamRulesStore(ElasticsearchClient es) {
        this.es = es;
    }

    /** The stream's rules; none when it has no document (or the index does not exist yet). */
    public StreamRules read(String streamId) throws IOException {
        try {
            GetResponse<StreamRules> got = es.get(g -> g.index(Names.RULES_INDEX).id(streamId), StreamRules.class);
            return got.found() && got.source() != null ? got.source() : StreamRules.none(streamId);
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return StreamRules.none(streamId);
            }
            throw e;
        }
    }

    /**
     * Appends a version applying from {@code sinceMs} and returns the stream's rules after it;
     * IllegalArgumentException names a rule that is not one.
     */
    public StreamRules append(String streamId, List<String> rules, long sinceMs) throws IOException {
        ensure();
        for (int attempt = 0; ; attempt++) {
            GetResponse<StreamRules> got = es.get(g -> g.index(Names.RULES_INDEX).id(streamId), StreamRules.class);
            StreamRules now = got.found() && got.source() != null ? got.source() : StreamRules.none(streamId);
            StreamRules next = new StreamRules(streamId, now.versions()).with(rules, sinceMs);
            try {
                if (got.found()) {
                    es.index(i -> i.index(Names.RULES_INDEX).id(streamId).document(next).ifSeqNo(got.seqNo())
                            .ifPrimaryTerm(got.primaryTerm()).refresh(Refresh.WaitFor));
                } else {
                    es.create(c -> c.index(Names.RULES_INDEX).id(streamId).document(next).refresh(Refresh.WaitFor));
                }
                return next;
            } catch (ElasticsearchException e) {
                if (e.status() != 409 || attempt >= 5) {
                    throw e;
                }
            }
        }
    }

    private void ensure() throws IOException {
        if (!ensured) {
            EsIndices.ensure(es, List.of(Names.RULES_INDEX));
            ensured = true;
        }
    }
}
