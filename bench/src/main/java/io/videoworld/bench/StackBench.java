package io.videoworld.bench;

import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.videoworld.connectors.es.EsClients;
import io.videoworld.connectors.kafka.KafkaTopics;
import io.videoworld.media.video.JpegEncoder;
import io.videoworld.connectors.kafka.KafkaProducers;
import io.videoworld.media.video.SampleVideo;
import io.videoworld.media.video.SourceFrame;
import io.videoworld.media.video.VideoFrameSource;
import io.videoworld.core.Frame;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.jobs.DetectOptions;
import io.videoworld.jobs.IngestJob;
import io.videoworld.jobs.IngestOptions;
import io.videoworld.jobs.MemoryOptions;
import io.videoworld.jobs.PerceptionOptions;
import io.videoworld.jobs.ShotOptions;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.testkit.TestInfra;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The whole stack under live load: {@code screens} 1280x800 screen streams at 1 fps (a generated
 * desktop session, each stream at another offset) and {@code cameras} 640x360 25 fps camera streams
 * (the sample video, sent a second's batch at a time as the producer does) pushed into Kafka in real
 * time, through the real ingest job (parallelism 2, local), read back from Elasticsearch as they
 * become searchable. Run twice on the same sources in one run: a pass-through job (frames, shots and
 * keyframes only: no perception, detection or memory) and the full job with its defaults. Prints
 * per-stage frames/s, lag from a frame's capture to its document being searchable (p50/p99),
 * timeouts and failures from the job's metrics, keyframes shed (live keyframes skipped so newer ones are read, their
 * text carried: counted apart, outside the perception lag), checkpointed state by operator and per stream (at
 * half time and at the end: equal when state is bounded) and heap per stream. With {@code --sweep}
 * it then raises screens alone, then cameras alone, until lag is no longer bounded (p99 over 10 s,
 * a timeout, or documents still arriving 120 s after the push). Other arguments {@code key=value} go
 * into the job's configuration of the full run (e.g. {@code vw.detect.motion-gate=true}).
 * Usage: bin/videoworld bench stack [SCREENS (4)] [CAMERAS (1)] [SECONDS (60)] [--sweep] [key=value ...]
 */
public final class StackBench {
    private StackBench() {}

    record Result(String name, int screens, int cameras, long pushed, double pushSeconds, StackProbe probe, long timeouts, long failures,
            long ocrPixels, long ocrSkipped, long detectSkipped, long detectDropped, Map<String, Long> stateMid, Map<String, Long> stateEnd,
            long heapPerStream, boolean drained, String load) {
        boolean bounded() {
            double p99 = Math.max(Math.max(nz(StackProbe.pct(probe.screenPerceptionLag, 99)), nz(StackProbe.pct(probe.cameraPerceptionLag, 99))),
                    nz(StackProbe.pct(probe.detectionLag, 99)));
            return p99 <= 10 && timeouts == 0 && drained;
        }
    }

    private static double nz(double d) {
        return Double.isNaN(d) ? 0 : d;
    }

    public static void main(String[] args) throws Exception {
        BenchRecord.start("stack", args);
        try {
            bench(args);
        } catch (Exception e) {
            // The local cluster's threads would keep the JVM alive after a failed run: fail() exits.
            BenchRecord.fail(e);
        }
        System.exit(0);
    }

