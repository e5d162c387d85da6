package io.videoworld.connectors.flink.es;

import io.videoworld.connectors.es.EsWrite;
import io.videoworld.connectors.es.IndexSettings;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.AsyncSinkBase;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Writes {@link EsWrite}s to Elasticsearch in bounded bulk requests with bounded in-flight
 * requests. Buffered writes are part of the checkpoint, and every write has a deterministic id,
 * so together with replayed Kafka offsets the index ends up as if each record was written once.
 */
public final class ElasticsearchSink extends AsyncSinkBase<EsWrite, EsWrite> {
    private final String url;
    private final List<String> indices;
    private final IndexSettings indexSettings;

    ElasticsearchSink(String url, List<String> indices, IndexSettings indexSettings, int maxBatchSize, int maxInFlightRequests,
            int maxBufferedRequests, long maxBatchSizeInBytes, long maxTimeInBufferMs, long maxRecordSizeInBytes) {
        // A write over the record limit would make the writer throw; it becomes a dead letter instead.
        super((ElementConverter<EsWrite, EsWrite>) (w, ctx) -> RefusedDocuments.fitting(w, maxRecordSizeInBytes), maxBatchSize, maxInFlightRequests,
                maxBufferedRequests, maxBatchSizeInBytes, maxTimeInBufferMs, maxRecordSizeInBytes);
        this.url = url;
        this.indices = List.copyOf(indices);
        this.indexSettings = indexSettings;
    }

    public static ElasticsearchSinkBuilder builder(String url) {
        return new ElasticsearchSinkBuilder(url);
    }

    @Override
    public StatefulSinkWriter<EsWrite, BufferedRequestState<EsWrite>> createWriter(WriterInitContext context)
            throws IOException {
        return restoreWriter(context, List.of());
    }

    @Override
    public StatefulSinkWriter<EsWrite, BufferedRequestState<EsWrite>> restoreWriter(
            WriterInitContext context, Collection<BufferedRequestState<EsWrite>> recoveredState) throws IOException {
        return new ElasticsearchSinkWriter(getElementConverter(), context, configuration(), recoveredState, url, indices, indexSettings);
    }

    private org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration configuration() {
        return org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration.builder()
                .setMaxBatchSize(getMaxBatchSize())
                .setMaxBatchSizeInBytes(getMaxBatchSizeInBytes())
                .setMaxInFlightRequests(getMaxInFlightRequests())
                .setMaxBufferedRequests(getMaxBufferedRequests())
                .setMaxTimeInBufferMS(getMaxTimeInBufferMS())
                .setMaxRecordSizeInBytes(getMaxRecordSizeInBytes())
                .build();
    }

    @Override
    public SimpleVersionedSerializer<BufferedRequestState<EsWrite>> getWriterStateSerializer() {
        return new EsWriteStateSerializer();
    }
}
