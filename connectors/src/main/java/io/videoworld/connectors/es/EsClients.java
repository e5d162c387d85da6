package io.videoworld.connectors.es;

import co.elastic.clients.elasticsearch.ElasticsearchAsyncClient;
import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.instrumentation.Instrumentation;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.core.Json;
import org.apache.http.HttpHost;
import org.elasticsearch.client.RestClient;

/** Builds Elasticsearch clients from a URL such as {@code http://127.0.0.1:9200}. */
public final class EsClients {
    private EsClients() {}

    /** A transport over the low-level REST client; close it to release its connections. */
    public static RestClientTransport transport(String url) {
        return transport(url, null);
    }

    /**
     * A transport whose every call goes through {@code instrumentation} (timing, tracing); null for
     * none. Close it to release its connections.
     */
    public static RestClientTransport transport(String url, Instrumentation instrumentation) {
        RestClient rest = RestClient.builder(HttpHost.create(url))
                .setRequestConfigCallback(c -> c.setConnectTimeout(5_000).setSocketTimeout(60_000))
                .build();
        JacksonJsonpMapper mapper = new JacksonJsonpMapper(Json.MAPPER.copy());
        return instrumentation == null ? new RestClientTransport(rest, mapper)
                : new RestClientTransport(rest, mapper, null, instrumentation);
    }

    public static ElasticsearchClient sync(RestClientTransport transport) {
        return new ElasticsearchClient(transport);
    }

    public static ElasticsearchAsyncClient async(RestClientTransport transport) {
        return new ElasticsearchAsyncClient(transport);
    }
}
