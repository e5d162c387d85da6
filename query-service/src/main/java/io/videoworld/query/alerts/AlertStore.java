package io.videoworld.query.alerts;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.connectors.es.EsIndices;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Alerts, their deliveries and the engine's read position in Elasticsearch ({@code vw-alerts},
 * {@code vw-alert-deliveries}), so all of them survive a restart of the query service. Writes
 * refresh at once: an alert is live, and a delivery's log readable, as soon as the call returns.
 */
final class AlertStore {
    private static final String CURSOR_ID = "engine-cursor";

    private final ElasticsearchClient es;
    private volatile boolean ensured;

    AlertStore(ElasticsearchClient es) {
        this.es = es;
    }

    private void ensure() throws IOException {
        if (!ensured) {
            EsIndices.ensure(es, List.of(Names.ALERTS_INDEX, Names.ALERT_DELIVERIES_INDEX));
            ensured = true;
        }
    }

    void save(Alert a) throws IOException {
        ensure();
        es.index(i -> i.index(Names.ALERTS_INDEX).id(a.alertId()).document(a).refresh(Refresh.True));
    }

    boolean delete(String alertId) throws IOException {
        ensure();
        return es.delete(d -> d.index(Names.ALERTS_INDEX).id(alertId).refresh(Refresh.True)).result().jsonValue().equals("deleted");
    }

    Optional<Alert> alert(String alertId) throws IOException {
        try {
            var r = es.get(g -> g.index(Names.ALERTS_INDEX).id(alertId), Alert.class);
            return r.found() && r.source() != null && Alert.RECORD.equals(r.source().record()) ? Optional.of(r.source()) : Optional.empty();
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Every alert, or those of one owner, oldest first. */
    List<Alert> alerts(String owner) throws IOException {
        Query q = Query.of(b -> b.bool(f -> {
            f.filter(t -> t.term(x -> x.field("record").value(Alert.RECORD)));
            if (owner != null) {
                f.filter(t -> t.term(x -> x.field("owner").value(owner)));
            }
            return f;
        }));
        return search(Names.ALERTS_INDEX, q, "created_at_ms", SortOrder.Asc, 1000, Alert.class);
    }

    /** Records a new firing; false when it was recorded already (by this or another server). */
    boolean create(Delivery d) throws IOException {
        ensure();
        try {
            es.create(c -> c.index(Names.ALERT_DELIVERIES_INDEX).id(d.deliveryId()).document(d).refresh(Refresh.True));
            return true;
        } catch (ElasticsearchException | IOException e) {
            if (status(e) == 409) {
                return false;
            }
            throw e;
        }
    }

    /** The HTTP status behind a client exception: the typed one, or the low-level response a create conflict comes back as. */
    private static int status(Exception e) {
        if (e instanceof ElasticsearchException ee) {
            return ee.status();
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.elasticsearch.client.ResponseException re) {
                return re.getResponse().getStatusLine().getStatusCode();
            }
        }
        return e instanceof co.elastic.clients.transport.TransportException te ? te.statusCode() : 0;
    }

    void update(Delivery d) throws IOException {
        es.index(i -> i.index(Names.ALERT_DELIVERIES_INDEX).id(d.deliveryId()).document(d).refresh(Refresh.True));
    }

    /** An alert's deliveries, newest first. */
    List<Delivery> deliveries(String alertId, int size) throws IOException {
        return search(Names.ALERT_DELIVERIES_INDEX, Query.of(q -> q.term(t -> t.field("alert_id").value(alertId))), "created_at_ms",
                SortOrder.Desc, size, Delivery.class);
    }

    /** Pending deliveries whose server stopped attempting them (its lease ran out), e.g. before a restart. */
    List<Delivery> abandoned(long nowMs) throws IOException {
        return search(Names.ALERT_DELIVERIES_INDEX, Query.of(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("status").value(Delivery.PENDING)))
                .filter(f -> f.range(r -> r.number(n -> n.field("lease_until_ms").lt((double) nowMs)))))), "created_at_ms", SortOrder.Asc, 500,
                Delivery.class);
    }

    Optional<String> cursor() throws IOException {
        try {
            var r = es.get(g -> g.index(Names.ALERTS_INDEX).id(CURSOR_ID), JsonNode.class);
            return r.found() ? Optional.ofNullable(r.source().path("cursor").asText(null)) : Optional.empty();
        } catch (ElasticsearchException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    void saveCursor(String cursor) throws IOException {
        ensure();
        ObjectNode doc = Json.MAPPER.createObjectNode().put("record", "cursor").put("cursor", cursor);
        es.index(i -> i.index(Names.ALERTS_INDEX).id(CURSOR_ID).document(doc));
    }

    private <T> List<T> search(String index, Query q, String sort, SortOrder order, int size, Class<T> type) throws IOException {
        try {
            List<T> out = new ArrayList<>();
            for (Hit<T> h : es.search(s -> s.index(index).size(size).query(q).sort(o -> o.field(f -> f.field(sort).order(order))), type)
                    .hits().hits()) {
                out.add(h.source());
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
