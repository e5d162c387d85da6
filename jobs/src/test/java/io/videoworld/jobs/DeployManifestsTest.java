package io.videoworld.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.videoworld.core.Names;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/k8s, docker-compose.yml and deploy/docker read as a user would deploy them: every manifest
 * parses, kinds and apiVersions are the operators' own, every vw.* key is an option the job knows, and
 * images, versions, jar paths, ports, volumes and shared URIs agree with each other and with the poms.
 */
class DeployManifestsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern VW_KEY = Pattern.compile("--(vw\\.[a-z0-9.-]+)");
    private static final Map<String, String> API_VERSIONS = Map.ofEntries(
            Map.entry("FlinkDeployment", "flink.apache.org/v1beta1"),
            Map.entry("Kafka", "kafka.strimzi.io/v1beta2"),
            Map.entry("KafkaNodePool", "kafka.strimzi.io/v1beta2"),
            Map.entry("KafkaTopic", "kafka.strimzi.io/v1beta2"),
            Map.entry("Elasticsearch", "elasticsearch.k8s.elastic.co/v1"),
            Map.entry("Deployment", "apps/v1"),
            Map.entry("Service", "v1"),
            Map.entry("ConfigMap", "v1"),
            Map.entry("Secret", "v1"),
            Map.entry("PersistentVolumeClaim", "v1"),
            Map.entry("Job", "batch/v1"));

    static Path repo;
    static Map<String, List<JsonNode>> byKind = new HashMap<>();
    static JsonNode compose;
    static Set<String> knownKeys = new HashSet<>();

    @BeforeAll
    static void load() throws Exception {
        repo = Path.of("").toAbsolutePath();
        while (!Files.exists(repo.resolve("docker-compose.yml"))) {
            repo = repo.getParent();
        }
        try (Stream<Path> files = Files.list(repo.resolve("deploy/k8s"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode doc : documents(f)) {
                    byKind.computeIfAbsent(doc.path("kind").asText(), k -> new ArrayList<>()).add(doc);
                }
            }
        }
        compose = YAML.readTree(repo.resolve("docker-compose.yml").toFile());
        for (Class<?> c : List.of(IngestOptions.class, ShotOptions.class, PerceptionOptions.class, MemoryOptions.class, DetectOptions.class,
                AudioOptions.class,
                PeopleOptions.class)) {
            for (Field f : c.getFields()) {
                if (Modifier.isStatic(f.getModifiers()) && ConfigOption.class.isAssignableFrom(f.getType())) {
                    knownKeys.add(((ConfigOption<?>) f.get(null)).key());
                }
            }
        }
    }

    static List<JsonNode> documents(Path f) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (YAMLParser p = new YAMLFactory().createParser(f.toFile())) {
            var it = YAML.readValues(p, JsonNode.class);
            while (it.hasNext()) {
                JsonNode d = it.next();
                if (d != null && !d.isNull() && !d.isEmpty()) {
                    docs.add(d);
                }
            }
        }
        return docs;
    }

    static JsonNode one(String kind) {
        assertThat(byKind.get(kind)).as("one " + kind).hasSize(1);
        return byKind.get(kind).get(0);
    }

    static String text(String relative) throws IOException {
        return Files.readString(repo.resolve(relative));
    }

    static String pomValue(String relative, String element) throws IOException {
        Matcher m = Pattern.compile("<" + element + ">([^<]+)</" + element + ">").matcher(text(relative));
        assertThat(m.find()).as(element + " in " + relative).isTrue();
        return m.group(1);
    }

    /** Flag values of an argument list: "--x", "v" pairs. */
    static Map<String, String> flags(List<String> args) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).startsWith("--") && i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                out.put(args.get(i).substring(2), args.get(i + 1));
            }
        }
        return out;
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static List<String> words(String command) {
        return List.of(command.trim().replace("\"", "").split("\\s+"));
    }

    static String dockerfileCopyTarget(String dockerfile, String source) throws IOException {
        Matcher m = Pattern.compile("(?m)^COPY\\s+" + Pattern.quote(source) + "\\s+(\\S+)$").matcher(text(dockerfile));
        assertThat(m.find()).as(dockerfile + " copies " + source).isTrue();
        return m.group(1);
    }

    @Test
    void everyManifestHasAKnownKindAndItsApiVersion() {
        assertThat(byKind.keySet()).contains("FlinkDeployment", "Kafka", "KafkaTopic", "Elasticsearch", "Deployment", "Service");
        byKind.forEach((kind, docs) -> docs.forEach(d -> {
            assertThat(API_VERSIONS).as("known kind").containsKey(kind);
            assertThat(d.path("apiVersion").asText()).as(kind + " " + d.at("/metadata/name").asText()).isEqualTo(API_VERSIONS.get(kind));
            assertThat(d.at("/metadata/name").asText()).as(kind + " has a name").isNotBlank();
        }));
        assertThat(compose.path("services").size()).isGreaterThanOrEqualTo(6);
    }

    @Test
    void everyVwKeyIsAnOptionOfTheJob() throws IOException {
        List<String> named = new ArrayList<>();
        one("FlinkDeployment").at("/spec/job/args").forEach(a -> {
            if (a.asText().startsWith("--vw.")) {
                named.add(a.asText().substring(2));
            }
        });
        Matcher m = VW_KEY.matcher(compose.at("/services/submit-ingest/command").asText() + "\n" + text("bin/videoworld")
                + "\n" + text("deploy/cluster.sh"));
        while (m.find()) {
            named.add(m.group(1));
        }
        assertThat(named).contains("vw.kafka.bootstrap", "vw.es.url", "vw.frame-store", "vw.checkpoint-dir", "vw.models");
        assertThat(knownKeys).containsAll(named);
    }

    @Test
    void imagesAndVersionsAgree() throws IOException {
        String flinkVersion = pomValue("pom.xml", "flink.version");
        String kafkaVersion = pomValue("pom.xml", "kafka.version");
        String esVersion = Pattern.compile("ES_VERSION=(\\S+)").matcher(text("deploy/versions.env")).results().findFirst().orElseThrow().group(1);
        for (String dockerfile : List.of("deploy/docker/ingest.Dockerfile", "deploy/docker/query-service.Dockerfile")) {
            assertThat(text(dockerfile)).as(dockerfile).contains("FROM flink:" + flinkVersion + "-java17");
        }
        JsonNode flink = one("FlinkDeployment");
        assertThat(flink.at("/spec/flinkVersion").asText()).isEqualTo("v" + flinkVersion.replaceAll("^(\\d+)\\.(\\d+).*", "$1_$2"));
        JsonNode s = compose.path("services");
        String ingestImage = flink.at("/spec/image").asText();
        for (String svc : List.of("jobmanager", "taskmanager", "submit-ingest")) {
            assertThat(s.at("/" + svc + "/image").asText()).as(svc).isEqualTo(ingestImage);
        }
        assertThat(s.at("/jobmanager/build/dockerfile").asText()).isEqualTo("deploy/docker/ingest.Dockerfile");
        String queryImage = container(queryDeployment(), "query-service").path("image").asText();
        assertThat(s.at("/query-service/image").asText()).isEqualTo(queryImage);
        assertThat(s.at("/query-service/build/dockerfile").asText()).isEqualTo("deploy/docker/query-service.Dockerfile");
        assertThat(s.at("/kafka/image").asText()).isEqualTo("apache/kafka:" + kafkaVersion);
        assertThat(one("Kafka").at("/spec/kafka/version").asText()).isEqualTo(kafkaVersion);
        assertThat(s.at("/elasticsearch/image").asText()).endsWith(":" + esVersion);
        assertThat(one("Elasticsearch").at("/spec/version").asText()).isEqualTo(esVersion);
        // the models image's init containers
        String modelsImage = flink.at("/spec/podTemplate/spec/initContainers/0/image").asText();
        assertThat(queryDeployment().at("/spec/template/spec/initContainers/0/image").asText()).isEqualTo(modelsImage);
    }

    static JsonNode queryDeployment() {
        return byKind.get("Deployment").stream().filter(d -> d.at("/metadata/name").asText().equals("videoworld-query")).findFirst().orElseThrow();
    }

    static JsonNode container(JsonNode deployment, String name) {
        for (JsonNode c : deployment.at("/spec/template/spec/containers")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no container " + name);
    }

    @Test
    void theJobJarIsTheDistJarWhereverItIsNamed() throws IOException {
        String jar = pomValue("jobs/pom.xml", "finalName") + ".jar";
        String inImage = dockerfileCopyTarget("deploy/docker/ingest.Dockerfile", "jobs/target/" + jar);
        JsonNode flink = one("FlinkDeployment");
        assertThat(flink.at("/spec/job/jarURI").asText()).isEqualTo("local://" + inImage);
        assertThat(flink.at("/spec/job/entryClass").asText()).isEqualTo(IngestJob.class.getName());
        assertThat(flink.at("/spec/job/parallelism").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(words(compose.at("/services/submit-ingest/command").asText())).contains(inImage);
        assertThat(text("deploy/cluster.sh")).contains("jobs/target/" + jar);
        String queryJar = pomValue("query-service/pom.xml", "finalName") + ".jar";
        String queryInImage = dockerfileCopyTarget("deploy/docker/query-service.Dockerfile", "query-service/target/" + queryJar);
        assertThat(text("deploy/docker/query-service.Dockerfile")).contains(queryInImage + ":");
        // the natives shot detection and OCR load travel with the jar
        assertThat(text("jobs/pom.xml")).doesNotContain("<exclude>org.bytedeco:*</exclude>");
    }

    @Test
    void portsAgree() {
        JsonNode deployment = queryDeployment();
        JsonNode c = container(deployment, "query-service");
        int containerPort = c.at("/ports/0/containerPort").asInt();
        Map<String, String> args = flags(strings(c.path("args")));
        assertThat(Integer.parseInt(args.get("port"))).isEqualTo(containerPort);
        assertThat(c.at("/readinessProbe/httpGet/port").asInt()).isEqualTo(containerPort);
        JsonNode service = byKind.get("Service").stream().filter(x -> x.at("/metadata/name").asText().equals("videoworld-query")).findFirst().orElseThrow();
        assertThat(service.at("/spec/ports/0/targetPort").asInt()).isEqualTo(containerPort);
        assertThat(service.at("/spec/selector")).isEqualTo(deployment.at("/spec/template/metadata/labels"));
        assertThat(deployment.at("/spec/selector/matchLabels")).isEqualTo(deployment.at("/spec/template/metadata/labels"));
        // the job reaches Strimzi's and ECK's services by their generated names
        Map<String, String> job = flags(strings(one("FlinkDeployment").at("/spec/job/args")));
        assertThat(job.get("vw.kafka.bootstrap")).isEqualTo(one("Kafka").at("/metadata/name").asText() + "-kafka-bootstrap:"
                + one("Kafka").at("/spec/kafka/listeners/0/port").asInt());
        String es = "http://" + one("Elasticsearch").at("/metadata/name").asText() + "-es-http:9200";
        assertThat(job.get("vw.es.url")).isEqualTo(es);
        assertThat(args.get("es-url")).isEqualTo(es);
        assertThat(args.get("flink-url")).isEqualTo("http://" + one("FlinkDeployment").at("/metadata/name").asText() + "-rest:8081");
        // compose: published ports are the ones the services listen on
        Map<String, String> q = flags(strings(compose.at("/services/query-service/command")));
        assertThat(strings(compose.at("/services/query-service/ports"))).contains(q.get("port") + ":" + q.get("port"));
        assertThat(strings(compose.at("/services/jobmanager/ports"))).contains("8081:8081");
        assertThat(q.get("flink-url")).isEqualTo("http://jobmanager:8081");
    }

    @Test
    void volumesAndSharedUrisAgree() throws IOException {
        JsonNode flink = one("FlinkDeployment");
        JsonNode pod = flink.at("/spec/podTemplate/spec");
        assertMountsHaveVolumes(pod);
        JsonNode querySpec = queryDeployment().at("/spec/template/spec");
        assertMountsHaveVolumes(querySpec);
        Map<String, String> job = flags(strings(flink.at("/spec/job/args")));
        Map<String, String> query = flags(strings(container(queryDeployment(), "query-service").path("args")));
        // frames and checkpoints on shared storage, the same URI for writer and reader
        assertThat(job.get("vw.frame-store")).startsWith("s3://").isEqualTo(query.get("frame-store"));
        assertThat(job.get("vw.checkpoint-dir")).startsWith("s3://").isEqualTo(flink.at("/spec/flinkConfiguration").path("execution.checkpointing.dir").asText());
        // the models: init container fills the volume the main container mounts where vw.models points
        String modelsTarget = Pattern.compile("/target").matcher(text("deploy/docker/models.Dockerfile")).find() ? "/target" : "?";
        assertThat(pod.at("/initContainers/0/volumeMounts/0/mountPath").asText()).isEqualTo(modelsTarget);
        assertThat(mountPath(pod.at("/containers/0"), pod.at("/initContainers/0/volumeMounts/0/name").asText())).isEqualTo(job.get("vw.models"));
        assertThat(querySpec.at("/initContainers/0/volumeMounts/0/mountPath").asText()).isEqualTo(modelsTarget);
        assertThat(mountPath(container(queryDeployment(), "query-service"), "models")).isEqualTo(query.get("models"));
        String fsConf = container(queryDeployment(), "query-service").at("/env/0/value").asText();
        assertThat(mountPath(container(queryDeployment(), "query-service"), "fs-conf")).isEqualTo(fsConf);

        // compose: named volumes declared, shared URIs the same and mounted wherever used
        JsonNode s = compose.path("services");
        Set<String> declared = new HashSet<>();
        compose.path("volumes").fieldNames().forEachRemaining(declared::add);
        Map<String, String> submit = flags(words(s.at("/submit-ingest/command").asText()));
        Map<String, String> q = flags(strings(s.at("/query-service/command")));
        assertThat(submit.get("vw.frame-store")).isEqualTo(q.get("frame-store"));
        String frames = submit.get("vw.frame-store").replaceFirst("^file://", "");
        String checkpoints = submit.get("vw.checkpoint-dir").replaceFirst("^file://", "");
        assertThat(compose.at("/x-flink-config/FLINK_PROPERTIES").asText()).contains("execution.checkpointing.dir: file://" + checkpoints);
        Map<String, List<String>> mounts = new HashMap<>();
        s.fields().forEachRemaining(e -> e.getValue().path("volumes").forEach(v -> {
            String[] parts = v.asText().split(":");
            if (!parts[0].startsWith(".") && !parts[0].startsWith("/") && !parts[0].startsWith("$")) {
                assertThat(declared).as("volume " + parts[0] + " of " + e.getKey()).contains(parts[0]);
            }
            mounts.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(parts[1]);
        }));
        assertThat(mounts.get("taskmanager")).contains(frames, checkpoints, submit.get("vw.models"));
        assertThat(mounts.get("jobmanager")).contains(checkpoints);
        assertThat(mounts.get("query-service")).contains(frames, q.get("models"));
        // pushed videos: the source root's target is where the query service mounts the media folder
        String sourceRoot = q.get("source-root");
        assertThat(sourceRoot).as("the query service maps the producer's file:// URIs").startsWith("file://").contains("=");
        assertThat(mounts.get("query-service")).contains(sourceRoot.substring(sourceRoot.indexOf('=') + 1).replaceFirst("/$", ""));
    }

    static String mountPath(JsonNode container, String volume) {
        for (JsonNode m : container.path("volumeMounts")) {
            if (m.path("name").asText().equals(volume)) {
                return m.path("mountPath").asText();
            }
        }
        throw new AssertionError("no mount of " + volume);
    }

    static void assertMountsHaveVolumes(JsonNode podSpec) {
        Set<String> volumes = new HashSet<>();
        podSpec.path("volumes").forEach(v -> volumes.add(v.path("name").asText()));
        for (String list : List.of("containers", "initContainers")) {
            for (JsonNode c : podSpec.path(list)) {
                for (JsonNode m : c.path("volumeMounts")) {
                    assertThat(volumes).as(c.path("name").asText() + " mounts " + m.path("name").asText()).contains(m.path("name").asText());
                }
            }
        }
    }

    @Test
    void kafkaTopicsAreTheJobsWithReplication() {
        Map<String, JsonNode> topics = new HashMap<>();
        byKind.get("KafkaTopic").forEach(t -> topics.put(t.at("/metadata/name").asText(), t));
        assertThat(topics.keySet()).containsExactlyInAnyOrder(Names.FRAMES_TOPIC, Names.DLQ_TOPIC);
        String cluster = one("Kafka").at("/metadata/name").asText();
        topics.values().forEach(t -> {
            assertThat(t.at("/metadata/labels/strimzi.io~1cluster").asText()).isEqualTo(cluster);
            assertThat(t.at("/spec/partitions").asInt()).isGreaterThanOrEqualTo(4);
            assertThat(t.at("/spec/replicas").asInt()).isEqualTo(3);
            assertThat(t.at("/spec/config/min.insync.replicas").asInt()).isEqualTo(2);
        });
        assertThat(byKind.get("KafkaNodePool").get(0).at("/spec/replicas").asInt()).isGreaterThanOrEqualTo(3);
        assertThat(one("Elasticsearch").at("/spec/nodeSets/0/count").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(one("FlinkDeployment").at("/spec/taskManager/replicas").asInt()).isGreaterThanOrEqualTo(2);
        assertThat((ArrayNode) one("FlinkDeployment").at("/spec/job/args")).isNotEmpty();
    }

    @Test
    void prometheusScrapesFlinkAndTheQueryServiceWhereverTheyRun() throws Exception {
        // the reporter the configurations name is on the launcher's classpath and in Flink's runtime for the cluster script
        assertThat(Class.forName(LocalLauncher.PROMETHEUS_FACTORY)).isNotNull();
        assertThat(text("deploy/flink/pom.xml")).contains("<artifactId>flink-metrics-prometheus</artifactId>");
        assertThat(text("jobs/pom.xml")).contains("<exclude>org.apache.flink:flink-metrics-prometheus</exclude>");
        String factory = "metrics.reporter.prom.factory.class: " + LocalLauncher.PROMETHEUS_FACTORY;
        assertThat(text("deploy/cluster.sh")).contains(factory).contains("metrics.reporter.prom.port: ");
        // compose: every Flink container reports, the JobManager's endpoint is published
        String props = compose.at("/x-flink-config/FLINK_PROPERTIES").asText();
        assertThat(props).contains(factory);
        Matcher port = Pattern.compile("metrics.reporter.prom.port: (\\d+)").matcher(props);
        assertThat(port.find()).isTrue();
        assertThat(strings(compose.at("/services/jobmanager/ports"))).contains(port.group(1) + ":" + port.group(1));
        // Kubernetes: the operator's pods report on the port their annotations and container ports name
        JsonNode flink = one("FlinkDeployment");
        JsonNode conf = flink.at("/spec/flinkConfiguration");
        assertThat(conf.path("metrics.reporter.prom.factory.class").asText()).isEqualTo(LocalLauncher.PROMETHEUS_FACTORY);
        String flinkPort = conf.path("metrics.reporter.prom.port").asText();
        assertThat(flink.at("/spec/podTemplate/metadata/annotations").path("prometheus.io/port").asText()).isEqualTo(flinkPort);
        assertThat(flink.at("/spec/podTemplate/spec/containers/0/ports/0/containerPort").asText()).isEqualTo(flinkPort);
        // the query service: its annotations name its port and the /metrics endpoint it serves
        JsonNode annotations = queryDeployment().at("/spec/template/metadata/annotations");
        JsonNode c = container(queryDeployment(), "query-service");
        assertThat(annotations.path("prometheus.io/port").asInt()).isEqualTo(c.at("/ports/0/containerPort").asInt());
        assertThat(io.videoworld.query.api.Endpoints.require("GET", annotations.path("prometheus.io/path").asText()).open()).isTrue();
        // compose's Prometheus scrapes those ports under the job names the dashboard filters on
        JsonNode prometheus = YAML.readTree(repo.resolve("deploy/prometheus/prometheus.yml").toFile());
        JsonNode dashboard = new ObjectMapper().readTree(repo.resolve("deploy/grafana/videoworld.json").toFile());
        Map<String, String> defaults = new HashMap<>();
        dashboard.at("/templating/list").forEach(v -> defaults.put(v.path("name").asText(), v.at("/current/value").asText()));
        Map<String, JsonNode> jobs = new HashMap<>();
        prometheus.path("scrape_configs").forEach(j -> jobs.put(j.path("job_name").asText(), j));
        assertThat(jobs.keySet()).containsExactlyInAnyOrder(defaults.get("query_job"), defaults.get("flink_job"));
        Map<String, String> q = flags(strings(compose.at("/services/query-service/command")));
        assertThat(strings(jobs.get(defaults.get("query_job")).at("/static_configs/0/targets"))).containsExactly("query-service:" + q.get("port"));
        JsonNode dns = jobs.get(defaults.get("flink_job")).at("/dns_sd_configs/0");
        assertThat(dns.path("port").asText()).isEqualTo(port.group(1));
        assertThat(strings(dns.path("names"))).containsExactlyInAnyOrder("jobmanager", "taskmanager");
        for (String svc : List.of("prometheus", "grafana")) {
            compose.at("/services/" + svc + "/volumes").forEach(v -> assertThat(repo.resolve(v.asText().split(":")[0])).as(svc + " mounts " + v).exists());
        }
    }

    @Test
    void queryServiceArgumentsAreItsOptions() {
        // picocli refuses an option the service does not have, such as a misspelt limit
        for (List<String> args : List.of(strings(container(queryDeployment(), "query-service").path("args")),
                strings(compose.at("/services/query-service/command")))) {
            new picocli.CommandLine(new io.videoworld.query.QueryServiceMain()).parseArgs(args.toArray(String[]::new));
        }
    }
}
