package io.videoworld.query.memory;

import static io.videoworld.query.api.Decimals.round;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.connectors.esread.HybridSearch;
import io.videoworld.connectors.esread.MemoryRepository;
import io.videoworld.connectors.esread.MomentSearch;
import io.videoworld.connectors.esread.PerceptionRepository;
import io.videoworld.connectors.esread.SegmentRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.clients.llm.ChatMessage;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.core.Ids;
import io.videoworld.core.Json;
import io.videoworld.core.VideoDoc;
import io.videoworld.perception.TextEmbedder;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.api.ContentIds;
import io.videoworld.query.api.TimeRange;
import io.videoworld.query.memory.MemoryResponses.Clip;
import io.videoworld.query.memory.MemoryResponses.EventMetadata;
import io.videoworld.query.memory.MemoryResponses.Memories;
import io.videoworld.query.memory.MemoryResponses.Memory;
import io.videoworld.query.memory.MemoryResponses.MemoryDoc;
import io.videoworld.query.memory.MemoryResponses.Merged;
import io.videoworld.query.memory.MemoryResponses.MergedEvent;
import io.videoworld.query.memory.MemoryResponses.Source;
import io.videoworld.query.memory.MemoryResponses.Written;
import io.videoworld.query.video.Videos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Seed 001 APIs 12-14: {@code write_memory}, {@code read_memory}, {@code merge_events}. Levels:
 * {@code event} reads the job's episodic events (vw-episodes) and event memories written here;
 * {@code frame} reads what keyframes showed (OCR text and labels, vw-perception); events are
 * ranked as {@code /v1/ask} ranks them ({@link MomentSearch}: by the keyframes in them whose text
 * matches, and their own text) and carry the clips where that text was read; the other
 * levels read memories written here (vw-memories; merges write {@code episode} memories). Ranking
 * is hybrid BM25 + embedding, scores in [0, 1]; {@code time_decay} (a half-life in seconds,
 * beyond the seed) weighs memories by how long before the end of the video they lie.
 * Importance: written memories carry their own (metadata.importance, default 0.5); an episodic
 * event's is 0.4 + 0.05 per batch it took + 0.1 when it returns to an earlier event, at most 1.
 */
public final class MemoryTools {
    /** Where read_memory's searches run side by side; daemon threads, so the pool never holds a process open. */
    private static final ExecutorService SEARCHES = Executors.newFixedThreadPool(8, r -> {
        Thread t = new Thread(r, "memory-search");
        t.setDaemon(true);
        return t;
    });
    static final Set<String> LEVELS = Set.of("frame", "segment", "scene", "event", "episode");

    private final VideoRepository videos;
    private final MemoryRepository memory;
    private final PerceptionRepository perception;
    private final MomentSearch moments;
    private final TextEmbedder embedder;
    private final LlmClient llm;

    /** @param embedder embeds memories and queries; null searches text only. @param llm merges events in words; null merges by rule */
    public MemoryTools(VideoRepository videos, MemoryRepository memory, PerceptionRepository perception, SegmentRepository segments,
            TextEmbedder embedder, LlmClient llm) {
        this.videos = videos;
        this.memory = memory;
        this.perception = perception;
        this.moments = new MomentSearch(perception, memory, segments);
        this.embedder = embedder;
        this.llm = llm;
    }

    /** Seed 001 API 12: stores a memory; the same content, level and range get the same id and overwrite it. */
    public Written writeMemory(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        String content = args.requiredString("content");
        String level = args.optionalChoice("level", LEVELS, "event");
        double[] range = args.optionalTimeRange("time_range");
        double end = range[1] == Double.MAX_VALUE ? v.lastPtsMs() / 1000.0 : range[1];
        JsonNode metadata = args.optionalJsonObject("metadata").orElse(Json.MAPPER.createObjectNode());
        double importance = metadata.path("importance").isNumber() ? Math.max(0, Math.min(1, metadata.path("importance").asDouble())) : 0.5;
        String id = ContentIds.of("mem_", v.streamId() + "|" + level + "|" + range[0] + "|" + end + "|" + content, 10);
        save(v, new MemoryDoc(id, v.streamId(), level, args.optionalString("type").orElse("note"), content, range[0], end, importance,
                System.currentTimeMillis(), metadata, embedding(content)));
        return new Written(id, System.currentTimeMillis() / 1000.0, level, true);
    }

