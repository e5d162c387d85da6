package io.videoworld.query.alerts;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.query.live.IndexTail;
import io.videoworld.query.live.LiveEvent;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires the alerts: follows new and rewritten episodes, tracks and stretches of speech ({@link IndexTail}) while any
 * alert exists, records a {@link Delivery} for each alert an event matches (once per alert and
 * document), and posts it to the webhook until a 2xx comes back or the alert's attempts run out,
 * waiting {@code backoff × 2^(attempt-1)} between attempts. Every attempt is written to the
 * delivery log before the next is scheduled. Each POST is signed with the alert's secret
 * ({@link WebhookSignature}) and goes only where {@link WebhookEgress} allows; redirects are not
 * followed, so a webhook cannot send it elsewhere. A pending delivery whose lease ran out (its
 * server stopped) is resumed by the next engine to start: at least once, not exactly once.
 */
final class AlertEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AlertEngine.class);
    /** A webhook that does not answer in this time counts as failed. */
    static final Duration WEBHOOK_TIMEOUT = Duration.ofSeconds(10);
    private static final long LEASE_SLACK_MS = 30_000;

    private final ElasticsearchClient es;
    private final AlertStore store;
    private final long pollMs;
    private final long settleMs;
    private final WebhookEgress egress;
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(4, r -> {
        Thread t = new Thread(r, "alerts");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).build();
    private final java.util.function.Consumer<String> attempts;
    private IndexTail tail;
    private boolean firstPoll = true;

    AlertEngine(ElasticsearchClient es, AlertStore store, long pollMs, long settleMs, WebhookEgress egress,
            java.util.function.Consumer<String> attempts) {
        this.attempts = attempts;
        this.es = es;
        this.egress = egress;
        this.store = store;
        this.pollMs = pollMs;
        this.settleMs = settleMs;
    }

    void start() {
        timer.execute(this::resumeAbandoned);
        timer.scheduleWithFixedDelay(this::pollSafely, pollMs, pollMs, TimeUnit.MILLISECONDS);
    }

    private void resumeAbandoned() {
        try {
            for (Delivery d : store.abandoned(System.currentTimeMillis())) {
                store.alert(d.alertId()).ifPresent(a -> attempt(a, d));
            }
        } catch (Exception e) {
            LOG.warn("cannot resume pending alert deliveries: {}", e.toString());
        }
    }

    private void pollSafely() {
        try {
            poll();
        } catch (Exception e) {
            // Elasticsearch away for a moment: start again from the last saved position, so no write is skipped.
            LOG.warn("alert poll failed, resuming from the saved position: {}", e.toString());
            synchronized (this) {
                tail = null;
                firstPoll = true;
            }
        }
    }

    /**
     * Makes sure writes from now on are followed, before the call that created an alert returns:
     * whatever is indexed after it can fire it.
     */
    synchronized void arm() throws Exception {
        if (tail == null) {
            tail = new IndexTail(es, watched(), null, settleMs, System::currentTimeMillis);
            store.saveCursor(tail.position().encode());
        }
        firstPoll = false;
    }

    /** One round: the alerts, the writes since the last round, the firings. */
    synchronized void poll() throws Exception {
        List<Alert> alerts = store.alerts(null);
        if (alerts.isEmpty()) {
            // Nothing to fire: a later first alert starts from the writes after it, not from a backlog.
            tail = null;
            firstPoll = false;
            return;
        }
        if (tail == null) {
            // Alerts that were there before a restart resume where the last engine stopped reading.
            IndexTail.Position from = firstPoll ? store.cursor().map(IndexTail.Position::decode).orElse(null) : null;
            tail = new IndexTail(es, watched(), from, settleMs, System::currentTimeMillis);
            store.saveCursor(tail.position().encode());
        }
        firstPoll = false;
        List<IndexTail.Change> changes = tail.poll();
        for (IndexTail.Change c : changes) {
            LiveEvent e = LiveEvent.of(c.index(), c.id(), c.source());
            if (e == null) {
                continue;
            }
            for (Alert a : alerts) {
                if (a.matches(e)) {
                    long now = System.currentTimeMillis();
                    Delivery d = new Delivery(Delivery.id(a.alertId(), e.id()), a.alertId(), Delivery.PENDING, e, List.of(), now,
                            now + WEBHOOK_TIMEOUT.toMillis() + LEASE_SLACK_MS);
                    if (store.create(d)) {
                        timer.execute(() -> attempt(a, d));
                    }
                }
            }
        }
        if (!changes.isEmpty()) {
            store.saveCursor(tail.position().encode());
        }
    }

    private static Map<String, Query> watched() {
        Map<String, Query> f = new LinkedHashMap<>();
        f.put(Names.EPISODES_INDEX, Query.of(q -> q.matchAll(m -> m)));
        f.put(Names.TRACKS_INDEX, Query.of(q -> q.matchAll(m -> m)));
        f.put(Names.TRANSCRIPTS_INDEX, Query.of(q -> q.matchAll(m -> m)));
        return f;
    }

    /** One POST; then the log, and the next attempt scheduled or the delivery closed. */
    private void attempt(Alert a, Delivery d) {
        int n = d.attempts().size() + 1;
        long start = System.currentTimeMillis();
        int status = 0;
        String error = null;
        boolean refused = false;
        try {
            // Again at each attempt: the host may resolve elsewhere now, or the rule may have changed since the alert was made.
            egress.check(a.webhookUrl());
            byte[] body = Json.MAPPER.writeValueAsBytes(Map.of("alert_id", a.alertId(), "delivery_id", d.deliveryId(), "attempt", n,
                    "alert_name", a.name() == null ? "" : a.name(), "event", d.event()));
            HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(a.webhookUrl())).timeout(WEBHOOK_TIMEOUT)
                    .header("Content-Type", "application/json").header("X-VideoWorld-Delivery", d.deliveryId());
            if (a.webhookSecret() != null) {
                long ts = start / 1000;
                post.header(WebhookSignature.TIMESTAMP_HEADER, Long.toString(ts))
                        .header(WebhookSignature.SIGNATURE_HEADER, WebhookSignature.sign(a.webhookSecret(), ts, body));
            }
            HttpResponse<Void> r = http.send(post.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.discarding());
            status = r.statusCode();
            if (status / 100 != 2) {
                error = "HTTP " + status;
            }
        } catch (WebhookEgress.Refused e) {
            // Waiting does not change the server's rule: the delivery ends here.
            refused = true;
            error = "refused: " + e.getMessage();
        } catch (Exception e) {
            error = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
        long now = System.currentTimeMillis();
        Delivery.Attempt at = new Delivery.Attempt(n, start, status, now - start, error);
        long wait = a.backoffMs() << Math.min(20, n - 1);
        String next = error == null ? Delivery.DELIVERED : refused || n >= a.maxAttempts() ? Delivery.FAILED : Delivery.PENDING;
        attempts.accept(next);
        Delivery updated = d.with(at, next, now + wait + WEBHOOK_TIMEOUT.toMillis() + LEASE_SLACK_MS);
        try {
            store.update(updated);
        } catch (Exception e) {
            LOG.warn("cannot log alert delivery {}: {}", d.deliveryId(), e.toString());
        }
        if (Delivery.PENDING.equals(next)) {
            timer.schedule(() -> attempt(a, updated), wait, TimeUnit.MILLISECONDS);
        } else if (Delivery.FAILED.equals(next)) {
            LOG.warn("alert {} delivery {} failed after {} attempts: {}", a.alertId(), d.deliveryId(), n, error);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
