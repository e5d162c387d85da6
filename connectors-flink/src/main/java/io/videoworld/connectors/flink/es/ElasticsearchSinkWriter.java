package io.videoworld.connectors.flink.es;

import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.connectors.es.IndexSettings;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import io.videoworld.core.Names;
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

/**
 * Sends buffered writes as bulk requests and sorts each item into done, retry, dead letter or
 * fatal ({@link BulkItemOutcome}). Retries back off exponentially (0.1 s doubling to 5 s) so an
 * unreachable cluster is not hammered; an outage is logged once when it starts and once when it
 * ends. Documents refused for their content are rewritten as dead letters in
 * {@code vw-dead-letters} and sent with the next bulk request. The indices are made or brought up to
 * date on a thread of their own while the writer already takes writes (the first bulk request waits
 * for them): done in the constructor, it kept the sink task from running for seconds of a job's start-up,
 * and every task writing to it (the frame path included) waited once their network buffers were full.
 */
final class ElasticsearchSinkWriter extends AsyncSinkWriter<EsWrite, EsWrite> {
    private static final Logger LOG = LoggerFactory.getLogger(ElasticsearchSinkWriter.class);

    private static final long MAX_BACKOFF_MS = 5_000;

    private final RestClientTransport transport;
    private final ElasticsearchAsyncClient client;
    private final Histogram latency;
    private final AtomicLong lastLatencyMs = new AtomicLong();
    private final Counter retried;
    private final Counter deadLetters;
    private final ScheduledExecutorService backoff;
    /** Done once every index exists with its current mapping; bulk requests wait for it. */
    private final CompletableFuture<Void> indicesReady;
    private final String url;
    private int failuresInARow;
    private long outageStartedMs;
    private boolean closed;

    ElasticsearchSinkWriter(ElementConverter<EsWrite, EsWrite> converter, WriterInitContext context,
            AsyncSinkWriterConfiguration config, Collection<BufferedRequestState<EsWrite>> state, String url,
            List<String> indices, IndexSettings indexSettings) throws IOException {
        super(converter, context, config, state);
        this.transport = EsClients.transport(url);
        this.client = EsClients.async(transport);
        var metrics = context.metricGroup();
        this.latency = metrics.histogram("vwSinkLatencyMs", new DescriptiveStatisticsHistogram(1_000));
        metrics.gauge("vwSinkLastLatencyMs", lastLatencyMs::get);
        this.retried = metrics.counter("vwSinkItemsRetried");
        this.deadLetters = metrics.counter("vwEsDeadLetters");
        this.url = url;
        this.backoff = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "es-sink-backoff");
            t.setDaemon(true);
            return t;
        });
        this.indicesReady = new CompletableFuture<>();
        Thread ensure = new Thread(() -> {
            try {
                EsIndices.ensure(EsClients.sync(transport), indices, indexSettings);
                indicesReady.complete(null);
            } catch (Throwable e) {
                indicesReady.completeExceptionally(e);
            }
        }, "es-sink-indices");
        ensure.setDaemon(true);
        ensure.start();
    }

    @Override
    protected void submitRequestEntries(List<EsWrite> entries, ResultHandler<EsWrite> handler) {
        if (indicesReady.isDone() && !indicesReady.isCompletedExceptionally()) {
            bulk(entries, handler);
            return;
        }
        // Not yet made: the request waits for them off the task thread, which goes on taking writes.
        indicesReady.whenComplete((ok, e) -> {
            if (e != null) {
                // As when this was done in the constructor: the task fails and restarts, the writes not acknowledged.
                handler.completeExceptionally(new IOException("cannot create or update the indices at " + url + ": " + e, e));
                return;
            }
            try {
                bulk(entries, handler);
            } catch (RuntimeException failed) {
                handler.completeExceptionally(failed);
            }
        });
    }

    private void bulk(List<EsWrite> entries, ResultHandler<EsWrite> handler) {
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
                outage(entries.size(), error);
                retried.inc(entries.size());
                later(() -> handler.retryForEntries(entries));
                return;
            }
            recovered();
            handle(entries, response, handler);
        });
    }

    private void handle(List<EsWrite> entries, BulkResponse response, ResultHandler<EsWrite> handler) {
        if (!response.errors()) {
            handler.complete();
            return;
        }
        List<EsWrite> retry = new ArrayList<>();
        List<EsWrite> refused = new ArrayList<>();
        List<BulkResponseItem> items = response.items();
        for (int i = 0; i < items.size(); i++) {
            BulkResponseItem item = items.get(i);
            EsWrite w = entries.get(i);
            String type = item.error() == null ? "unknown" : item.error().type();
            String reason = item.error() == null ? "unknown" : type + ": " + item.error().reason();
            BulkItemOutcome outcome = item.error() == null ? BulkItemOutcome.DONE : BulkItemOutcome.of(item.status(), type);
            if (outcome == BulkItemOutcome.DEAD_LETTER && Names.DEAD_LETTERS_INDEX.equals(w.index())) {
                outcome = BulkItemOutcome.FATAL; // a dead letter that cannot be stored must not loop
            }
            switch (outcome) {
                case DONE -> { }
                case RETRY -> retry.add(w);
                case DEAD_LETTER -> {
                    LOG.warn("Elasticsearch refused {}/{} for its content (HTTP {}), kept in {}: {}", w.index(), w.id(), item.status(),
                            Names.DEAD_LETTERS_INDEX, reason);
                    deadLetters.inc();
                    refused.add(RefusedDocuments.deadLetter(w, item.status(), type, reason, System.currentTimeMillis()));
                }
                case FATAL -> {
                    LOG.error("Elasticsearch at {} refused {}/{} with HTTP {} ({}): no document can fix this; stopping the sink",
                            url, w.index(), w.id(), item.status(), reason);
                    handler.completeExceptionally(new ElasticsearchSinkException(w, item.status(), reason));
                    return;
                }
            }
        }
        if (retry.isEmpty() && refused.isEmpty()) {
            handler.complete();
            return;
        }
        retried.inc(retry.size());
        retry.addAll(refused);
        if (retry.size() == refused.size()) {
            handler.retryForEntries(retry); // only new dead letters: nothing to wait for
        } else {
            synchronized (this) {
                failuresInARow++;
            }
            later(() -> handler.retryForEntries(retry));
        }
    }

    private synchronized void outage(int writes, Throwable error) {
        if (failuresInARow++ == 0) {
            outageStartedMs = System.currentTimeMillis();
            LOG.warn("Elasticsearch at {} did not answer a bulk request of {} writes ({}); retrying with backoff up to {} ms, "
                    + "writes stay buffered and checkpoints wait", url, writes, error.toString(), MAX_BACKOFF_MS);
        }
    }

    private synchronized void recovered() {
        if (failuresInARow > 0) {
            LOG.info("Elasticsearch at {} answers again after {} failed attempts ({} ms)", url, failuresInARow,
                    System.currentTimeMillis() - outageStartedMs);
            failuresInARow = 0;
        }
    }

    private synchronized void later(Runnable retry) {
        long delay = Math.min(MAX_BACKOFF_MS, 100L << Math.min(6, Math.max(0, failuresInARow - 1)));
        try {
            backoff.schedule(retry, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            retry.run(); // closing: hand the writes back at once so none is dropped
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
        backoff.shutdownNow();
        try {
            transport.close();
        } catch (IOException e) {
            LOG.warn("closing the Elasticsearch transport failed", e);
        }
    }
}
