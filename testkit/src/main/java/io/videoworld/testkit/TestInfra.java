package io.videoworld.testkit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka and Elasticsearch for tests, one of each per test JVM. Where a Docker engine answers,
 * Testcontainers runs both; where none does (as on these machines), an in-JVM KRaft broker and
 * the real Elasticsearch server started by {@code deploy/elasticsearch.sh}. The same tests run on
 * either, and the log says which one ran.
 */
public interface TestInfra {
    Logger LOG = LoggerFactory.getLogger(TestInfra.class);

    /** Kafka bootstrap servers. */
    String kafkaBootstrap();

    /** Elasticsearch base URL, e.g. {@code http://127.0.0.1:9200}. */
    String elasticsearchUrl();

    /** One line saying what runs, for the log. */
    String description();

    /** The shared instance, started on first use and stopped when the JVM exits. */
    static TestInfra get() {
        return Holder.INSTANCE;
    }

    /** Lazily starts the one instance. */
    final class Holder {
        static final TestInfra INSTANCE = start();

        private Holder() {}

        private static TestInfra start() {
            boolean docker = !"false".equals(System.getenv("VW_TEST_DOCKER")) && ContainersInfra.dockerAnswers();
            TestInfra infra;
            try {
                infra = docker ? ContainersInfra.start() : LocalInfra.start();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start test infrastructure", e);
            }
            LOG.info("test infrastructure: {}", infra.description());
            System.out.println("[videoworld-tests] infrastructure: " + infra.description());
            return infra;
        }
    }
}
