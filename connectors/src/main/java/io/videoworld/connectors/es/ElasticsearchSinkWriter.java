package io.videoworld.connectors.es;

import co.elastic.clients.elasticsearch.ElasticsearchAsyncClient;
import co.elastic.clients.elasticsearch._types.VersionType;
import co.elastic.clients.elasticsearch.core.BulkRequest;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkResponseItem;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import co.elastic.clients.util.BinaryData;
import co.elastic.clients.util.ContentType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriter;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.connector.base.sink.writer.ResultHandler;
import org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends buffered writes as bulk requests and sorts each item into done, retry or fatal. */
final class ElasticsearchSinkWriter extends AsyncSinkWriter<EsWrite, EsWrite> {
    private static final Logger LOG = LoggerFactory.getLogger(ElasticsearchSinkWriter.class);

    private final RestClientTransport transport;
    private final ElasticsearchAsyncClient client;
    private final Histogram latency;
    private final AtomicLong lastLatencyMs = new AtomicLong();
    private final Counter retried;
    private boolean closed;

    ElasticsearchSinkWriter(ElementConverter<EsWrite, EsWrite> converter, WriterInitContext context,
            AsyncSinkWriterConfiguration config, Collection<BufferedRequestState<EsWrite>> state, String url,
            List<String> indices) throws IOException {
        super(converter, context, config, state);
        this.transport = EsClients.transport(url);
        this.client = EsClients.async(transport);
        EsIndices.ensure(EsClients.sync(transport), indices);
        var metrics = context.metricGroup();
        this.latency = metrics.histogram("vwSinkLatencyMs", new DescriptiveStatisticsHistogram(1_000));
        metrics.gauge("vwSinkLastLatencyMs", lastLatencyMs::get);
        this.retried = metrics.counter("vwSinkItemsRetried");
    }

    @Override
    protected void submitRequestEntries(List<EsWrite> entries, ResultHandler<EsWrite> handler) {
        BulkRequest.Builder bulk = new BulkRequest.Builder();
        for (EsWrite w : entries) {
            if (w.isDelete()) {
                bulk.operations(op -> op.delete(d -> {
                    d.index(w.index()).id(w.id());
                    if (w.version() >= 0) {
                        d.version(w.version()).versionType(VersionType.ExternalGte);
                    }
                    return d;
                }));
                continue;
            }
            bulk.operations(op -> op.index(ix -> {
                ix.index(w.index()).id(w.id()).document(BinaryData.of(w.json(), ContentType.APPLICATION_JSON));
                if (w.version() >= 0) {
                    ix.version(w.version()).versionType(VersionType.ExternalGte);
                }
                return ix;
            }));
        }
        long started = System.nanoTime();
        client.bulk(bulk.build()).whenComplete((response, error) -> {
            long ms = (System.nanoTime() - started) / 1_000_000;
            latency.update(ms);
            lastLatencyMs.set(ms);
            if (error != null) {
                // No response: the cluster is unreachable or overloaded; the whole request is retried.
                LOG.warn("bulk request of {} writes failed, retrying: {}", entries.size(), error.toString());
                retried.inc(entries.size());
                handler.retryForEntries(entries);
                return;
            }
            handle(entries, response, handler);
        });
    }

    private void handle(List<EsWrite> entries, BulkResponse response, ResultHandler<EsWrite> handler) {
        if (!response.errors()) {
            handler.complete();
            return;
        }
        List<EsWrite> retry = new ArrayList<>();
        List<BulkResponseItem> items = response.items();
        for (int i = 0; i < items.size(); i++) {
            BulkResponseItem item = items.get(i);
            switch (BulkItemOutcome.of(item.error() == null ? 200 : item.status())) {
                case DONE -> { }
                case RETRY -> retry.add(entries.get(i));
                case FATAL -> {
                    handler.completeExceptionally(new ElasticsearchSinkException(entries.get(i), item.status(),
                            item.error() == null ? "unknown" : item.error().type() + ": " + item.error().reason()));
                    return;
                }
            }
        }
        if (retry.isEmpty()) {
            handler.complete();
        } else {
            retried.inc(retry.size());
            handler.retryForEntries(retry);
        }
    }

    @Override
    protected long getSizeInBytes(EsWrite w) {
        return (w.isDelete() ? 0 : w.json().length) + w.id().length() + 64L;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        super.close();
        try {
            transport.close();
        } catch (IOException e) {
            LOG.warn("closing the Elasticsearch transport failed", e);
        }
    }
}
