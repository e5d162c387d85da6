package io.videoworld.query.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * The query service's meters in one Prometheus registry, scraped at {@code GET /metrics}. Names are
 * Micrometer's dotted names; Prometheus sees them with underscores and a unit suffix
 * ({@code vw.requests} is {@code vw_requests_seconds_count}, {@code _sum}, {@code _max} and {@code _bucket}).
 * docs/metrics.md lists every series and deploy/grafana reads them.
 */
public final class ServiceMetrics implements AutoCloseable {
    /** Every HTTP request answered: tags {@code method}, {@code route}, {@code tool}, {@code status}. */
    public static final String REQUESTS = "vw.requests";
    /** Every call of the Elasticsearch client: tags {@code endpoint} (the client's API name) and {@code outcome}. */
    public static final String ES_REQUESTS = "vw.es.requests";
    /** Open server-sent event streams ({@code /v1/streams/{id}/events} and streamed {@code /v1/ask}). */
    public static final String SSE_CLIENTS = "vw.sse.clients";
    /** Webhook delivery attempts of alerts: tag {@code outcome} ({@code delivered}, {@code retrying}, {@code failed}). */
    public static final String ALERT_DELIVERIES = "vw.alert.deliveries";
    /** Requests refused by a limit of docs/limits.md: tag {@code limit}. */
    public static final String LIMITED = "vw.limited";
    /** The values of the {@code limit} tag of {@link #LIMITED}, as docs/limits.md names them. */
    public static final java.util.List<String> LIMITS = java.util.List.of("rate", "deadline", "ask", "sse", "workers");
    /** Requests in progress under the concurrency bounds: tag {@code kind} ({@code ask}, {@code sse}). */
    public static final String IN_FLIGHT = "vw.in.flight";
    /** Hits and misses of a bound cache: tags {@code cache} and {@code result}; the name Micrometer's cache binders use. */
    public static final String CACHE_GETS = "cache.gets";

    /**
     * Latency buckets for the histograms: from a cached read to a long agent run, few enough that
     * every route and status keeps a small series count.
     */
    private static final Duration[] BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
            Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60)};

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicInteger sseClients = new AtomicInteger();
    private final JvmGcMetrics gc = new JvmGcMetrics();

    /** A registry with the JVM's memory, GC, threads, classes, CPU and uptime already bound. */
    public ServiceMetrics() {
        for (MeterBinder b : new MeterBinder[] {new JvmMemoryMetrics(), gc, new JvmThreadMetrics(), new ClassLoaderMetrics(),
                new ProcessorMetrics(), new UptimeMetrics()}) {
            b.bindTo(registry);
        }
        Gauge.builder(SSE_CLIENTS, sseClients, AtomicInteger::get).description("open server-sent event streams").register(registry);
        // Registered up front so the series exist (at zero) before the first delivery or refusal.
        for (String outcome : new String[] {"delivered", "retrying", "failed"}) {
            alertCounter(outcome);
        }
        for (String limit : LIMITS) {
            limitedCounter(limit);
        }
    }

    /** The registry, for binders this class does not know of. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Binds meters such as a Caffeine cache's ({@code CaffeineCacheMetrics}) to this registry. */
    public void bind(MeterBinder binder) {
        binder.bindTo(registry);
    }

    /**
     * Binds a cache that counts its own hits and misses, under the same names and tags as
     * Micrometer's cache binders, so one dashboard panel reads both kinds.
     */
    public <C> void bindCache(String name, C cache, ToDoubleFunction<C> hits, ToDoubleFunction<C> misses) {
        FunctionCounter.builder(CACHE_GETS, cache, hits).tags("cache", name, "result", "hit").description("cache hits").register(registry);
        FunctionCounter.builder(CACHE_GETS, cache, misses).tags("cache", name, "result", "miss").description("cache misses").register(registry);
    }

    /** Records one answered HTTP request. */
    public void request(String method, String route, String tool, int status, long nanos) {
        Timer.builder(REQUESTS).description("HTTP requests answered, by route, tool and status")
                .tags(Tags.of("method", method, "route", route, "tool", tool, "status", Integer.toString(status)))
                .serviceLevelObjectives(BUCKETS).register(registry).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Records one Elasticsearch call. */
    void elasticsearch(String endpoint, String outcome, long nanos) {
        Timer.builder(ES_REQUESTS).description("Elasticsearch client calls, by API and outcome")
                .tags("endpoint", endpoint, "outcome", outcome).serviceLevelObjectives(BUCKETS).register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The Elasticsearch client's instrumentation that times every call into {@link #ES_REQUESTS}. */
    public co.elastic.clients.transport.instrumentation.Instrumentation elasticsearch() {
        return new EsTiming(this);
    }

    /** The count of open event streams, raised while one is open. */
    public AtomicInteger sseClients() {
        return sseClients;
    }

    /** Counts one webhook attempt by the state it left its delivery in ({@code delivered}, {@code pending}, {@code failed}). */
    public void alertDelivery(String deliveryStatus) {
        alertCounter("pending".equals(deliveryStatus) ? "retrying" : deliveryStatus).increment();
    }

    private Counter alertCounter(String outcome) {
        return Counter.builder(ALERT_DELIVERIES).description("alert webhook attempts, by the outcome of the attempt")
                .tag("outcome", outcome).register(registry);
    }

    /** Counts one request refused by {@code limit} (one of {@link #LIMITS}). */
    public void limited(String limit) {
        limitedCounter(limit).increment();
    }

    private Counter limitedCounter(String limit) {
        return Counter.builder(LIMITED).description("requests refused by a limit").tag("limit", limit).register(registry);
    }

    /** Shows {@code value} as the in-flight gauge for {@code kind}. */
    public void inFlight(String kind, AtomicInteger value) {
        Gauge.builder(IN_FLIGHT, value, AtomicInteger::get).description("requests in progress under a concurrency bound")
                .tag("kind", kind).register(registry);
    }

    /** The Prometheus text exposition of every meter. */
    public String scrape() {
        return registry.scrape();
    }

    /** The content type of {@link #scrape}: Prometheus text format 0.0.4. */
    public static String contentType() {
        return "text/plain; version=0.0.4; charset=utf-8";
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
