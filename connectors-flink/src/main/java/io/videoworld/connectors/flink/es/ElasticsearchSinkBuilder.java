package io.videoworld.connectors.flink.es;

import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.es.IndexSettings;

import java.util.List;

/** Builds an {@link ElasticsearchSink}; the defaults suit frame metadata at a few thousand docs/s. */
public final class ElasticsearchSinkBuilder {
    private final String url;
    private List<String> indices = EsIndices.ALL;
    private IndexSettings indexSettings = IndexSettings.fromEnvironment();
    private int maxBatchSize = 500;
    private int maxInFlightRequests = 4;
    private int maxBufferedRequests = 10_000;
    private long maxBatchSizeInBytes = 5L * 1024 * 1024;
    private long maxTimeInBufferMs = 500;
    private long maxRecordSizeInBytes = 1024 * 1024;

    ElasticsearchSinkBuilder(String url) {
        this.url = url;
    }

    /** Indices the writer creates from their mappings when missing. */
    public ElasticsearchSinkBuilder indices(List<String> value) {
        this.indices = value;
        return this;
    }

    /** Shards and replicas of the indices the writer creates (default: {@link IndexSettings#fromEnvironment()}). */
    public ElasticsearchSinkBuilder indexSettings(IndexSettings value) {
        this.indexSettings = value;
        return this;
    }

    public ElasticsearchSinkBuilder maxBatchSize(int value) {
        this.maxBatchSize = value;
        return this;
    }

    public ElasticsearchSinkBuilder maxInFlightRequests(int value) {
        this.maxInFlightRequests = value;
        return this;
    }

    public ElasticsearchSinkBuilder maxTimeInBufferMs(long value) {
        this.maxTimeInBufferMs = value;
        return this;
    }

    public ElasticsearchSink build() {
        return new ElasticsearchSink(url, indices, indexSettings, maxBatchSize, maxInFlightRequests, maxBufferedRequests,
                maxBatchSizeInBytes, maxTimeInBufferMs, maxRecordSizeInBytes);
    }
}
