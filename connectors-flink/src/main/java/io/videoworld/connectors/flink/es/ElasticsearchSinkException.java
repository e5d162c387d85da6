package io.videoworld.connectors.flink.es;

import io.videoworld.connectors.es.EsWrite;

/** A write that Elasticsearch rejected for good (bad document or mapping): the job must stop. */
public final class ElasticsearchSinkException extends RuntimeException {
    public ElasticsearchSinkException(EsWrite write, int status, String reason) {
        super("Elasticsearch rejected " + write.index() + "/" + write.id() + " with HTTP " + status + ": " + reason);
    }
}
