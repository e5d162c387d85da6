package io.videoworld.query.perception;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.connectors.esread.HybridSearch;
import io.videoworld.connectors.esread.MemoryRepository;
import io.videoworld.connectors.esread.ObjectRepository;
import io.videoworld.connectors.esread.PerceptionRepository;
import io.videoworld.core.Ids;
import io.videoworld.core.Json;
import io.videoworld.core.VideoDoc;
import io.videoworld.core.Cue;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.video.FrameAccess;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What was perceived in a time range of a video, as statements each carrying its evidence: the
 * stored (or on-demand) detections at sampled times with where each object is in the frame, the
 * tracks in the range with their motion, the text read on screen in the analysed keyframes, the
 * scene attributes measured at the middle of the range, the episodic events covering it and the
 * transcript cues inside it. Nothing is inferred beyond what those stores hold; a source that has
 * nothing for the range adds no statement.
 */
public final class VisualFacts {
    /** Detections below this score are not stated. */
    static final double MIN_SCORE = 0.3;
    /** Quoted text (on screen, said) is cut at this many characters. */
    static final int MAX_QUOTE = 160;

    /**
     * One statement and what it rests on.
     *
     * @param kind objects, track, text, scene, event or speech
     * @param statement one sentence, quoting read or heard text between double quotes
     * @param startTime first second the evidence covers
     * @param endTime last second the evidence covers
     * @param frameIds the frames it was read from (empty for events and speech, which rest on their time range)
     * @param sourceId the track, event or transcript the statement comes from, or null for a single frame's reading
     */
    public record Fact(String kind, String statement, double startTime, double endTime, List<String> frameIds, String sourceId) {}

    private final ObjectFinder finder;
    private final ObjectRepository objects;
    private final PerceptionRepository perception;
    private final MemoryRepository memory;
    private final SceneTools scene;
    private final AudioTools audio;

    public VisualFacts(ObjectFinder finder, ObjectRepository objects, PerceptionRepository perception, MemoryRepository memory,
            SceneTools scene, AudioTools audio) {
        this.finder = finder;
        this.objects = objects;
        this.perception = perception;
        this.memory = memory;
        this.scene = scene;
        this.audio = audio;
    }

    /**
     * The facts of [start, end] seconds of {@code v}; objects are read at {@code times} (the frames
     * a description looks at), text from at most {@code maxTexts} keyframes.
     */
    public List<Fact> of(VideoDoc v, double start, double end, List<Double> times, int maxTexts) throws IOException {
        List<Fact> out = new ArrayList<>();
        long fromMs = Math.round(start * 1000);
        long toMs = Math.round(end * 1000);
        objectsAt(v, times, out);
        tracks(v, fromMs, toMs, out);
        texts(v, fromMs, toMs, maxTexts, out);
        scene(v, (start + end) / 2, out);
        events(v, fromMs, toMs, out);
        speech(v, start, end, out);
        return out;
    }

    private void objectsAt(VideoDoc v, List<Double> times, List<Fact> out) throws IOException {
        List<Long> seenFrames = new ArrayList<>();
        for (double t : times) {
            ObjectFinder.Seen seen;
            try {
                seen = finder.objectsAt(v, t, false);
            } catch (ApiException e) {
                // Nothing stored near t and no on-demand detector: this frame adds no statement.
                continue;
            }
            if (seenFrames.contains(seen.frameNumber())) {
                continue;
            }
            seenFrames.add(seen.frameNumber());
            List<String> parts = new ArrayList<>();
            for (ObjectRepository.Found f : seen.found().stream().sorted(Comparator.comparingDouble(ObjectRepository.Found::score).reversed())
                    .toList()) {
                if (f.score() >= MIN_SCORE) {
                    parts.add(article(f.category()) + " " + f.category() + " " + where(f.bbox())
                            + String.format(Locale.ROOT, " (detector score %.2f)", f.score()));
                }
            }
            double at = seen.ptsMs() / 1000.0;
            String said = parts.isEmpty() ? "no object is detected" : String.join(", ", parts) + (parts.size() == 1 ? " is" : " are")
                    + " detected";
            out.add(new Fact("objects", String.format(Locale.ROOT, "At %.1f s %s.", at, said), at, at, List.of(seen.frameId()), null));
        }
    }

    private void tracks(VideoDoc v, long fromMs, long toMs, List<Fact> out) throws IOException {
        for (ObjectRepository.Track tr : objects.tracks(v.streamId(), v.epochMs(), fromMs, toMs)) {
            List<ObjectRepository.Point> pts = tr.timeline().stream().filter(p -> p.ptsMs() >= fromMs && p.ptsMs() <= toMs).toList();
            if (pts.isEmpty()) {
                continue;
            }
            ObjectRepository.Point first = pts.get(0);
            ObjectRepository.Point last = pts.get(pts.size() - 1);
            double a = first.ptsMs() / 1000.0;
            double b = last.ptsMs() / 1000.0;
            String who = capital(article(tr.category())) + " " + tr.category();
            if (pts.size() < 2) {
                out.add(new Fact("track", String.format(Locale.ROOT, "%s is tracked at %.1f s only (in this range), %s.", who, a,
                        where(first.bbox())), a, a, List.of(Ids.frame(v.streamId(), first.frameIndex())), tr.id()));
                continue;
            }
            String motion = TrackMotion.pathSummary(pts) + " (" + TrackMotion.activity(tr.category(), TrackMotion.heightsPerSecond(pts)) + ")";
            out.add(new Fact("track", String.format(Locale.ROOT, "%s is tracked from %.1f s to %.1f s, %s.", who, a, b, motion), a, b,
                    List.of(Ids.frame(v.streamId(), first.frameIndex()), Ids.frame(v.streamId(), last.frameIndex())), tr.id()));
        }
    }

