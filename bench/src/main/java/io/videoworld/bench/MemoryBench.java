package io.videoworld.bench;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.aggregations.StringTermsBucket;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.core.EpisodeBatch;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Names;
import io.videoworld.core.Observation;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import io.videoworld.core.VideoDoc;
import io.videoworld.jobs.DetectOptions;
import io.videoworld.jobs.IngestJob;
import io.videoworld.jobs.IngestOptions;
import io.videoworld.jobs.PerceptionOptions;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.operators.memory.EpisodeBatcher;
import io.videoworld.operators.memory.EpisodeWriter;
import io.videoworld.testkit.TestInfra;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.imageio.ImageIO;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Episodic memory speed. Part 1: batches/s of the episode batcher + writer on a bounded set of
 * perceived screen streams (no I/O), beside a pass-through job over the same observations.
 * Part 2: live, {@code streams} screenshot streams at 1 fps through the whole job (Kafka, shots,
 * OCR, memory, Elasticsearch): p50/p99 from a frame's production to its event being searchable,
 * beside the same for its frame document (the reference, measured in the same run).
 * Usage: MemoryBench [streams] [seconds]
 */
public final class MemoryBench {
    private MemoryBench() {}

    static final AtomicLong BATCHES = new AtomicLong();

    public static void main(String[] args) throws Exception {
        BenchRecord.start("memory", args);
        int streams = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 90;
        builder();
        live(streams, seconds);
        System.exit(0);
    }

    // ---- part 1 ----

