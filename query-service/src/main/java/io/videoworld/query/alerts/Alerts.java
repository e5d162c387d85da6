package io.videoworld.query.alerts;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.auth.Caller;
import java.io.IOException;
import java.util.List;

/**
 * {@code /v1/alerts}: create ({@code POST}), list ({@code GET}), remove ({@code DELETE /{id}}) and
 * the delivery log ({@code GET /{id}/deliveries}). A caller sees and removes only its own alerts;
 * an admin token sees all. The {@link AlertEngine} behind it fires them.
 */
public final class Alerts implements AutoCloseable {
    /** {@code GET /v1/alerts}. */
    public record Listing(List<Alert> alerts) {}

    /** {@code GET /v1/alerts/{id}/deliveries}: newest first. */
    public record Deliveries(String alertId, List<Delivery> deliveries) {}

    /** {@code DELETE /v1/alerts/{id}}. */
    public record Deleted(String alertId, boolean deleted) {}

    private final AlertStore store;
    private final AlertEngine engine;
    private final WebhookEgress egress;

    /** @param egress where webhooks may point; checked at creation and before every delivery */
    public Alerts(ElasticsearchClient es, long pollMs, long settleMs, WebhookEgress egress) {
        this(es, pollMs, settleMs, egress, status -> {});
    }

    /**
     * Alerts that also tell {@code attempts} the state each webhook attempt left its delivery in (for metrics).
     *
     * @param egress where webhooks may point; checked at creation and before every delivery
     */
    public Alerts(ElasticsearchClient es, long pollMs, long settleMs, WebhookEgress egress, java.util.function.Consumer<String> attempts) {
        this.store = new AlertStore(es);
        this.egress = egress;
        this.engine = new AlertEngine(es, store, pollMs, settleMs, egress, attempts);
    }

    /** Starts firing; without it alerts are stored but never fire (for servers that only answer). */
    public Alerts start() {
        engine.start();
        return this;
    }

    /** Stores a new alert; it fires for whatever is indexed once this returns. The answer is the only one that holds its secret. */
    public Alert create(Caller caller, JsonNode body) throws Exception {
        Alert a = AlertRequest.parse(body, caller, System.currentTimeMillis(), egress);
        // Under the engine's lock: a poll in between would see no alert yet and stop following.
        synchronized (engine) {
            engine.arm();
            store.save(a);
        }
        return a;
    }

    public Listing list(Caller caller) throws IOException {
        return new Listing(store.alerts(caller.admin() ? null : caller.name()).stream().map(Alert::withoutSecret).toList());
    }

    public Deleted delete(Caller caller, String alertId) throws IOException {
        owned(caller, alertId);
        return new Deleted(alertId, store.delete(alertId));
    }

    public Deliveries deliveries(Caller caller, String alertId, int size) throws IOException {
        owned(caller, alertId);
        return new Deliveries(alertId, store.deliveries(alertId, size));
    }

    /** Another caller's alert answers as missing, so ids cannot be probed. */
    private Alert owned(Caller caller, String alertId) throws IOException {
        if (alertId == null || !alertId.matches("alert_[0-9a-f]{12}")) {
            throw ApiException.badField("id", "an alert id is alert_ and 12 hex digits, as POST /v1/alerts answered");
        }
        return store.alert(alertId).filter(a -> caller.admin() || a.owner().equals(caller.name()))
                .orElseThrow(() -> ApiException.notFound("id", "no alert '" + alertId + "'"));
    }

    @Override
    public void close() {
        engine.close();
    }
}
