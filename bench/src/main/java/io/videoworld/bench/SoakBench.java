package io.videoworld.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.Json;
import io.videoworld.core.Names;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.query.api.ToolCatalog;
import io.videoworld.testkit.MalformedRecords;
import io.videoworld.testkit.MalformedRecords.Poison;
import io.videoworld.testkit.ToolFuzz;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The soak: the one-machine cluster ({@code deploy/cluster.sh}, already up) under continuous load
 * for {@code minutes}: two live screens at 1 fps and a live camera at 25 fps in real time; every two
 * minutes the same recorded screen session and camera clip pushed again as a new stream; every three
 * minutes the malformed-record corpus; every minute a burst of mutated requests to every tool. A
 * third of the way in a TaskManager is killed and restarted, two thirds in an Elasticsearch node.
 * At the end: every pushed copy holds the same documents as the clean reference pushed before any
 * fault (per index, ids and content, the stream id aside), the dead-letter topic holds each bad
 * record once per send (read committed), no request got a 5xx, the job runs, and TaskManager heap
 * and checkpoint size stay flat (first third against last third). Saved by {@link BenchRecord} as {@code bench/results/soak.json}.
 * Usage: bench soak [MINUTES (30)] (through deploy/soak.sh, which starts and stops the cluster).
 */
public final class SoakBench {
    private static final String ES = "http://127.0.0.1:9260";
    private static final String QUERY = "http://127.0.0.1:8080";
    private static final String BOOTSTRAP = "127.0.0.1:19092,127.0.0.1:19192,127.0.0.1:19292";
    private static final int FLINK_PORT = 8081;
    private static final int SCREEN_FRAMES = 30;
    private static final int CAMERA_SECONDS = 20;
    private static final String[] INDICES = {Names.FRAMES_INDEX, Names.SHOTS_INDEX, Names.TRACKS_INDEX, Names.EPISODES_INDEX,
            Names.VIDEOS_INDEX, Names.PERCEPTION_INDEX};

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String cluster;
    private final StackSources sources;
    private final Map<Integer, Long> statuses = new TreeMap<>();
    private final List<String> fiveHundreds = new ArrayList<>();
    /** The documents {@link #contents} read last, by index and stream kind, to show what differs. */
    private final Map<String, List<String>> lastDocs = new LinkedHashMap<>();
    /** Each copy's push epoch, which {@link #contents} takes out of times and references. */
    private final Map<String, Long> epochs = new LinkedHashMap<>();

    private SoakBench(String cluster, StackSources sources) {
        this.cluster = cluster;
        this.sources = sources;
    }

    /** One sample of the job's health. */
    record Sample(double minute, long heapBytes, long checkpointBytes, String state) {}

    public static void main(String[] args) throws Exception {
        BenchRecord.start("soak", args.length > 0 ? new String[] {args[0]} : new String[0]);
        try {
            int minutes = args.length > 0 ? Integer.parseInt(args[0]) : 30;
            String cluster = args.length > 1 ? args[1] : "deploy/cluster.sh";
            boolean ok = new SoakBench(cluster, StackSources.prepare(Math.max(SCREEN_FRAMES, CAMERA_SECONDS))).run(minutes);
            // A run whose checks failed is still a result, saved like any other; the exit status says it failed.
            System.exit(ok ? 0 : 3);
        } catch (Exception e) {
            BenchRecord.fail(e);
        }
    }