    private static List<Observation> observations(int streams, int seconds) {
        Random r = new Random(1);
        float[][] topics = new float[6][384];
        for (float[] t : topics) {
            double n = 0;
            for (int i = 0; i < t.length; i++) {
                t[i] = (float) r.nextGaussian();
                n += t[i] * t[i];
            }
            for (int i = 0; i < t.length; i++) {
                t[i] /= (float) Math.sqrt(n);
            }
        }
        String[] titles = {"Inbox - Mail", "billing.py - Code Editor", "#team - Chat", "Sales Q3.xlsx - Spreadsheet", "Report.odt - Writer", "Keynote - Video Player"};
        List<Observation> out = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            String id = "bench-" + s;
            long epoch = 1_700_000_000_000L;
            out.add(Observation.of(new VideoDoc(id, SourceKind.SCREEN, "bench", null, epoch, epoch, epoch, 0, 1, 1, 0, 0, 1280, 800, VideoDoc.LIVE)));
            int t = 0;
            int app = s % 6;
            while (t < seconds) {
                int len = Math.min(seconds - t, 10 + r.nextInt(30));
                List<KeyframeRef> refs = new ArrayList<>();
                for (int k = t; k < t + len; k++) {
                    refs.add(new KeyframeRef(k, k * 1000L, epoch + k * 1000L, k / 20, 1280, 800, 60_000, k == t ? KeyframeRef.FIRST : KeyframeRef.PERIODIC));
                    out.add(Observation.of(new Perception(id, epoch, k, k * 1000L, k == t ? KeyframeRef.FIRST : KeyframeRef.PERIODIC,
                            List.of(new TextLine(titles[app], 10, 8, 400, 30, 0.98), new TextLine("line " + k + " of " + titles[app], 40, 120, 600, 30, 0.95)),
                            titles[app], topics[app], new float[] {1}, "cpu", 1280, 800, List.of(), epoch + k * 1000L)));
                }
                out.add(Observation.of(new Segment(id, Segment.SHOT, epoch, SourceKind.SCREEN, t, t + len, t * 1000L, (t + len) * 1000L,
                        epoch + t * 1000L, epoch + (t + len) * 1000L, t == 0 ? "start" : "cut", "adaptive", 30, t, 1, t, refs, true)));
                t += len;
                app = (app + 1 + r.nextInt(5)) % 6;
            }
        }
        return out;
    }

    /** Counts what passes and forwards nothing: the reference's stand-in for the memory operators. */
    static final class PassThrough extends KeyedProcessFunction<String, Observation, Observation> {
        @Override
        public void processElement(Observation o, Context ctx, Collector<Observation> out) {
            out.collect(o);
        }
    }

    private static double runJob(List<Observation> obs, boolean memory) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<Observation> in = env.fromData(TypeInformation.of(Observation.class), obs.toArray(new Observation[0]));
        if (memory) {
            in.keyBy(Observation::streamId, Types.STRING).process(new EpisodeBatcher(20_000, 600_000, 5_000, true))
                    .map(b -> {
                        BATCHES.incrementAndGet();
                        return b;
                    }, TypeInformation.of(EpisodeBatch.class))
                    .keyBy(EpisodeBatch::streamId, Types.STRING).process(new EpisodeWriter(600_000))
                    .sinkTo(new DiscardingSink<EpisodeDoc>());
        } else {
            in.keyBy(Observation::streamId, Types.STRING).process(new PassThrough()).keyBy(Observation::streamId, Types.STRING)
                    .process(new PassThrough()).sinkTo(new DiscardingSink<Observation>());
        }
        long t0 = System.nanoTime();
        env.execute(memory ? "memory" : "reference");
        return (System.nanoTime() - t0) / 1e9;
    }

    private static void builder() throws Exception {
        List<Observation> obs = observations(200, 600);
        runJob(obs, true);
        runJob(obs, false);
        BATCHES.set(0);
        double mem = runJob(obs, true);
        long batches = BATCHES.get();
        double ref = runJob(obs, false);
        System.out.println();
        System.out.printf("episode builder: 200 screen streams x 600 s at 1 fps, %d observations (shots + perceptions), %d batches%n", obs.size(), batches);
        System.out.println("| job | observations/s | batches/s | vs pass-through |");
        System.out.println("|---|---:|---:|---:|");
        System.out.printf("| batcher + writer (2 keyed operators) | %.0f | %.0f | %.2fx |%n", obs.size() / mem, batches / mem, ref / mem);
        System.out.printf("| pass-through (2 keyed operators, reference) | %.0f | - | 1.00x |%n", obs.size() / ref);
    }

    // ---- part 2 ----

    private static byte[] screen(String title, String line, int n) throws Exception {
        BufferedImage img = new BufferedImage(960, 600, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        boolean dark = title.contains("Editor");
        g.setColor(dark ? new Color(30, 30, 34) : new Color(250, 250, 250));
        g.fillRect(0, 0, 960, 600);
        g.setColor(dark ? new Color(60, 60, 70) : title.contains("Chat") ? new Color(54, 12, 55) : new Color(40, 90, 200));
        g.fillRect(0, 0, 960, 48);
        Font font = Font.createFont(Font.TRUETYPE_FONT, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
        g.setFont(font.deriveFont(26f));
        g.setColor(Color.WHITE);
        g.drawString(title, 20, 34);
        g.setFont(font.deriveFont(22f));
        g.setColor(dark ? new Color(220, 220, 220) : new Color(30, 30, 30));
        // Typing: one more line every 4 s, the last twelve shown, as a chat or an editor grows.
        for (int i = Math.max(0, n - 11); i <= n; i++) {
            g.drawString(line + " " + i + ": the quick brown fox " + (i * 7 % 13), 40, 100 + (i - Math.max(0, n - 11)) * 40);
        }
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    private static void live(int streams, int seconds) throws Exception {
        TestInfra infra = TestInfra.get();
        String topic = "membench." + System.nanoTime();
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, topic, topic + ".dlq");
        Configuration conf = new Configuration();
        conf.set(IngestOptions.KAFKA_BOOTSTRAP, infra.kafkaBootstrap());
        conf.set(IngestOptions.FRAMES_TOPIC, topic);
        conf.set(IngestOptions.DLQ_TOPIC, topic + ".dlq");
        conf.set(IngestOptions.GROUP_ID, topic);
        conf.set(IngestOptions.ES_URL, infra.elasticsearchUrl());
        conf.set(IngestOptions.CHECKPOINT_INTERVAL, Duration.ofSeconds(10));
        conf.set(IngestOptions.MAX_OUT_OF_ORDERNESS, Duration.ofSeconds(2));
        conf.set(PerceptionOptions.MODELS, ModelDirectory.locate().toString());
        conf.set(DetectOptions.ENABLED, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        IngestJob.build(env, conf);
        JobClient job = env.executeAsync("membench");

        String[] titles = {"Inbox - Mail", "billing.py - Code Editor", "#team - Chat", "Sales Q3.xlsx - Spreadsheet"};
        Random r = new Random(3);
        long epoch = System.currentTimeMillis() / 1000 * 1000;
        Map<String, Long> produced = new ConcurrentHashMap<>();
        Map<String, int[]> plan = new HashMap<>();
        SourceInfo info = new SourceInfo(1, null, null, "jpeg", false, 0, 0, null, null, 960, 600, 1);
        List<Double> eventLatency = new ArrayList<>();
        List<Double> frameLatency = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = KafkaProducers.create(infra.kafkaBootstrap());
                RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            ElasticsearchClient es = EsClients.sync(transport);
            Map<String, Long> eventSeen = new HashMap<>();
            Map<String, Long> frameSeen = new HashMap<>();
            long start = System.currentTimeMillis();
            for (int sec = 0; sec < seconds; sec++) {
                long due = start + sec * 1000L;
                while (System.currentTimeMillis() < due) {
                    poll(es, epoch, produced, eventSeen, frameSeen, eventLatency, frameLatency);
                    Thread.sleep(50);
                }
                for (int s = 0; s < streams; s++) {
                    String id = "live-" + s;
                    int[] p = plan.computeIfAbsent(id, k -> new int[] {r.nextInt(titles.length), 0});
                    if (sec > 0 && r.nextInt(25) == 0) {
                        p[0] = (p[0] + 1 + r.nextInt(titles.length - 1)) % titles.length;
                    }
                    // The screen changes every 4 s (typing), else it repeats and is dropped as a duplicate.
                    byte[] jpeg = screen(titles[p[0]], "entry", sec / 4);
                    long now = System.currentTimeMillis();
                    Frame f = new Frame(sec, sec * 1000L, epoch + sec * 1000L, 960, 600, jpeg);
                    FrameBatch b = new FrameBatch(id, SourceKind.SCREEN, "live", sec, epoch, info, List.of(f));
                    producer.send(new ProducerRecord<>(topic, id.getBytes(), FrameBatchCodec.encode(b)));
                    produced.put(id + "#" + sec, now);
                }
                producer.flush();
            }
            long drainUntil = System.currentTimeMillis() + 60_000;
            while (System.currentTimeMillis() < drainUntil && (eventSeen.size() < streams || frameSeen.size() < streams
                    || eventSeen.values().stream().mapToLong(Long::longValue).min().orElse(0) < (seconds - 30) * 1000L)) {
                poll(es, epoch, produced, eventSeen, frameSeen, eventLatency, frameLatency);
                Thread.sleep(200);
            }
        }
        job.cancel().get();
        System.out.println();
        System.out.printf("live: %d screenshot streams at 1 fps for %d s (960x600, a line typed every 4 s, app switches every ~25 s), "
                + "OCR + memory on this machine; %d frame latencies, %d event latencies%n", streams, seconds, frameLatency.size(), eventLatency.size());
        System.out.println("| from frame production to ... searchable | p50 s | p99 s | vs frame document p50 |");
        System.out.println("|---|---:|---:|---:|");
        double fp50 = pct(frameLatency, 50);
        System.out.printf("| its frame document (vw-frames, reference) | %.1f | %.1f | 1.00x |%n", fp50, pct(frameLatency, 99));
        System.out.printf("| its episodic event (vw-episodes) | %.1f | %.1f | %.2fx |%n", pct(eventLatency, 50), pct(eventLatency, 99),
                pct(eventLatency, 50) / fp50);
    }

    /** Frames newly covered by an indexed frame document or event, per stream, each with its latency. */
    private static void poll(ElasticsearchClient es, long epoch, Map<String, Long> produced, Map<String, Long> eventSeen, Map<String, Long> frameSeen,
            List<Double> eventLatency, List<Double> frameLatency) throws Exception {
        long now = System.currentTimeMillis();
        covered(es, Names.EPISODES_INDEX, "end_pts_ms", epoch, produced, eventSeen, eventLatency, now, 0);
        covered(es, Names.FRAMES_INDEX, "pts_ms", epoch, produced, frameSeen, frameLatency, now, 1);
    }

    private static void covered(ElasticsearchClient es, String index, String field, long epoch, Map<String, Long> produced, Map<String, Long> seen,
            List<Double> latencies, long now, long inclusive) throws Exception {
        if (!es.indices().exists(e -> e.index(index)).value()) {
            return;
        }
        var resp = es.search(s -> s.index(index).size(0).query(q -> q.bool(b -> b.filter(f -> f.prefix(p -> p.field("stream_id").value("live-")))
                .filter(f -> f.term(t -> t.field("epoch_ms").value(epoch)))))
                .aggregations("s", a -> a.terms(t -> t.field("stream_id").size(1000)).aggregations("m", m -> m.max(x -> x.field(field)))), Void.class);
        for (StringTermsBucket bucket : resp.aggregations().get("s").sterms().buckets().array()) {
            String id = bucket.key().stringValue();
            long upTo = (long) bucket.aggregations().get("m").max().value();
            long before = seen.getOrDefault(id, -1000L);
            // Frames [before, upTo) (events end where the next begins) or [before, upTo] (frame documents) are newly searchable.
            for (long pts = before + 1000; pts < upTo + inclusive * 1000; pts += 1000) {
                Long t = produced.get(id + "#" + pts / 1000);
                if (t != null) {
                    latencies.add((now - t) / 1000.0);
                }
            }
            seen.put(id, Math.max(before, upTo - 1000 + inclusive * 1000));
        }
    }

    private static double pct(List<Double> xs, int p) {
        if (xs.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(xs);
        sorted.sort(Double::compare);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
