package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch.core.GetResponse;
import io.videoworld.core.Names;
import io.videoworld.core.VideoDoc;
import java.io.IOException;
import java.util.Optional;

/** Read side of {@code vw-videos}. */
public final class VideoRepository {
    private final ElasticsearchClient client;
    private final TtlCache<String, Optional<VideoDoc>> cache;

    public VideoRepository(ElasticsearchClient client) {
        this(client, 0);
    }

    /** @param cacheMs how long a read is reused (0: never) */
    public VideoRepository(ElasticsearchClient client, long cacheMs) {
        this.client = client;
        this.cache = new TtlCache<>(cacheMs);
    }

    /** The stream's document, or empty when the stream (or the index) does not exist yet. */
    public Optional<VideoDoc> find(String streamId) throws IOException {
        return cache.get(streamId, this::read);
    }

    private Optional<VideoDoc> read(String streamId) throws IOException {
        try {
            GetResponse<VideoDoc> r = client.get(g -> g.index(Names.VIDEOS_INDEX).id(streamId), VideoDoc.class);
            return r.found() ? Optional.ofNullable(r.source()) : Optional.empty();
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Each read cache's hits, misses and loads, by name, for the service's metrics. */
    public java.util.Map<String, com.github.benmanes.caffeine.cache.stats.CacheStats> cacheStats() {
        return java.util.Map.of("videos", cache.stats());
    }
}
