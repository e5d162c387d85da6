package io.videoworld.query.metrics;

import co.elastic.clients.transport.Endpoint;
import co.elastic.clients.transport.TransportOptions;
import co.elastic.clients.transport.http.TransportHttpClient;
import co.elastic.clients.transport.instrumentation.Instrumentation;

/**
 * Times every Elasticsearch call at the client's transport, the one place the read side, live
 * events, alerts and streams all pass through, so no repository has to time its own calls.
 */
final class EsTiming implements Instrumentation {
    private static final ThreadScope NO_SCOPE = () -> {};
    private final ServiceMetrics metrics;

    EsTiming(ServiceMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public <TRequest> Context newContext(TRequest request, Endpoint<TRequest, ?, ?> endpoint) {
        String id = endpoint == null || endpoint.id() == null ? "other" : endpoint.id().replaceFirst("^es/", "");
        long start = System.nanoTime();
        return new Context() {
            private String outcome = "ok";

            @Override
            public ThreadScope makeCurrent() {
                return NO_SCOPE;
            }

            @Override
            public void beforeSendingHttpRequest(TransportHttpClient.Request httpRequest, TransportOptions options) {}

            @Override
            public void afterReceivingHttpResponse(TransportHttpClient.Response httpResponse) {}

            @Override
            public <TResponse> void afterDecodingApiResponse(TResponse apiResponse) {}

            @Override
            public void recordException(Throwable thr) {
                // A missing index or document is an answer the callers expect (no match), not a failing cluster.
                outcome = thr instanceof co.elastic.clients.elasticsearch._types.ElasticsearchException e && e.status() == 404 ? "not_found" : "error";
            }

            @Override
            public void close() {
                metrics.elasticsearch(id, outcome, System.nanoTime() - start);
            }
        };
    }
}
