package io.videoworld.testkit;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.elasticsearch.ElasticsearchContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/** The Docker path: Kafka (KRaft) and Elasticsearch in Testcontainers, same versions as the scripts. */
final class ContainersInfra implements TestInfra {
    private final KafkaContainer kafka;
    private final ElasticsearchContainer es;

    private ContainersInfra(KafkaContainer kafka, ElasticsearchContainer es) {
        this.kafka = kafka;
        this.es = es;
    }

    /**
     * Whether a Docker engine answers. Testcontainers is asked only where one could: with
     * {@code DOCKER_HOST} set, a Testcontainers configuration file, or a Docker socket on disk;
     * otherwise its probe would log a failure and stack traces for an engine that is not there.
     */
    static boolean dockerAnswers() {
        if (!dockerConfigured()) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable e) {
            return false;
        }
    }

    private static boolean dockerConfigured() {
        String home = System.getProperty("user.home", "");
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        return System.getenv("DOCKER_HOST") != null
                || java.nio.file.Files.exists(java.nio.file.Path.of(home, ".testcontainers.properties"))
                || java.nio.file.Files.exists(java.nio.file.Path.of("/var/run/docker.sock"))
                || java.nio.file.Files.exists(java.nio.file.Path.of(home, ".docker/run/docker.sock"))
                || (runtime != null && java.nio.file.Files.exists(java.nio.file.Path.of(runtime, "docker.sock")));
    }

    static ContainersInfra start() {
        KafkaContainer kafka = new KafkaContainer(DockerImageName.parse("apache/kafka:" + Versions.get("KAFKA_VERSION")))
                .withEnv("KAFKA_MESSAGE_MAX_BYTES", "8388608");
        ElasticsearchContainer es = new ElasticsearchContainer(
                DockerImageName.parse("docker.elastic.co/elasticsearch/elasticsearch:" + Versions.get("ES_VERSION")))
                .withEnv("xpack.security.enabled", "false")
                .withEnv("ES_JAVA_OPTS", "-Xms768m -Xmx768m");
        kafka.start();
        es.start();
        return new ContainersInfra(kafka, es);
    }

    @Override
    public String kafkaBootstrap() {
        return kafka.getBootstrapServers();
    }

    @Override
    public String elasticsearchUrl() {
        return "http://" + es.getHttpHostAddress();
    }

    @Override
    public String description() {
        return "Testcontainers: Kafka " + kafka.getDockerImageName() + " + Elasticsearch " + es.getDockerImageName();
    }
}