    private void texts(VideoDoc v, long fromMs, long toMs, int max, List<Fact> out) throws IOException {
        // The same text read again (a screen that did not change) is one statement with every frame it was read in.
        Map<String, List<PerceptionRepository.Vectors>> byText = new LinkedHashMap<>();
        for (PerceptionRepository.Vectors k : perception.inRange(v.streamId(), v.epochMs(), fromMs, toMs).stream()
                .sorted(Comparator.comparingLong(PerceptionRepository.Vectors::ptsMs)).toList()) {
            String text = k.text() == null ? "" : k.text().replaceAll("\\s+", " ").strip();
            if (!text.isEmpty()) {
                byText.computeIfAbsent(text, x -> new ArrayList<>()).add(k);
            }
        }
        int n = 0;
        for (Map.Entry<String, List<PerceptionRepository.Vectors>> e : byText.entrySet()) {
            if (n++ >= max) {
                break;
            }
            List<PerceptionRepository.Vectors> ks = e.getValue();
            double a = ks.get(0).ptsMs() / 1000.0;
            double b = ks.get(ks.size() - 1).ptsMs() / 1000.0;
            String when = a == b ? String.format(Locale.ROOT, "at %.1f s", a) : String.format(Locale.ROOT, "from %.1f s to %.1f s", a, b);
            out.add(new Fact("text", "Text read on screen " + when + ": " + quote(e.getKey()) + ".", a, b,
                    ks.stream().limit(5).map(k -> Ids.frame(v.streamId(), k.frameIndex())).toList(), null));
        }
    }

    private void scene(VideoDoc v, double t, List<Fact> out) throws IOException {
        ObjectNode body = Json.MAPPER.createObjectNode().put("video_id", v.streamId()).put("timestamp", t);
        PerceptionResponses.SceneAttributes s;
        try {
            s = scene.getSceneAttributes(Args.of(body));
        } catch (ApiException | IOException e) {
            // The frame cannot be read here (source gone, nothing stored): no scene statement.
            return;
        }
        List<String> parts = new ArrayList<>();
        parts.add(s.location());
        parts.add(s.lighting() + " lighting");
        parts.add(s.colorTemperature() + " colour");
        if (s.cameraAngle() != null && !"no_person_visible".equals(s.cameraAngle())) {
            parts.add(s.cameraAngle().replace('_', ' '));
        }
        if (s.cameraMotion() != null) {
            parts.add("camera " + s.cameraMotion().replace('_', ' '));
        }
        out.add(new Fact("scene", String.format(Locale.ROOT, "At %.1f s the image statistics suggest: %s.", t, String.join(", ", parts)), t, t,
                List.of(FrameAccess.nearestFrameId(v, Math.round(t * 1000))), null));
    }

    private void events(VideoDoc v, long fromMs, long toMs, List<Fact> out) throws IOException {
        List<HybridSearch.Scored> found = new ArrayList<>(memory.searchEpisodes(v.streamId(), v.epochMs(), null, null, fromMs, toMs, 20));
        found.sort(Comparator.comparingLong(s -> s.source().path("start_pts_ms").asLong()));
        for (HybridSearch.Scored s : found) {
            JsonNode e = s.source();
            double a = e.path("start_pts_ms").asLong() / 1000.0;
            double b = e.path("end_pts_ms").asLong() / 1000.0;
            if ((b <= fromMs / 1000.0 || a >= toMs / 1000.0) && fromMs < toMs) {
                // Touches the range only at its edge.
                continue;
            }
            String where = e.path("app").isTextual() ? " (" + e.get("app").asText() + ")" : "";
            out.add(new Fact("event", String.format(Locale.ROOT, "Episodic event from %.1f s to %.1f s%s, summarised as %s.", a, b, where,
                    quote(e.path("summary").asText())), a, b, List.of(), e.path("event_id").asText(s.id())));
        }
    }

    private void speech(VideoDoc v, double start, double end, List<Fact> out) throws IOException {
        List<Cue> cues;
        try {
            cues = audio.cues(v);
        } catch (ApiException | IOException e) {
            // The audio cannot be read here: no speech statement.
            return;
        }
        for (Cue c : cues) {
            if (c.end() >= start && c.start() <= end) {
                out.add(new Fact("speech", String.format(Locale.ROOT, "From %.1f s to %.1f s someone says %s.", c.start(), c.end(),
                        quote(c.text())), c.start(), c.end(), List.of(), "transcript"));
            }
        }
    }

    /** Where a normalised box lies: "on the left, at the top", "in the centre". */
    static String where(double[] bbox) {
        double cx = (bbox[0] + bbox[2]) / 2;
        double cy = (bbox[1] + bbox[3]) / 2;
        String h = cx < 0.33 ? "left" : cx > 0.67 ? "right" : null;
        String vert = cy < 0.33 ? "top" : cy > 0.67 ? "bottom" : null;
        if (h == null && vert == null) {
            return "in the centre of the frame";
        }
        if (h == null) {
            return "at the " + vert + " of the frame";
        }
        return vert == null ? "on the " + h + " of the frame" : "at the " + vert + " " + h + " of the frame";
    }

    /** Text quoted as data: double quotes inside it become single quotes, cut at {@value #MAX_QUOTE} characters. */
    static String quote(String text) {
        String t = text.replace('"', '\'').replaceAll("\\s+", " ").strip();
        return "\"" + (t.length() > MAX_QUOTE ? t.substring(0, MAX_QUOTE) + "…" : t) + "\"";
    }

    private static String article(String noun) {
        return noun.isEmpty() || "aeiou".indexOf(Character.toLowerCase(noun.charAt(0))) < 0 ? "a" : "an";
    }

    private static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