    private float[] embedding(String text) {
        return embedder == null ? null : embedder.embed(text);
    }

    private void save(VideoDoc v, MemoryDoc doc) throws IOException {
        memory.save(v.streamId(), doc.memoryId(), Json.MAPPER.valueToTree(doc));
    }

    /** Seed 001 API 13: episodic events, keyframes and written memories that match, best first. */
    public Memories readMemory(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        String query = args.requiredString("query");
        Set<String> all = new java.util.HashSet<>(LEVELS);
        all.add("all");
        String level = args.optionalChoice("level", all, "all");
        int topK = args.optionalInt("top_k", 1, 100).orElse(5);
        double[] range = args.optionalTimeRange("time_range");
        double halfLife = args.optionalNumber("time_decay", 1, 1e9).orElse(0.0);
        float[] vec = embedding(query);
        List<Memory> found = new ArrayList<>();
        long fromMs = Math.round(range[0] * 1000);
        long toMs = range[1] == Double.MAX_VALUE ? Long.MAX_VALUE / 4 : Math.round(range[1] * 1000);
        // The three searches are independent: asked at once, the call waits for the slowest, not the sum.
        List<String> levels = "all".equals(level) ? List.of() : List.of(level);
        CompletableFuture<List<HybridSearch.Scored>> episodes = "all".equals(level) || "event".equals(level)
                ? async(() -> memory.searchEpisodes(v.streamId(), v.epochMs(), query, vec, fromMs, toMs, topK * 2))
                : CompletableFuture.completedFuture(List.of());
        CompletableFuture<List<PerceptionRepository.Match>> keyframes = "all".equals(level) || "frame".equals(level)
                ? async(() -> perception.search(v.streamId(), v.epochMs(), query, vec, topK * 2))
                : CompletableFuture.completedFuture(List.of());
        CompletableFuture<List<MomentSearch.Moment>> clips = "all".equals(level) || "event".equals(level)
                ? async(() -> moments.search(v.streamId(), v.epochMs(), v.lastPtsMs(), query, vec, fromMs, toMs, topK * 2))
                : CompletableFuture.completedFuture(List.of());
        List<HybridSearch.Scored> written = memory.searchMemories(v.streamId(), levels, query, vec, range[0], range[1], topK * 2);
        found.addAll(events(v, join(episodes), join(clips)));
        for (PerceptionRepository.Match m : join(keyframes)) {
            if (m.ptsMs() >= fromMs && m.ptsMs() <= toMs) {
                found.add(new Memory(Ids.frame(v.streamId(), m.frameIndex()), "frame", new TimeRange(m.ptsMs() / 1000.0, m.ptsMs() / 1000.0),
                        m.text().length() > 400 ? m.text().substring(0, 400) + "..." : m.text(), round(m.score(), 4), 0.3,
                        new Source("keyframe perception (OCR and labels)")));
            }
        }
        for (HybridSearch.Scored s : written) {
            JsonNode d = s.source();
            found.add(new Memory(d.path("memory_id").asText(), d.path("level").asText(), new TimeRange(d.path("start_time").asDouble(),
                    d.path("end_time").asDouble()), d.path("content").asText(), round(s.score(), 4), d.path("importance").asDouble(0.5),
                    d.path("metadata")));
        }
        if (halfLife > 0) {
            double latest = v.lastPtsMs() / 1000.0;
            found.replaceAll(m -> m.withRelevance(round(m.relevanceScore() * Math.pow(0.5, Math.max(0, latest - m.timeRange().endTime()) / halfLife), 4)));
        }
        found.sort(Comparator.comparingDouble(Memory::relevanceScore).reversed());
        List<Memory> top = found.subList(0, Math.min(topK, found.size()));
        return new Memories(top, top.size());
    }

