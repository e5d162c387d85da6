package io.videoworld.query.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmException;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Caller;
import io.videoworld.query.retrieval.Evidence;
import io.videoworld.query.retrieval.EvidenceSearch;
import io.videoworld.query.retrieval.GraphSearch;
import io.videoworld.query.retrieval.QueryPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code POST /v1/ask}. The memory graph is searched first ({@link GraphSearch}: high-level edges,
 * low-level edges and utterances in the plan's allocation), the clips its edges point at first.
 * Without a model: evidence mode, the ranked clips that match, and a sentence saying no LLM is configured. With one: the Reasoner (seed 003: parse the question,
 * search memory, [Answer] or [Search] with at most five clips, watch them one by one carrying
 * summaries forward, every clip for counting questions), then the Solver (seed 002: one stateful
 * conversation that thinks, then acts in JSON, retrieving more frames, calling tools or
 * answering, at most {@code max_steps} turns) whose every answer a fresh, stateless Checker
 * scores 1-5 against re-sampled frames; below 4 its feedback goes back to the Solver.
 */
public final class AskService {
    /** Clips a model is shown to choose from when max_clips asks for fewer. */
    static final int CANDIDATES = 10;
    private final LlmClient llm;
    private final EvidenceSearch search;
    private final VideoRepository videos;
    private final ClipFrames clipFrames;
    private final ToolDispatcher tools;
    private final GraphSearch graph;

    /** Frames of a clip at given times, as JPEGs (decoded or nearest keyframe). */
    public interface ClipFrames {
        List<FrameCaptioner.Shot> at(VideoDoc video, List<Double> times) throws IOException;

        /**
         * {@link #at}, or no pictures when they cannot be read (the source is gone and nothing is
         * stored, a file with sound only), the reason added to {@code reasons}: the agent then goes on
         * from what the memory holds, and its trace says what was missing.
         */
        default List<FrameCaptioner.Shot> readable(VideoDoc video, List<Double> times, List<String> reasons) throws IOException {
            try {
                return at(video, times);
            } catch (ApiException | IOException e) {
                reasons.add(e.getMessage());
                return List.of();
            }
        }
    }

    public AskService(LlmClient llm, EvidenceSearch search, VideoRepository videos, ClipFrames clipFrames, ToolDispatcher tools) {
        this(llm, search, null, videos, clipFrames, tools);
    }

    /** @param graph the memory graph's search (seed 003 step 1), searched before the clips; null for none */
    public AskService(LlmClient llm, EvidenceSearch search, GraphSearch graph, VideoRepository videos, ClipFrames clipFrames, ToolDispatcher tools) {
        this.graph = graph;
        this.llm = llm;
        this.search = search;
        this.videos = videos;
        this.clipFrames = clipFrames;
        this.tools = tools;
    }

    /** Checks a body without running it (for streamed answers, which cannot turn into a 400 later). */
    public static void validate(JsonNode body) {
        AskRequest.parse(body);
    }

    /**
     * What {@code /v1/ask} answers. Evidence mode has {@code message} and no answer; with a model,
     * {@code explanation} and {@code confidence} (the checker's score / 5) come with an accepted or
     * best-scored answer, and {@code llm_usage} with every model run.
     */
    public record AskAnswer(String question, String mode, String answer, String message, String explanation, Double confidence, String status,
            List<Evidence> evidence, List<Map<String, Object>> trace, Map<String, Long> llmUsage) {}

    /** How the agent's run ended. */
    private record Outcome(String answer, String explanation, Double confidence, String status, List<Evidence> evidence) {}

    /** Runs one question; {@code events} sees every trace step as it happens (for server-sent events). */
    public AskAnswer ask(Caller caller, JsonNode body, Consumer<Map<String, Object>> events) throws IOException {
        AskRequest req = AskRequest.parse(body);
        // Rights first, for every stream, so a refusal never depends on (or reveals) which streams exist.
        for (int i = 0; i < req.streams().size(); i++) {
            ToolDispatcher.requireRead(caller, req.streams().get(i), "stream_ids[" + i + "]");
        }
        for (int i = 0; i < req.streams().size(); i++) {
            if (videos.find(req.streams().get(i)).isEmpty()) {
                throw ApiException.notFound("stream_ids[" + i + "]", "no video with id '" + req.streams().get(i) + "' has been ingested");
            }
        }
        Trace trace = new Trace(events);
        // Seed 003 step 1: the plan (the model's parse, or in evidence mode the question's own words) drives the search.
        Reasoner.Plan plan = llm == null ? new Reasoner.Plan(QueryPlan.fromQuestion(req.question()), req.counting(),
                GraphSearch.Allocation.forQuestion(req.question()))
                : new Reasoner(llm, trace, clipFrames, new FrameCaptioner(llm), videos).parse(req);
        if (llm == null) {
            Map<String, Object> parsed = new java.util.LinkedHashMap<>();
            parsed.put("plan", plan.query().describe());
            parsed.put("allocation", plan.allocation().describe());
            trace.add("parse", parsed);
        }
        double from = req.from();
        double to = req.to();
        double a = Math.max(from, plan.query().from());
        double b = Math.min(to, plan.query().to());
        if (a < b) {
            from = a;
            to = b;
        } else {
            trace.add("constraint", Map.of("ignored", "the question's time (" + plan.query().from() + "-"
                    + (plan.query().to() == Double.MAX_VALUE ? "end" : plan.query().to()) + " s) lies outside the asked time_range; the time_range is searched"));
        }
        // Evidence mode cites at most max_clips; a model is shown a few more candidates to choose from, and cites at most max_clips.
        int wanted = llm == null ? req.maxClips() : Math.max(req.maxClips(), CANDIDATES);
        // Seed 003 step 1: the graph's edges in their allocation; the clips they point at come first, the text search fills the rest.
        GraphSearch.Found found = graph == null ? GraphSearch.Found.NONE
                : graph.search(req.streams(), from, to, plan.query(), req.question(), plan.allocation());
        List<Evidence> evidence = new ArrayList<>(graph == null ? List.of() : graph.clips(found, plan.query(), 1, wanted));
        if (graph != null) {
            Map<String, Object> g = new java.util.LinkedHashMap<>();
            g.put("allocation", plan.allocation().describe());
            g.put("high_level", found.high().size());
            g.put("low_level", found.low().size());
            g.put("conversations", found.utterances().size());
            g.put("clips", evidence.size());
            trace.add("graph_search", g);
        }
        List<Evidence> fromGraph = List.copyOf(evidence);
        for (Evidence e : search.moments(req.streams(), from, to, req.question(), wanted, plan.query())) {
            if (evidence.size() >= wanted) {
                break;
            }
            if (fromGraph.stream().anyMatch(c -> c.streamId().equals(e.streamId()) && c.startTime() < e.endTime() && c.endTime() > e.startTime())) {
                continue;
            }
            int n = evidence.size() + 1;
            evidence.add(n == e.clip() ? e : new Evidence(n, e.streamId(), e.segmentId(), e.sceneId(), e.startTime(), e.endTime(), e.frameIds(),
                    e.thumbnails(), e.episodeIds(), e.score(), e.matchedText(), e.matchedTimes(),
                    e.text().replaceFirst("^\\[clip \\d+\\]", "[clip " + n + "]")));
        }
        Map<String, Object> searched = new java.util.LinkedHashMap<>();
        searched.put("clips", evidence.size());
        searched.put("streams", req.streams());
        searched.put("text", plan.query().searchText(req.question()));
        searched.put("time_range", List.of(from, to == Double.MAX_VALUE ? "end" : to));
        trace.add("search", searched);
        if (llm == null) {
            return new AskAnswer(req.question(), "evidence", null, "No LLM is configured, so no answer is composed: these are at most "
                    + "max_clips clips of the named streams in the time range: first those the memory graph's matching edges point at "
                    + "(segment_id edge:<id>, at most ten seconds from the edge's start), then clips at most ten seconds around the keyframes where the "
                    + "question's text was read, in the episodic events ranked by those keyframes and their own text (episode_ids), best "
                    + "first; a stream where no text matched gives its shots in time order. Configure an OpenAI-compatible endpoint "
                    + "(--llm-url, --llm-model) for answers.", null, null, null, evidence, trace.steps(), null);
        }
        if (evidence.isEmpty()) {
            // Nothing is indexed where the question points: a model given nothing could only invent.
            return new AskAnswer(req.question(), "llm", null, "Nothing is indexed in the named streams and time range, so no answer is "
                    + "composed.", null, null, "no evidence", List.of(), trace.steps(), llm.usage().snapshot());
        }
        Outcome o = new Agent(caller, req, evidence, trace, plan.counting(), found).run();
        return new AskAnswer(req.question(), "llm", o.answer(), null, o.explanation(), o.confidence(), o.status(), o.evidence(), trace.steps(),
                llm.usage().snapshot());
    }

    /** One ask's run of the Reasoner and the Solver/Checker loop. */
    private final class Agent {
        private final Caller caller;
        private final AskRequest req;
        private final List<Evidence> evidence;
        private final Trace trace;
        private final FrameCaptioner captioner = new FrameCaptioner(llm);
        private final List<Double> seenTimes = new ArrayList<>();
        private final boolean counting;
        private final GraphSearch.Found found;
        /** Why pictures asked for could not be read, until the step that asked reports it. */
        private final List<String> unreadable = new ArrayList<>();

        Agent(Caller caller, AskRequest req, List<Evidence> evidence, Trace trace, boolean counting, GraphSearch.Found found) {
            this.found = found;
            this.caller = caller;
            this.req = req;
            this.evidence = evidence;
            this.trace = trace;
            this.counting = counting;
        }

        Outcome run() throws IOException {
            String memory = memoryText();
            Reasoner reasoner = new Reasoner(llm, trace, clipFrames, captioner, videos);
            Reasoner.Outcome reasoned = reasoner.run(req, evidence, memory, counting);
            Solver solver = new Solver(llm, tools, caller, trace);
            solver.start(req.question(), memory, reasoned);
            Solver.Answer best = null;
            String status = "step limit reached; the best-scored answer is returned";
            for (int step = 1; step <= req.maxSteps(); step++) {
                Solver.Turn turn;
                try {
                    turn = solver.turn(step);
                } catch (LlmException e) {
                    trace.add("solver_error", Map.of("turn", step, "error", e.getMessage()));
                    status = "the model failed: " + e.getMessage();
                    break;
                }
                if (turn instanceof Solver.Retrieve r) {
                    solver.tell(retrieve(r.count(), r.focus()));
                } else if (turn instanceof Solver.Answer a) {
                    Checker.Verdict v = new Checker(llm, trace).judge(req.question(), a, cited(a));
                    Solver.Answer scored = a.withScore(v.score());
                    if (best == null || scored.score() > best.score()) {
                        best = scored;
                    }
                    if (v.score() >= 4) {
                        return finish(scored, "accepted by the checker");
                    }
                    solver.tell("System Feedback: Confidence Score: " + v.score() + "/5. Reason: " + v.feedback()
                            + ". Please try again.");
                }
            }
            if (best != null) {
                return finish(best, status);
            }
            return new Outcome(reasoned.answer(), null, null,
                    status.startsWith("step limit") ? "step limit reached without an answer from the solver" : status,
                    evidence.stream().limit(req.maxClips()).toList());
        }

        /** The answer, with the clips it cites as evidence (the best ones when it cites none), at most max_clips. */
        private Outcome finish(Solver.Answer a, String status) {
            List<Evidence> citedClips = evidence.stream()
                    .filter(e -> a.explanation().contains("[clip " + e.clip() + "]") || a.finalAnswer().contains("[clip " + e.clip() + "]")
                            || e.frameIds().stream().anyMatch(id -> a.explanation().contains(id)))
                    .limit(req.maxClips()).toList();
            return new Outcome(a.finalAnswer(), a.explanation(), a.score() / 5.0, status,
                    citedClips.isEmpty() ? evidence.stream().limit(req.maxClips()).toList() : citedClips);
        }

        private String memoryText() {
            if (evidence.isEmpty()) {
                return "(no indexed clips in the named streams and time range)";
            }
            StringBuilder sb = new StringBuilder();
            if (!found.isEmpty()) {
                sb.append("Memory graph:\n").append(found.text(evidence)).append("\nClips:\n");
            }
            evidence.forEach(e -> sb.append(e.text()).append('\n'));
            return sb.toString();
        }

        /** More frames from the clips, at times not seen yet, described. */
        private String retrieve(int count, String focus) throws IOException {
            List<FrameCaptioner.Shot> frames = new ArrayList<>();
            for (int round = 1; frames.size() < count && round <= 4 && !evidence.isEmpty(); round++) {
                for (Evidence e : evidence) {
                    if (frames.size() >= count) {
                        break;
                    }
                    double t = e.startTime() + (e.endTime() - e.startTime()) * round / 5.0;
                    if (seenTimes.stream().anyMatch(s -> Math.abs(s - t) < 0.05)) {
                        continue;
                    }
                    seenTimes.add(t);
                    VideoDoc v = videos.find(e.streamId()).orElse(null);
                    if (v != null) {
                        frames.addAll(clipFrames.readable(v, List.of(t), unreadable));
                    }
                }
            }
            List<String> captions = captioner.captions(frames);
            Map<String, Object> step = new java.util.LinkedHashMap<>();
            step.put("count", count);
            step.put("focus", focus == null ? "" : focus);
            step.put("frames", frames.stream().map(FrameCaptioner.Shot::frameId).toList());
            if (!unreadable.isEmpty()) {
                step.put("frames_error", unreadable.get(0));
                unreadable.clear();
            }
            trace.add("retrieve_more_frames", step);
            return "System Notification: Retrieved " + frames.size() + " new frames" + (focus == null ? "" : " (focus: " + focus + ")")
                    + ": " + String.join("; ", captions);
        }

        /** The frames the answer cites, re-sampled and described for the Checker. */
        private List<String> cited(Solver.Answer a) throws IOException {
            String text = a.finalAnswer() + " " + a.explanation();
            List<FrameCaptioner.Shot> frames = new ArrayList<>();
            for (Evidence e : evidence) {
                boolean clipCited = text.contains("[clip " + e.clip() + "]");
                VideoDoc v = null;
                for (int i = 0; i < e.frameIds().size() && frames.size() < 6; i++) {
                    if (clipCited || text.contains(e.frameIds().get(i))) {
                        v = v != null ? v : videos.find(e.streamId()).orElse(null);
                        if (v != null) {
                            String id = e.frameIds().get(i);
                            double fps = v.source().sampleFps() > 0 ? v.source().sampleFps() : v.source().fps();
                            double t = Long.parseLong(id.substring(id.lastIndexOf(':') + 1)) / fps;
                            frames.addAll(clipFrames.readable(v, List.of(t), unreadable));
                        }
                    }
                }
            }
            List<String> lines = new ArrayList<>(captioner.captions(frames));
            if (!unreadable.isEmpty()) {
                lines.add("(the cited pictures could not be read: " + unreadable.get(0) + ")");
                unreadable.clear();
            }
            if (lines.isEmpty()) {
                lines.add("(the answer cites no clip or frame)");
            }
            return lines;
        }
    }
}
