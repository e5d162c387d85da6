package io.videoworld.query.alerts;

import io.videoworld.query.live.LiveEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * One firing of an alert for one document, and every attempt to post it. Its id is the alert's
 * and the document's, so an alert fires once per episode or track however many servers watch.
 *
 * @param status {@code pending} while attempts remain, then {@code delivered} or {@code failed}
 * @param leaseUntilMs until when the server attempting it owns it; after that another may resume it
 */
public record Delivery(String deliveryId, String alertId, String status, LiveEvent event, List<Attempt> attempts, long createdAtMs,
        long leaseUntilMs) {
    public static final String PENDING = "pending";
    public static final String DELIVERED = "delivered";
    public static final String FAILED = "failed";

    /** One POST to the webhook: when, the HTTP status (0 when none came back), how long, and the error if any. */
    public record Attempt(int attempt, long atMs, int status, long tookMs, String error) {}

    public Delivery {
        attempts = attempts == null ? List.of() : List.copyOf(attempts);
    }

    static String id(String alertId, String documentId) {
        return alertId + "|" + documentId;
    }

    Delivery with(Attempt a, String newStatus, long newLeaseUntilMs) {
        List<Attempt> all = new ArrayList<>(attempts);
        all.add(a);
        return new Delivery(deliveryId, alertId, newStatus, event, all, createdAtMs, newLeaseUntilMs);
    }
}