    private static void bench(String[] args) throws Exception {
        List<String> plain = new ArrayList<>();
        Map<String, String> extra = new HashMap<>();
        boolean sweep = false;
        for (String a : args) {
            if (a.equals("--sweep")) {
                sweep = true;
            } else if (a.contains("=")) {
                extra.put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
            } else {
                plain.add(a);
            }
        }
        int screens = plain.size() > 0 ? Integer.parseInt(plain.get(0)) : 4;
        int cameras = plain.size() > 1 ? Integer.parseInt(plain.get(1)) : 1;
        int seconds = plain.size() > 2 ? Integer.parseInt(plain.get(2)) : 60;
        StackSources sources = StackSources.prepare(seconds);
        System.out.printf("stack bench: %d cores, %d s per run, sources ready (%d desktop frames, %d camera frames)%n",
                Runtime.getRuntime().availableProcessors(), seconds, sources.screen().size(), sources.camera().size());
        List<Result> results = new ArrayList<>();
        results.add(run("pass-through", screens, cameras, seconds, sources, true, extra));
        results.add(run("full stack", screens, cameras, seconds, sources, false, extra));
        print(results);
        if (sweep) {
            List<Result> ladder = new ArrayList<>();
            int bestScreens = 0;
            for (int n : new int[] {2, 4, 6, 8, 12, 16}) {
                Result r = run("screens only", n, 0, seconds, sources, false, extra);
                ladder.add(r);
                if (!r.bounded()) {
                    break;
                }
                bestScreens = n;
            }
            int bestCameras = 0;
            for (int m : new int[] {1, 2, 3, 4, 6}) {
                Result r = run("cameras only", 0, m, seconds, sources, false, extra);
                ladder.add(r);
                if (!r.bounded()) {
                    break;
                }
                bestCameras = m;
            }
            print(ladder);
            System.out.printf("largest bounded: %d screens alone, %d cameras alone (lag p99 <= 10 s, no timeouts, drained)%n", bestScreens, bestCameras);
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static Result run(String name, int screens, int cameras, int seconds, StackSources sources, boolean passThrough, Map<String, String> extra)
            throws Exception {
        TestInfra infra = TestInfra.get();
        String topic = "stackbench." + System.nanoTime();
        KafkaTopics.ensure(infra.kafkaBootstrap(), 2, topic, topic + ".dlq");
        Path tmp = Files.createTempDirectory("vw-stack");
        Configuration conf = new Configuration();
        conf.set(IngestOptions.KAFKA_BOOTSTRAP, infra.kafkaBootstrap());
        conf.set(IngestOptions.FRAMES_TOPIC, topic);
        conf.set(IngestOptions.DLQ_TOPIC, topic + ".dlq");
        conf.set(IngestOptions.GROUP_ID, topic);
        conf.set(IngestOptions.ES_URL, infra.elasticsearchUrl());
        conf.set(IngestOptions.CHECKPOINT_INTERVAL, Duration.ofSeconds(10));
        conf.set(IngestOptions.CHECKPOINT_DIR, tmp.resolve("checkpoints").toUri().toString());
        conf.set(IngestOptions.MAX_OUT_OF_ORDERNESS, Duration.ofSeconds(2));
        conf.set(ShotOptions.FRAME_STORE, tmp.resolve("frames").toString());
        conf.set(PerceptionOptions.MODELS, ModelDirectory.locate().toString());
        if (passThrough) {
            conf.set(PerceptionOptions.ENABLED, false);
            conf.set(DetectOptions.ENABLED, false);
            conf.set(MemoryOptions.ENABLED, false);
        } else {
            extra.forEach(conf::setString);
        }
        int port = freePort();
        Configuration flink = new Configuration();
        flink.set(RestOptions.PORT, port);
        flink.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        flink.setString("taskmanager.numberOfTaskSlots", "2");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(flink);
        env.setParallelism(2);
        IngestJob.build(env, conf);
        JobClient job = env.executeAsync("stack-bench-" + name);
        FlinkRest rest = new FlinkRest(port, job.getJobID().toHexString());
        long until = System.currentTimeMillis() + 300_000;
        while (!rest.running()) {
            if (System.currentTimeMillis() > until) {
                throw new IllegalStateException("the job did not start in 5 minutes");
            }
            Thread.sleep(500);
        }
        // Gated perception loads its models while its task already runs; as when it loaded them in open(), before the job ran,
        // the live streams start once they have loaded: the lag measured is that of a job up, not of its start-up.
        long readers = conf.get(PerceptionOptions.ENABLED) && conf.get(PerceptionOptions.CHANGE_GATE)
                ? 2L * Math.max(1, conf.get(PerceptionOptions.WORKERS)) : 0;
        while (rest.sum("vwPerceptionReadersLoaded") < readers) {
            if (System.currentTimeMillis() > until) {
                throw new IllegalStateException("perception's models did not load in 5 minutes");
            }
            Thread.sleep(500);
        }
        long heapBefore = heapAfterGc();
        String loadBefore = load();

        long epoch = (System.currentTimeMillis() / 1000 + 2) * 1000;
        // When capture starts, to line up with what runs beside the bench (per-thread CPU, the job's log).
        System.out.printf("%s: capture time 0 is %tT%n", name, epoch);
        String prefix = "sb" + (System.nanoTime() % 100000) + "-";
        Map<String, Long> step = new HashMap<>();
        for (int s = 0; s < screens; s++) {
            step.put(prefix + "scr" + s, 1000L);
        }
        for (int c = 0; c < cameras; c++) {
            step.put(prefix + "cam" + c, 40L);
        }
        SourceInfo screenInfo = new SourceInfo(1, null, null, "jpeg", false, 0, 0, null, null, 1280, 800, 1);
        SourceInfo cameraInfo = new SourceInfo(25, null, null, "h264", false, 0, 0, null, null, 640, 360, 25);
        long pushed = 0;
        Map<String, Long> stateMid = Map.of();
        boolean drained;
        StackProbe probe;
        try (KafkaProducer<byte[], byte[]> producer = KafkaProducers.create(infra.kafkaBootstrap());
                RestClientTransport transport = EsClients.transport(infra.elasticsearchUrl())) {
            probe = new StackProbe(EsClients.sync(transport), epoch, prefix, step);
            for (int sec = 0; sec <= seconds; sec++) {
                long due = epoch + sec * 1000L;
                while (System.currentTimeMillis() < due) {
                    probe.poll();
                    Thread.sleep(Math.max(0, Math.min(200, due - System.currentTimeMillis())));
                }
                for (int s = 0; s < screens && sec < seconds; s++) {
                    byte[] jpeg = sources.screen().get((sec + s * sources.screen().size() / Math.max(1, screens)) % sources.screen().size());
                    Frame f = new Frame(sec, sec * 1000L, epoch + sec * 1000L, 1280, 800, jpeg);
                    send(producer, topic, new FrameBatch(prefix + "scr" + s, SourceKind.SCREEN, "bench:desktop", sec, epoch, screenInfo, List.of(f)));
                    pushed++;
                }
                // A camera's second is sent when it has passed, as one batch: its frames' lag includes up to a second of batching.
                for (int c = 0; c < cameras && sec > 0; c++) {
                    List<Frame> frames = new ArrayList<>(25);
                    for (int j = 0; j < 25; j++) {
                        long index = (sec - 1) * 25L + j;
                        SourceFrame sf = sources.camera().get((int) ((index + c * 250L) % sources.camera().size()));
                        frames.add(new Frame(index, index * 40, epoch + index * 40, sf.width(), sf.height(), sf.jpeg()));
                    }
                    send(producer, topic, new FrameBatch(prefix + "cam" + c, SourceKind.VIDEO, "bench:camera", sec - 1, epoch, cameraInfo, frames));
                    pushed += 25;
                }
                producer.flush();
                if (sec == seconds / 2) {
                    stateMid = rest.checkpointBytes();
                }
            }
            double pushSeconds = (System.currentTimeMillis() - epoch) / 1000.0;
            long quietSince = System.currentTimeMillis();
            long drainEnd = System.currentTimeMillis() + 120_000;
            while (System.currentTimeMillis() - Math.max(quietSince, probe.lastNewMs) < 15_000 && System.currentTimeMillis() < drainEnd) {
                probe.poll();
                Thread.sleep(300);
            }
            drained = System.currentTimeMillis() < drainEnd;
            Map<String, Long> stateEnd = rest.checkpointBytes();
            long heap = heapAfterGc() - heapBefore;
            Result r = new Result(name, screens, cameras, pushed, pushSeconds, probe, passThrough ? 0 : rest.sum("vwPerceptionTimeouts")
                    + rest.sum("vwDetectTimeouts"), passThrough ? 0 : rest.sum("vwPerceptionFailures") + rest.sum("vwDetectFailures"),
                    passThrough ? 0 : rest.sum("vwPerceptionOcrPixels"), passThrough ? 0 : rest.sum("vwPerceptionOcrPixelsSkipped"),
                    passThrough ? 0 : rest.sum("vwDetectSkipped") + rest.sum("vwPerceptionDetectSkipped"),
                    passThrough ? 0 : rest.sum("vwDetectDropped"), stateMid, stateEnd, heap / Math.max(1, screens + cameras), drained,
                    loadBefore + " -> " + load());
            if (!passThrough) {
                // The line memo: text lines whose ink a reader had recognised before are not recognised again.
                long remembered = rest.sum("vwPerceptionOcrLinesRemembered");
                long recognised = rest.sum("vwPerceptionOcrLinesRecognised");
                System.out.printf("%n%s, %d + %d: OCR text lines remembered %d of %d (%.0f%%), recognised %d%n", name, screens, cameras,
                        remembered, remembered + recognised, 100.0 * remembered / Math.max(1, remembered + recognised), recognised);
            }
            job.cancel().get();
            // Whether p99 is a start-up transient or growth: lag by when the frame was captured.
            System.out.printf("%n%s, %d screens + %d cameras, lag over the run by capture time:%n%s", name, screens, cameras, probe.overTime(10));
            return r;
        }
    }

    /** The one-minute load average, as uptime prints it. */
    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "?";
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, FrameBatch b) {
        producer.send(new ProducerRecord<>(topic, b.streamId().getBytes(), FrameBatchCodec.encode(b)));
    }

    private static String lag(List<Double> xs) {
        return xs.isEmpty() ? "-" : String.format("%.1f / %.1f", StackProbe.pct(xs, 50), StackProbe.pct(xs, 99));
    }

    static void print(List<Result> results) {
        System.out.println();
        System.out.println("| run | screens | cameras | pushed frames/s | frame docs/s | keyframes perceived/s | samples detected/s "
                + "| frame doc lag p50/p99 s | screen perception lag p50/p99 s | camera keyframe lag p50/p99 s | detection lag p50/p99 s "
                + "| timeouts | failures | keyframes shed | OCR pixels read | detector calls saved | samples dropped stale | bounded | load |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
        for (Result r : results) {
            StackProbe p = r.probe();
            double secs = r.pushSeconds();
            long pixels = r.ocrPixels() + r.ocrSkipped();
            long keyframes = p.perceived + p.perceptionShed;
            String shed = keyframes == 0 ? "-" : String.format("%d (%.0f%%)", p.perceptionShed, 100.0 * p.perceptionShed / keyframes);
            long tried = p.detected + r.detectDropped();
            String dropped = tried == 0 ? "-" : String.format("%d (%.0f%%)", r.detectDropped(), 100.0 * r.detectDropped() / tried);
            System.out.printf("| %s | %d | %d | %.1f | %.1f | %.2f | %.2f | %s | %s | %s | %s | %d | %d | %s | %s | %d | %s | %s | %s |%n", r.name(), r.screens(),
                    r.cameras(), r.pushed() / secs, p.framesIndexed / secs, p.perceived / secs, p.detected / secs, lag(p.frameLag),
                    lag(p.screenPerceptionLag), lag(p.cameraPerceptionLag), lag(p.detectionLag), r.timeouts(), r.failures() + p.perceptionFailed,
                    shed, pixels == 0 ? "-" : String.format("%.0f%%", 100.0 * r.ocrPixels() / pixels), r.detectSkipped(), dropped, r.bounded() ? "yes" : "no", r.load());
        }
        for (Result r : results) {
            StackProbe p = r.probe();
            if (p.perceptionShed > 0) {
                // Shed keyframes show the text of an older read: how much older is what they lose.
                System.out.printf("%s, %d + %d: %d keyframes shed; their text carried from a read %s s older (p50 / p99), %d with nothing to carry%n",
                        r.name(), r.screens(), r.cameras(), p.perceptionShed, lag(p.shedTextAge), p.shedNothingCarried);
            }
        }
        System.out.println();
        System.out.println("| run | operator (vertex) | checkpointed bytes at half time | at the end | per stream at the end |");
        System.out.println("|---|---|---:|---:|---:|");
        for (Result r : results) {
            int streams = Math.max(1, r.screens() + r.cameras());
            long total = 0;
            for (Map.Entry<String, Long> e : r.stateEnd().entrySet()) {
                total += e.getValue();
                if (e.getValue() > 0) {
                    System.out.printf("| %s | %s | %d | %d | %d |%n", r.name(), e.getKey().length() > 90 ? e.getKey().substring(0, 90) + "..." : e.getKey(),
                            r.stateMid().getOrDefault(e.getKey(), 0L), e.getValue(), e.getValue() / streams);
                }
            }
            long mid = r.stateMid().values().stream().mapToLong(Long::longValue).sum();
            System.out.printf("| %s | all | %d | %d | %d |%n", r.name(), mid, total, total / streams);
            System.out.printf("%s: heap after GC grew by %.1f MB per stream while the streams ran (the whole JVM: job, broker, bench)%n", r.name(),
                    r.heapPerStream() / 1e6);
        }
    }
}