    /**
     * Events matched by their own text (hybrid score) or by keyframes in them whose text matched
     * ({@link MomentSearch}, as {@code /v1/ask} ranks them); the latter with their clips, scored
     * the higher of the two.
     */
    private List<Memory> events(VideoDoc v, List<HybridSearch.Scored> byText, List<MomentSearch.Moment> clips) throws IOException {
        Map<String, List<MomentSearch.Moment>> byEvent = new LinkedHashMap<>();
        for (MomentSearch.Moment m : clips) {
            if (m.episodeId() != null) {
                byEvent.computeIfAbsent(m.episodeId(), k -> new ArrayList<>()).add(m);
            }
        }
        Map<String, JsonNode> docs = new LinkedHashMap<>();
        Map<String, Double> scores = new LinkedHashMap<>();
        for (HybridSearch.Scored s : byText) {
            String id = s.source().path("event_id").asText();
            docs.put(id, s.source());
            scores.put(id, s.score());
        }
        List<Memory> out = new ArrayList<>();
        for (Map.Entry<String, List<MomentSearch.Moment>> e : byEvent.entrySet()) {
            JsonNode d = docs.containsKey(e.getKey()) ? docs.get(e.getKey()) : memory.episode(e.getKey()).orElse(null);
            if (d == null) {
                continue;
            }
            List<Clip> cs = e.getValue().stream().map(m -> new Clip(new TimeRange(m.startMs() / 1000.0, m.endMs() / 1000.0),
                    m.matchedPtsMs().stream().map(t -> t / 1000.0).toList(), m.frameIndexes().stream().map(f -> Ids.frame(v.streamId(), f)).toList(),
                    m.text())).toList();
            Memory ev = episode(d, Math.max(e.getValue().get(0).score(), scores.getOrDefault(e.getKey(), 0.0)));
            out.add(new Memory(ev.memoryId(), ev.level(), ev.timeRange(), ev.content(), ev.relevanceScore(), ev.importance(), ev.metadata(), cs));
            scores.remove(e.getKey());
        }
        scores.forEach((id, score) -> out.add(episode(docs.get(id), score)));
        return out;
    }

    /** A read on the shared pool of the memory tools' concurrent searches. */
    private interface Read<T> {
        T get() throws IOException;
    }

