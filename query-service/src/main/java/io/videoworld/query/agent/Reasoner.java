package io.videoworld.query.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.clients.llm.ChatMessage;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmException;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.retrieval.Evidence;
import io.videoworld.query.retrieval.GraphSearch;
import io.videoworld.query.retrieval.QueryPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seed 003: parse the question into a plan, judge whether memory answers it ([Answer]) or which
 * clips to watch ([Search], at most {@code max_clips}), then watch them one by one, carrying each
 * clip's summary to the next; a counting question watches every chosen clip. A failure of the
 * model ends this stage with what it has; the Solver still runs.
 */
final class Reasoner {
    /** What the Reasoner found: an answer if it reached one, and the clip summaries. */
    record Outcome(String answer, List<String> summaries) {}

    private static final Pattern ACTION = Pattern.compile("Action:\\s*\\[(Answer|Search)\\]", Pattern.CASE_INSENSITIVE);
    private static final Pattern CONTENT = Pattern.compile("Content:\\s*(.*?)(?:\\n\\s*Summary:|$)", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);

    private final LlmClient llm;
    private final Trace trace;
    private final AskService.ClipFrames frames;
    private final FrameCaptioner captioner;
    private final VideoRepository videos;

    Reasoner(LlmClient llm, Trace trace, AskService.ClipFrames frames, FrameCaptioner captioner, VideoRepository videos) {
        this.llm = llm;
        this.trace = trace;
        this.frames = frames;
        this.captioner = captioner;
        this.videos = videos;
    }

    /** The search plan, whether the question counts (then every chosen clip is watched), and the graph search's allocation. */
    record Plan(QueryPlan query, boolean counting, GraphSearch.Allocation allocation) {}

    /**
     * Seed 003 step 1: the model parses the question into triples and constraints. A reply that is
     * not a JSON object, or a failed model, leaves the plan read from the question's own words.
     */
    Plan parse(AskRequest req) throws IOException {
        JsonNode parsed = null;
        try {
            ChatMessage plan = llm.chat(List.of(ChatMessage.system(Prompts.PARSE), ChatMessage.user(req.question())), List.of(), true);
            parsed = JsonBlocks.lastObject(plan.content()).orElse(null);
        } catch (LlmException e) {
            trace.add("reasoner_error", Map.of("error", e.getMessage()));
        }
        QueryPlan query = parsed == null ? QueryPlan.fromQuestion(req.question()) : QueryPlan.fromParse(parsed);
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("plan", parsed == null ? "(not valid JSON; the plan is read from the question's words)" : parsed);
        step.put("search_plan", query.describe());
        GraphSearch.Allocation allocation = GraphSearch.Allocation.fromParse(parsed, req.question());
        step.put("allocation", allocation.describe());
        trace.add("parse", step);
        boolean counting = req.counting() || (parsed != null && "counting".equals(parsed.path("question_type").asText()));
        return new Plan(query, counting, allocation);
    }

    Outcome run(AskRequest req, List<Evidence> evidence, String memory, boolean counting) throws IOException {
        List<String> summaries = new ArrayList<>();
        try {
            ChatMessage eval = llm.chat(List.of(ChatMessage.system(Prompts.EVALUATE),
                    ChatMessage.user("Question: " + req.question() + "\n\nMemory:\n" + memory)), List.of(), false);
            String action = match(ACTION, eval.content()).orElse("Search");
            String content = match(CONTENT, eval.content()).orElse("").trim();
            trace.add("evaluate", Map.of("action", "[" + action + "]", "content", content));
            if (action.equalsIgnoreCase("Answer") && !content.isEmpty()) {
                return new Outcome(content, summaries);
            }
            List<Evidence> clips = chosen(content, evidence, req.maxClips());
            String answer = null;
            for (int i = 0; i < clips.size(); i++) {
                Evidence clip = clips.get(i);
                boolean last = i == clips.size() - 1;
                String reply = watch(req, clip, memory, summaries, last, counting);
                if (last) {
                    answer = reply.trim();
                    break;
                }
                String clipAction = match(ACTION, reply).orElse("Search");
                String clipContent = match(CONTENT, reply).orElse(reply).trim();
                if (clipAction.equalsIgnoreCase("Answer") && !counting) {
                    answer = clipContent;
                    break;
                }
                summaries.add("Clip " + clip.clip() + ": " + clipContent);
            }
            return new Outcome(answer, summaries);
        } catch (LlmException e) {
            trace.add("reasoner_error", Map.of("error", e.getMessage()));
            return new Outcome(null, summaries);
        }
    }

    private String watch(AskRequest req, Evidence clip, String memory, List<String> summaries, boolean last, boolean counting)
            throws IOException, LlmException {
        VideoDoc v = videos.find(clip.streamId()).orElse(null);
        List<FrameCaptioner.Shot> shots = new ArrayList<>();
        String noFrames = null;
        if (v != null) {
            List<Double> times = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                times.add(clip.startTime() + (clip.endTime() - clip.startTime()) * (k + 0.5) / 4);
            }
            List<String> reasons = new ArrayList<>();
            shots.addAll(frames.readable(v, times, reasons));
            noFrames = reasons.isEmpty() ? null : reasons.get(0);
        }
        String prompt = "Question: " + req.question() + "\n\nMemory:\n" + memory + "\nThis clip: " + clip.text()
                + "\n\nSummaries of clips already watched:\n" + (summaries.isEmpty() ? "(none)" : String.join("\n", summaries));
        ChatMessage user = llm.config().vision()
                ? ChatMessage.userWithImages(prompt, shots.stream().map(FrameCaptioner.Shot::jpeg).toList())
                : ChatMessage.user(prompt + "\n\nFrames:\n" + String.join("\n", captioner.captions(shots)));
        String system = last ? Prompts.WATCH_FINAL : counting ? Prompts.WATCH_COUNTING : Prompts.WATCH;
        ChatMessage reply = llm.chat(List.of(ChatMessage.system(system), user), List.of(), false);
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("clip", clip.clip());
        step.put("segment_id", clip.segmentId());
        step.put("frames", shots.stream().map(FrameCaptioner.Shot::frameId).toList());
        if (noFrames != null) {
            step.put("frames_error", noFrames);
        }
        step.put("reply", reply.content());
        trace.add("watch", step);
        return reply.content();
    }

    /** The clip numbers the evaluation named, in its order, known and at most {@code max}. */
    private static List<Evidence> chosen(String content, List<Evidence> evidence, int max) {
        List<Evidence> out = new ArrayList<>();
        Matcher m = Pattern.compile("\\d+").matcher(content);
        while (m.find() && out.size() < max) {
            int n = Integer.parseInt(m.group());
            evidence.stream().filter(e -> e.clip() == n && !out.contains(e)).findFirst().ifPresent(out::add);
        }
        if (out.isEmpty()) {
            evidence.stream().limit(max).forEach(out::add);
        }
        return out;
    }

    private static java.util.Optional<String> match(Pattern p, String text) {
        Matcher m = p.matcher(text == null ? "" : text);
        return m.find() ? java.util.Optional.of(m.group(1)) : java.util.Optional.empty();
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