    private boolean run(int minutes) throws Exception {
        String job = jobId();
        FlinkRest rest = new FlinkRest(FLINK_PORT, job);
        List<Sample> samples = new ArrayList<>();
        List<String> events = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = KafkaProducers.create(BOOTSTRAP)) {
            log("clean reference: the recorded session and clip as soak-ref-*");
            pushCopy(producer, "soak_ref");
            settle(List.of("soak_ref_scr", "soak_ref_cam"), 600);
            Map<String, String> reference = contents("soak_ref");
            Map<String, List<String>> referenceDocs = new LinkedHashMap<>(lastDocs);
            log("reference settled: " + reference.keySet());

            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong livePushed = new AtomicLong();
            Thread live = new Thread(() -> live(producer, stop, livePushed), "soak-live");
            live.start();
            long t0 = System.currentTimeMillis();
            long end = t0 + minutes * 60_000L;
            int copies = 0;
            int corpusRounds = 0;
            boolean tmKilled = false;
            boolean esRestarted = false;
            List<Poison> corpus = MalformedRecords.corpus(1_700_000_000_000L);
            long nextCopy = t0;
            long nextCorpus = t0 + 30_000;
            long nextFuzz = t0 + 15_000;
            long nextSample = t0;
            while (System.currentTimeMillis() < end) {
                long now = System.currentTimeMillis();
                double minute = (now - t0) / 60_000.0;
                if (now >= nextSample) {
                    samples.add(sample(rest, minute));
                    nextSample += 30_000;
                }
                if (now >= nextCopy) {
                    pushCopy(producer, "soak_" + copies++);
                    nextCopy += 120_000;
                }
                if (now >= nextCorpus) {
                    for (Poison p : corpus) {
                        producer.send(new ProducerRecord<>(Names.FRAMES_TOPIC, p.key(), p.value()));
                    }
                    producer.flush();
                    corpusRounds++;
                    nextCorpus += 180_000;
                }
                if (now >= nextFuzz) {
                    fuzz(new Random(now), 40);
                    nextFuzz += 60_000;
                }
                if (!tmKilled && now >= t0 + (end - t0) / 3) {
                    events.add(fault("tm2", minute));
                    tmKilled = true;
                }
                if (!esRestarted && now >= t0 + 2 * (end - t0) / 3) {
                    events.add(fault("es2", minute));
                    esRestarted = true;
                }
                Thread.sleep(1_000);
            }
            stop.set(true);
            live.join();
            log("load stopped after " + minutes + " min: " + copies + " copies, " + corpusRounds + " corpus rounds, " + livePushed.get()
                    + " live frames; waiting for the copies to settle");
            List<String> copyStreams = new ArrayList<>();
            for (int k = 0; k < copies; k++) {
                copyStreams.add("soak_" + k + "_scr");
                copyStreams.add("soak_" + k + "_cam");
            }
            settle(copyStreams, 900);
            samples.add(sample(rest, (System.currentTimeMillis() - t0) / 60_000.0));

            int identical = 0;
            List<String> different = new ArrayList<>();
            for (int k = 0; k < copies; k++) {
                Map<String, String> c = contents("soak_" + k);
                if (c.equals(reference)) {
                    identical++;
                } else {
                    for (String index : reference.keySet()) {
                        if (!reference.get(index).equals(c.get(index))) {
                            List<String> onlyCopy = new ArrayList<>(lastDocs.get(index));
                            onlyCopy.removeAll(referenceDocs.get(index));
                            List<String> onlyRef = new ArrayList<>(referenceDocs.get(index));
                            onlyRef.removeAll(lastDocs.get(index));
                            different.add("soak_" + k + " " + index + ": " + c.get(index) + " vs clean " + reference.get(index)
                                    + "; " + fieldsThatDiffer(onlyCopy, onlyRef) + "; only in the copy: " + cut(onlyCopy)
                                    + "; only in the clean run: " + cut(onlyRef));
                        }
                    }
                }
            }
            Map<String, Integer> dead = deadLetters(corpus, corpusRounds);
            long restarts = rest.get("/jobs/" + job + "/exceptions").path("exceptionHistory").path("entries").size();
            boolean running = rest.running();
            boolean ok = identical == copies && dead.values().stream().allMatch(n -> n == 0) && fiveHundreds.isEmpty() && running;
            print(minutes, copies, identical, different, corpusRounds, corpus.size(), dead, samples, events, restarts, running,
                    livePushed.get());
            log(ok ? "PASS" : "FAIL");
            return ok;
        }
    }

    /**
     * The recorded session and clip, pushed as files (not live), as streams {@code prefix}_scr and {@code prefix}_cam, starting now
     * as a push does: event time is one clock for every stream, so a copy dated in the past would arrive behind the live streams'
     * watermark. Returns the push's epoch.
     */
    private long pushCopy(KafkaProducer<byte[], byte[]> producer, String prefix) {
        long epoch = System.currentTimeMillis() / 1000 * 1000;
        epochs.put(prefix, epoch);
        SourceInfo folder = new SourceInfo(1, null, (long) SCREEN_FRAMES, "jpeg", false, 0, 0, null, null, 1280, 800, 1);
        List<Frame> screens = new ArrayList<>();
        for (int i = 0; i < SCREEN_FRAMES; i++) {
            screens.add(new Frame(i, i * 1000L, null, 1280, 800, sources.screen().get(i % sources.screen().size())));
        }
        for (int b = 0; b * 10 < SCREEN_FRAMES; b++) {
            List<Frame> part = screens.subList(b * 10, Math.min(SCREEN_FRAMES, b * 10 + 10));
            send(producer, new FrameBatch(prefix + "_scr", SourceKind.SCREEN, "soak:desktop", b, epoch, folder, part, (b + 1) * 10 >= SCREEN_FRAMES));
        }
        SourceInfo clip = new SourceInfo(25, CAMERA_SECONDS * 1000L, CAMERA_SECONDS * 25L, "h264", false, 0, 0, null, null, 640, 360, 25);
        for (int s = 0; s < CAMERA_SECONDS; s++) {
            List<Frame> frames = new ArrayList<>(25);
            for (int j = 0; j < 25; j++) {
                int index = s * 25 + j;
                SourceFrame f = sources.camera().get(index % sources.camera().size());
                frames.add(new Frame(index, index * 40L, null, f.width(), f.height(), f.jpeg()));
            }
            send(producer, new FrameBatch(prefix + "_cam", SourceKind.VIDEO, "soak:camera.mp4", s, epoch, clip, frames, s == CAMERA_SECONDS - 1));
        }
        producer.flush();
        return epoch;
    }

    /** Two live screens at 1 fps and a live camera at 25 fps, in real time, until told to stop. */
    private void live(KafkaProducer<byte[], byte[]> producer, AtomicBoolean stop, AtomicLong pushed) {
        long epoch = (System.currentTimeMillis() / 1000 + 1) * 1000;
        SourceInfo screenInfo = new SourceInfo(1, null, null, "jpeg", false, 0, 0, null, null, 1280, 800, 1);
        SourceInfo cameraInfo = new SourceInfo(25, null, null, "h264", false, 0, 0, null, null, 640, 360, 25);
        try {
            for (int sec = 0; !stop.get(); sec++) {
                long due = epoch + sec * 1000L;
                Thread.sleep(Math.max(0, due - System.currentTimeMillis()));
                for (int s = 0; s < 2; s++) {
                    byte[] jpeg = sources.screen().get((sec + s * 7) % sources.screen().size());
                    send(producer, new FrameBatch("soak_live_scr" + s, SourceKind.SCREEN, "soak:screen", sec, epoch, screenInfo,
                            List.of(new Frame(sec, sec * 1000L, due, 1280, 800, jpeg))));
                    pushed.incrementAndGet();
                }
                if (sec > 0) {
                    List<Frame> frames = new ArrayList<>(25);
                    for (int j = 0; j < 25; j++) {
                        long index = (sec - 1) * 25L + j;
                        SourceFrame f = sources.camera().get((int) (index % sources.camera().size()));
                        frames.add(new Frame(index, index * 40, epoch + index * 40, f.width(), f.height(), f.jpeg()));
                    }
                    send(producer, new FrameBatch("soak_live_cam", SourceKind.VIDEO, "soak:camera", sec - 1, epoch, cameraInfo, frames));
                    pushed.addAndGet(25);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, FrameBatch b) {
        producer.send(new ProducerRecord<>(Names.FRAMES_TOPIC, b.streamId().getBytes(StandardCharsets.UTF_8), FrameBatchCodec.encode(b)));
    }

    /** {@code n} mutated requests spread over the catalog's tools; any 5xx but 501 is remembered. */
    private void fuzz(Random rnd, int n) {
        List<ToolCatalog.ToolDef> tools = ToolCatalog.load().all();
        for (int i = 0; i < n; i++) {
            ToolCatalog.ToolDef t = tools.get(rnd.nextInt(tools.size()));
            String body = ToolFuzz.mutate(rnd, t.parameters()).toString();
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(QUERY + "/v1/tools/" + t.name()))
                        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                statuses.merge(r.statusCode(), 1L, Long::sum);
                if (r.statusCode() >= 500 && r.statusCode() != 501) {
                    fiveHundreds.add(t.name() + " " + r.statusCode() + ": " + body.substring(0, Math.min(200, body.length())));
                }
            } catch (Exception e) {
                statuses.merge(-1, 1L, Long::sum);
            }
        }
    }

    /** Kills a component with SIGKILL, waits 15 s, starts it again; says when and how long it took to come back. */
    private String fault(String component, double minute) throws Exception {
        log("kill -9 " + component + " at minute " + String.format("%.1f", minute));
        exec(cluster, "kill", component);
        Thread.sleep(15_000);
        long t = System.currentTimeMillis();
        exec(cluster, "start", component);
        return String.format("%s killed at minute %.1f, started again after 15 s (start took %.1f s)", component, minute,
                (System.currentTimeMillis() - t) / 1000.0);
    }

    private static void exec(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + p.exitValue());
        }
    }

    private Sample sample(FlinkRest rest, double minute) {
        long heap = 0;
        long checkpoint = -1;
        String state = "?";
        try {
            for (JsonNode tm : rest.get("/taskmanagers").path("taskmanagers")) {
                for (JsonNode m : rest.get("/taskmanagers/" + tm.path("id").asText() + "/metrics?get=Status.JVM.Memory.Heap.Used")) {
                    heap += m.path("value").asLong();
                }
            }
            checkpoint = rest.checkpointBytes().values().stream().mapToLong(Long::longValue).sum();
            state = rest.running() ? "RUNNING" : "not all running";
        } catch (Exception e) {
            state = "unreachable: " + e.getMessage();
        }
        return new Sample(Math.round(minute * 10) / 10.0, heap, checkpoint, state);
    }

    /** Waits until each stream's documents stop changing for 60 s (and exist): a minute covers a restart's catch-up. */
    private void settle(List<String> streams, int seconds) throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        String last = "";
        long since = System.currentTimeMillis();
        while (System.currentTimeMillis() < deadline) {
            StringBuilder now = new StringBuilder();
            boolean all = true;
            for (String s : streams) {
                long frames = count(Names.FRAMES_INDEX, s);
                all &= frames > 0;
                now.append(frames).append('/').append(count(Names.SHOTS_INDEX, s)).append('/').append(count(Names.EPISODES_INDEX, s))
                        .append('/').append(count(Names.PERCEPTION_INDEX, s)).append(' ');
            }
            if (!now.toString().equals(last) || !all) {
                last = now.toString();
                since = System.currentTimeMillis();
            } else if (System.currentTimeMillis() - since > 60_000) {
                return;
            }
            Thread.sleep(1_000);
        }
        throw new IllegalStateException("streams did not settle in " + seconds + " s: " + last);
    }

    private long count(String index, String stream) {
        try {
            JsonNode r = Json.MAPPER.readTree(http.send(HttpRequest.newBuilder(URI.create(ES + "/" + index + "/_count?q=stream_id:" + stream))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body());
            return r.path("count").asLong(-1);
        } catch (Exception e) {
            return -1;
        }
    }

    /** Per index and stream kind: documents and a hash of their ids and sources, with the copy's name in place of its stream ids. */
    private Map<String, String> contents(String prefix) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        lastDocs.clear();
        for (String index : INDICES) {
            for (String kind : new String[] {"_scr", "_cam"}) {
                String stream = prefix + kind;
                String body = "{\"size\":10000,\"query\":{\"term\":{\"stream_id\":\"" + stream + "\"}}}";
                JsonNode hits = Json.MAPPER.readTree(http.send(HttpRequest.newBuilder(URI.create(ES + "/" + index + "/_search"))
                        .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(), HttpResponse.BodyHandlers.ofString()).body()).path("hits").path("hits");
                List<String> docs = new ArrayList<>();
                for (JsonNode h : hits) {
                    ObjectNode doc = Json.MAPPER.createObjectNode();
                    doc.put("_id", h.path("_id").asText());
                    doc.set("_source", h.path("_source"));
                    docs.add(Json.MAPPER.writeValueAsString(relative(sorted(doc), epochs.get(prefix))).replace(stream, "STREAM" + kind)
                            .replace(String.valueOf(epochs.get(prefix)), "EPOCH"));
                }
                docs.sort(null);
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                docs.forEach(d -> sha.update(d.getBytes(StandardCharsets.UTF_8)));
                out.put(index + kind, docs.size() + " docs " + HexFormat.of().formatHex(sha.digest()).substring(0, 16));
                lastDocs.put(index + kind, docs);
            }
        }
        return out;
    }

    /**
     * For the documents both sides hold under the same id, the top-level fields whose values differ
     * (copy value, then clean value, each cut short), so a report says what differs, not only that it does.
     */
    static String fieldsThatDiffer(List<String> copyDocs, List<String> cleanDocs) {
        Map<String, JsonNode> clean = new LinkedHashMap<>();
        for (String d : cleanDocs) {
            JsonNode n = parse(d);
            clean.put(n.path("_id").asText(), n.path("_source"));
        }
        List<String> out = new ArrayList<>();
        for (String d : copyDocs) {
            JsonNode n = parse(d);
            JsonNode other = clean.get(n.path("_id").asText());
            if (other == null) {
                continue;
            }
            java.util.Set<String> names = new java.util.TreeSet<>();
            n.path("_source").fieldNames().forEachRemaining(names::add);
            other.fieldNames().forEachRemaining(names::add);
            for (String f : names) {
                JsonNode a = n.path("_source").get(f);
                JsonNode b = other.get(f);
                if (a == null || !a.equals(b)) {
                    out.add(n.path("_id").asText() + "." + f + " = " + shortText(a) + " vs " + shortText(b));
                }
            }
        }
        return out.isEmpty() ? "no document differs field by field" : "fields that differ: " + String.join(", ", out.subList(0, Math.min(12, out.size())));
    }

    private static JsonNode parse(String doc) {
        try {
            return Json.MAPPER.readTree(doc);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String shortText(JsonNode n) {
        String t = n == null ? "(absent)" : n.toString();
        return t.length() > 120 ? t.substring(0, 120) + "..." : t;
    }

    private static String cut(List<String> docs) {
        String all = String.join(" | ", docs.subList(0, Math.min(3, docs.size())));
        return all.length() > 1500 ? all.substring(0, 1500) + "..." : all;
    }

    /** Times counted from the push's epoch: the same frame of two pushes then has the same document. */
    static JsonNode relative(JsonNode n, long epoch) {
        if (n.isObject()) {
            ObjectNode o = (ObjectNode) n;
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String k : names) {
                JsonNode v = o.get(k);
                if (v.isIntegralNumber() && (k.endsWith("_ms") || k.endsWith("_at")) && v.asLong() >= epoch) {
                    o.put(k, v.asLong() - epoch);
                } else {
                    relative(v, epoch);
                }
            }
        } else if (n.isArray()) {
            n.forEach(x -> relative(x, epoch));
        }
        return n;
    }

    private static JsonNode sorted(JsonNode n) {
        if (n.isObject()) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            List<String> names = new ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            names.forEach(k -> o.set(k, sorted(n.get(k))));
            return o;
        }
        return n;
    }

    /** Per corpus record: how far its count of dead letters (read committed) is from one per send; 0 everywhere is right. */
    private Map<String, Integer> deadLetters(List<Poison> corpus, int rounds) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "soak-" + System.nanoTime());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(2 * KafkaProducers.MAX_RECORD_BYTES));
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(Names.DLQ_TOPIC));
            long quiet = System.currentTimeMillis();
            while (System.currentTimeMillis() - quiet < 15_000) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    all.add(r);
                    quiet = System.currentTimeMillis();
                }
            }
        }
        Map<String, Integer> off = new LinkedHashMap<>();
        for (Poison bad : corpus) {
            boolean late = !io.videoworld.core.DeadLetter.INGEST.equals(bad.stage());
            byte[] value = late ? MalformedRecords.frameJpeg(bad) : bad.value();
            long n = all.stream().filter(r -> Arrays.equals(r.value(), value) && (late || Arrays.equals(r.key(), bad.key()))).count();
            off.put(bad.kind() + " " + new String(bad.key() == null ? new byte[0] : bad.key(), StandardCharsets.UTF_8), (int) (n - rounds));
        }
        off.put("dead letters of no corpus record", (int) (all.size() - (long) corpus.size() * rounds));
        return off;
    }

    private void print(int minutes, int copies, int identical, List<String> different, int rounds, int corpusSize, Map<String, Integer> dead,
            List<Sample> samples, List<String> events, long restarts, boolean running, long live) {
        long fiveXx = statuses.entrySet().stream().filter(e -> e.getKey() >= 500 && e.getKey() != 501).mapToLong(Map.Entry::getValue).sum();
        long requests = statuses.values().stream().mapToLong(Long::longValue).sum();
        System.out.println();
        System.out.println("### Soak: the cluster for " + minutes + " minutes under load, a TaskManager and an Elasticsearch node killed");
        System.out.println();
        System.out.println("| minutes | copies identical to the clean run | dead letters (corpus x rounds), off by | REST fuzz requests, 5xx "
                + "| live frames pushed | job restarts | job running at end | TM heap max MB, first / last third "
                + "| checkpoint max KB, first / last third |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---|---:|---:|");
        System.out.printf("| %d | %d of %d | %d x %d, %d | %d, %d | %d | %d | %s | %d / %d | %d / %d |%n", minutes, identical, copies, corpusSize,
                rounds, dead.values().stream().mapToInt(Math::abs).sum(), requests, fiveXx, live, restarts, running ? "yes" : "NO",
                thirdMax(samples, 0, Sample::heapBytes) >> 20, thirdMax(samples, 2, Sample::heapBytes) >> 20,
                thirdMax(samples, 0, Sample::checkpointBytes) >> 10, thirdMax(samples, 2, Sample::checkpointBytes) >> 10);
        System.out.println();
        System.out.println("Faults: " + String.join("; ", events) + ". REST statuses: " + statuses + ".");
        different.forEach(d -> System.out.println("Different: " + d));
        dead.entrySet().stream().filter(e -> e.getValue() != 0).forEach(e -> System.out.println("Dead letters off: " + e.getKey() + " by " + e.getValue()));
        fiveHundreds.forEach(f -> System.out.println("5xx: " + f));
        System.out.println();
        System.out.println("| minute | TM heap used MB | checkpoint KB | job |");
        System.out.println("|---:|---:|---:|---|");
        samples.forEach(x -> System.out.printf("| %.1f | %d | %d | %s |%n", x.minute(), x.heapBytes() >> 20, x.checkpointBytes() >> 10, x.state()));
    }

    private static long thirdMax(List<Sample> samples, int third, java.util.function.ToLongFunction<Sample> f) {
        int n = samples.size();
        return samples.subList(third * n / 3, Math.max(third * n / 3 + 1, (third + 1) * n / 3)).stream().mapToLong(f).max().orElse(-1);
    }

    private String jobId() throws Exception {
        long deadline = System.currentTimeMillis() + 300_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                JsonNode jobs = Json.MAPPER.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + FLINK_PORT + "/jobs/overview"))
                        .build(), HttpResponse.BodyHandlers.ofString()).body()).path("jobs");
                for (JsonNode j : jobs) {
                    if ("RUNNING".equals(j.path("state").asText())) {
                        String id = j.path("jid").asText();
                        if (new FlinkRest(FLINK_PORT, id).running()) {
                            return id;
                        }
                    }
                }
            } catch (Exception e) {
                // not up yet
            }
            Thread.sleep(1_000);
        }
        throw new IllegalStateException("no running ingest job on the cluster after 5 minutes");
    }

    private static void log(String s) {
        System.err.printf("[soak %tT] %s%n", System.currentTimeMillis(), s);
    }
}