    private static <T> CompletableFuture<T> async(Read<T> read) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return read.get();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, SEARCHES);
    }

    private static <T> T join(CompletableFuture<T> f) throws IOException {
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }

    /** An episodic event as a memory; its importance grows with the batches it took and when it returns to an earlier event. */
    static Memory episode(JsonNode d, double score) {
        int batches = d.path("batches").asInt(1);
        boolean returns = d.path("linked_event_ids").size() > 0;
        return new Memory(d.path("event_id").asText(), "event", new TimeRange(d.path("start_pts_ms").asLong() / 1000.0,
                d.path("end_pts_ms").asLong() / 1000.0), d.path("summary").asText(), round(score, 4),
                round(Math.min(1, 0.4 + 0.05 * batches + (returns ? 0.1 : 0)), 2), new EventMetadata("episodic_memory",
                        d.path("occurred_at").asLong(), d.path("app").asText(null), d.path("labels"), d.path("linked_event_ids"), batches,
                        d.path("details").asText()));
    }

    /** Seed 001 API 14: one episode memory from several events or memories, by a model when configured, else by rule. */
    public Merged mergeEvents(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        List<String> ids = args.stringList("event_ids");
        String strategy = args.optionalChoice("merge_strategy", Set.of("chronological", "causal", "spatial"), "chronological");
        record Part(String id, double start, double end, String content, String place) {}
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            String field = "event_ids[" + i + "]";
            JsonNode d = memory.episode(id).orElse(null);
            if (d != null) {
                if (!v.streamId().equals(d.path("stream_id").asText())) {
                    throw ApiException.badField(field, "'" + id + "' belongs to another video");
                }
                parts.add(new Part(id, d.path("start_pts_ms").asLong() / 1000.0, d.path("end_pts_ms").asLong() / 1000.0, d.path("summary").asText(),
                        d.path("app").asText(d.path("labels").path(0).asText("scene"))));
                continue;
            }
            JsonNode m = memory.memory(v.streamId(), id).orElseThrow(() -> ApiException.notFound(field, "no event or memory '" + id + "' for this video"));
            parts.add(new Part(id, m.path("start_time").asDouble(), m.path("end_time").asDouble(), m.path("content").asText(), m.path("level").asText()));
        }
        parts.sort((a, b) -> Double.compare(a.start(), b.start()));
        boolean overlapping = false;
        for (int i = 1; i < parts.size(); i++) {
            overlapping |= parts.get(i).start() < parts.get(i - 1).end();
        }
        String content = null;
        List<JsonNode> chain = new ArrayList<>();
        String method = "structured";
        if (llm != null) {
            StringBuilder prompt = new StringBuilder("Merge these events of one video into a coherent " + strategy
                    + " summary of 2-3 sentences. Answer as JSON {\"summary\": str, \"causal_chain\": [{\"event\": str, \"enables\": str}]} "
                    + "and put in causal_chain only links the events themselves support.\n");
            parts.forEach(p -> prompt.append("- ").append(p.id()).append(" [").append(p.start()).append("-").append(p.end()).append(" s] ")
                    .append(p.content()).append('\n'));
            try {
                ChatMessage reply = llm.chat(List.of(ChatMessage.user(prompt.toString())), List.of(), true);
                JsonNode json = Json.MAPPER.readTree(reply.content());
                if (json.path("summary").isTextual() && !json.path("summary").asText().isBlank()) {
                    content = json.path("summary").asText();
                    json.path("causal_chain").forEach(chain::add);
                    method = "llm";
                }
            } catch (Exception e) {
                method = "structured (the model's answer was unusable: " + e.getClass().getSimpleName() + ")";
            }
        }
        if (content == null) {
            content = structured(parts.stream().map(p -> new String[] {clock(p.start()), clock(p.end()), p.content(), p.place()}).toList(), strategy);
        }
        double start = parts.stream().mapToDouble(Part::start).min().orElse(0);
        double end = parts.stream().mapToDouble(Part::end).max().orElse(0);
        List<String> sources = parts.stream().map(Part::id).toList();
        String id = ContentIds.of("mem_", v.streamId() + "|merge|" + strategy + "|" + String.join(",", sources), 10);
        save(v, new MemoryDoc(id, v.streamId(), "episode", "merged_" + strategy, content, start, end, 0.8, System.currentTimeMillis(),
                Json.MAPPER.valueToTree(Map.of("source_events", sources)), embedding(content)));
        return new Merged(new MergedEvent(id, "episode", new TimeRange(start, end), content, sources, overlapping ? "overlapping" : "sequential",
                chain, method, chain.isEmpty() && "causal".equals(strategy)
                        ? "causal links need a language model (none is configured, or it gave none); events are listed in order" : null));
    }

    /** The merged text without a model: in time order, or grouped by place (app or scene) for "spatial". */
    static String structured(List<String[]> parts, String strategy) {
        StringBuilder sb = new StringBuilder();
        if ("spatial".equals(strategy)) {
            Map<String, List<String[]>> byPlace = new LinkedHashMap<>();
            parts.forEach(p -> byPlace.computeIfAbsent(p[3], k -> new ArrayList<>()).add(p));
            byPlace.forEach((place, ps) -> {
                sb.append(sb.length() == 0 ? "" : " ").append("In ").append(place).append(": ");
                for (int i = 0; i < ps.size(); i++) {
                    sb.append(i == 0 ? "" : "; ").append(ps.get(i)[2]).append(" (").append(ps.get(i)[0]).append("-").append(ps.get(i)[1]).append(")");
                }
                sb.append('.');
            });
            return sb.toString();
        }
        for (int i = 0; i < parts.size(); i++) {
            String[] p = parts.get(i);
            sb.append(i == 0 ? "From " : " Then, from ").append(p[0]).append(" to ").append(p[1]).append(": ").append(p[2]).append('.');
        }
        return sb.toString();
    }

    static String clock(double s) {
        long t = Math.round(s);
        return String.format("%d:%02d", t / 60, t % 60);
    }
}
