package io.videoworld.engines.graph;

import io.videoworld.core.ActivityDoc;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.GraphDoc;
import io.videoworld.core.Ids;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.core.TranscriptDoc;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory graph's nodes and edges, derived from one record at a time: an episodic event, a
 * track, a person's activity or a stretch of transcribed speech. Nothing is kept between records:
 * every id follows from the record's own id and the relation, and every write is versioned by the
 * record's own progress, so a replayed or rewritten record rewrites the same documents and a
 * deleted event deletes the edges it gave (its labels only grow, so the deleted version names them all).
 *
 * <p>Levels, after seed 003: {@link GraphDoc#HIGH} for entities and their relations (a tracked
 * object in its stream, an event returning to an earlier one), {@link GraphDoc#LOW} for events with
 * a clip (an app used, a document opened, a site visited, an object in a camera event, what a
 * person does), {@link GraphDoc#UTTERANCE} for what was said.
 */
public final class MemoryGraph {
    /** At most this many evidence frames on an edge from a track: its first, its last and evenly spaced ones between. */
    static final int MAX_FRAMES = 6;
    private static final Pattern FILE = Pattern.compile("(?<![\\p{L}\\p{N}])([\\p{L}\\p{N}_.-]{1,80}\\.[A-Za-z][A-Za-z0-9]{0,5})(?![\\p{L}\\p{N}])");
    private static final Pattern SITE = Pattern.compile("(?:https?://)?((?:[a-z0-9-]+\\.)+(?:com|org|net|io|dev|edu|gov|de|uk|fr))(?:/\\S*)?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern TITLE = Pattern.compile("^Using (.+?)(?:: |\\. Objects: |$)");
    private static final Pattern DASH = Pattern.compile("\\s+[-\u2013\u2014]\\s+[^-\u2013\u2014]+$");

    private MemoryGraph() {}

    /** Node id of a named thing in a stream: kind and a slug of its name. */
    public static String nodeId(String streamId, String kind, String name) {
        String slug = name.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}.]+", "-").replaceAll("^-+|-+$", "");
        return streamId + ":g:" + kind + ":" + (slug.isEmpty() ? "unnamed" : slug.length() > 80 ? slug.substring(0, 80) : slug);
    }

    /**
     * An event's node and edges: on a screen the user uses its app and opens the document or visits
     * the site its window title names; on a camera each object category seen appears in it; and it
     * returns to the events it links. A deleted event deletes them all.
     */
    public static List<GraphDoc> fromEpisode(EpisodeDoc e) {
        List<GraphDoc> out = new ArrayList<>();
        String sid = Ids.checkStreamId(e.streamId());
        String ep = e.id();
        long a = e.startPtsMs();
        long b = e.endPtsMs();
        long p = e.revision();
        boolean screen = "screen_activity".equals(e.eventType());
        String epLabel = "event " + ep;
        out.add(new GraphDoc(ep + ":g", sid, e.epochMs(), GraphDoc.NODE, "episode", GraphDoc.NODE, ep + ":g", epLabel, null, null,
                e.summary(), a, b, List.of(), ep, p, false));
        if (screen) {
            String user = nodeId(sid, "user", "user");
            if (e.app() != null) {
                out.add(edge(ep + ":g:uses", e, "uses", GraphDoc.LOW, user, "user", nodeId(sid, "app", e.app()), e.app(),
                        "user uses " + e.app() + " (" + e.summary() + ")", List.of()));
                out.add(node(nodeId(sid, "app", e.app()), e, "app", e.app(), "application " + e.app()));
            }
            String title = title(e.summary());
            Target t = title == null ? null : target(title, e.app());
            if (t != null) {
                String id = nodeId(sid, t.kind(), t.name());
                out.add(edge(ep + ":g:" + t.relation(), e, t.relation(), GraphDoc.LOW, user, "user", id, t.name(),
                        "user " + t.relation() + " " + t.kind() + " " + t.name() + (e.app() == null ? "" : " in " + e.app()), List.of()));
                out.add(node(id, e, t.kind(), t.name(), t.kind() + " " + t.name()));
            }
        } else {
            for (String label : e.labels()) {
                out.add(edge(ep + ":g:appears_in:" + label, e, "appears_in", GraphDoc.LOW, nodeId(sid, "object", label), label, ep + ":g", epLabel,
                        label + " appears in " + epLabel + " (" + e.summary() + ")", List.of()));
            }
        }
        for (String linked : e.linkedEventIds()) {
            out.add(edge(ep + ":g:returns_to:" + linked, e, "returns_to", GraphDoc.HIGH, ep + ":g", epLabel, linked + ":g", "event " + linked,
                    epLabel + " returns to event " + linked + (e.app() == null ? "" : " in " + e.app()), List.of()));
        }
        if (e.deleted()) {
            // Shared nodes (apps, documents, objects) stay: other events name them too.
            return out.stream().filter(g -> g.clipId() != null).map(GraphDoc::asDeletion).toList();
        }
        return out;
    }

    /** A track's node (a person or an object) and its edge into the stream, with the frames it was seen in. */
    public static List<GraphDoc> fromTrack(TrackDoc t) {
        String sid = Ids.checkStreamId(t.streamId());
        String id = t.id();
        String kind = "person".equals(t.category()) ? "person" : "object";
        String label = t.category() + " (track " + t.trackNumber() + ")";
        long p = Math.min(49_999_999L, t.samples()) * 2 + (t.alive() ? 0 : 1);
        List<String> frames = frames(t);
        String span = String.format(Locale.ROOT, "%.1f-%.1f s", t.first().ptsMs() / 1000.0, t.last().ptsMs() / 1000.0);
        return List.of(
                new GraphDoc(id + ":g", sid, t.epochMs(), GraphDoc.NODE, kind, GraphDoc.NODE, id + ":g", label, null, null,
                        t.category() + " " + t.trackNumber() + ", a " + kind, t.first().ptsMs(), t.last().ptsMs(), frames, id, p, false),
                new GraphDoc(id + ":g:appears_in", sid, t.epochMs(), GraphDoc.EDGE, "appears_in", GraphDoc.HIGH, id + ":g", label,
                        nodeId(sid, "camera", sid), "stream " + sid,
                        "a " + t.category() + " (track " + t.trackNumber() + ") appears in stream " + sid + " at " + span + ", "
                                + t.samples() + " samples",
                        t.first().ptsMs(), t.last().ptsMs(), frames, id, p, false));
    }

    /** What a tracked person does, over the frames the activity rests on. */
    public static List<GraphDoc> fromActivity(ActivityDoc a) {
        String track = Ids.track(Ids.checkStreamId(a.streamId()), a.trackNumber());
        String label = "person (track " + a.trackNumber() + ")";
        List<String> frames = a.frames().stream().limit(MAX_FRAMES).map(f -> Ids.frame(a.streamId(), f)).toList();
        return List.of(new GraphDoc(a.id() + ":g", a.streamId(), a.epochMs(), GraphDoc.EDGE, "does", GraphDoc.LOW, track + ":g", label,
                nodeId(a.streamId(), "activity", a.label()), a.label(), label + " does " + a.label(), a.fromMs(), a.toMs(), frames, a.id(),
                a.samples(), false));
    }

    /** An utterance: its node and the edge from the stream's (unidentified) speaker; a failed recognition gives none. */
    public static List<GraphDoc> fromTranscript(TranscriptDoc t) {
        if (!TranscriptDoc.OK.equals(t.status()) || t.text() == null || t.text().isBlank()) {
            return List.of();
        }
        Ids.checkStreamId(t.streamId());
        String id = t.id();
        String speaker = nodeId(t.streamId(), "speaker", "speaker");
        String text = t.text().strip();
        return List.of(
                new GraphDoc(id + ":g", t.streamId(), t.epochMs(), GraphDoc.NODE, "utterance", GraphDoc.NODE, id + ":g", "utterance", null, null,
                        text, t.startMs(), t.endMs(), List.of(), id, 1, false),
                new GraphDoc(id + ":g:says", t.streamId(), t.epochMs(), GraphDoc.EDGE, "says", GraphDoc.UTTERANCE, speaker, "speaker", id + ":g",
                        "utterance", "speaker says: " + text, t.startMs(), t.endMs(), List.of(), id, 1, false));
    }

    /** The window title an event's summary names ("Using TITLE: ..."), or null. */
    static String title(String summary) {
        if (summary == null) {
            return null;
        }
        Matcher m = TITLE.matcher(summary);
        return m.find() ? m.group(1).strip() : null;
    }

    /** What a title names besides its app: a site (an address), a document (a file name), or null. */
    record Target(String relation, String kind, String name) {}

    static Target target(String title, String app) {
        Matcher site = SITE.matcher(title);
        if (site.find()) {
            return new Target("visits", "site", site.group(1).toLowerCase(Locale.ROOT));
        }
        String rest = DASH.matcher(title).replaceFirst("");
        Matcher file = FILE.matcher(rest);
        if (file.find()) {
            return new Target("opens", "document", file.group(1));
        }
        return null;
    }

    private static GraphDoc edge(String id, EpisodeDoc e, String relation, String level, String source, String sourceLabel, String target,
            String targetLabel, String text, List<String> frames) {
        return new GraphDoc(id, e.streamId(), e.epochMs(), GraphDoc.EDGE, relation, level, source, sourceLabel, target, targetLabel, text,
                e.startPtsMs(), e.endPtsMs(), frames, e.id(), e.revision(), false);
    }

    /** A named node shared by events: no clip, always written the same, so whichever event writes it last changes nothing. */
    private static GraphDoc node(String id, EpisodeDoc e, String kind, String name, String text) {
        return new GraphDoc(id, e.streamId(), e.epochMs(), GraphDoc.NODE, kind, GraphDoc.NODE, id, name, null, null, text, 0, 0, List.of(), null,
                1, false);
    }

    /** A track's first and last frame and evenly spaced ones of its timeline between, at most {@link #MAX_FRAMES}. */
    static List<String> frames(TrackDoc t) {
        Set<Long> picked = new LinkedHashSet<>();
        picked.add(t.first().frameIndex());
        List<TrackPoint> line = t.timeline();
        int inner = MAX_FRAMES - 2;
        for (int i = 1; i <= inner && line.size() > 2; i++) {
            picked.add(line.get(i * (line.size() - 1) / (inner + 1)).frameIndex());
        }
        picked.add(t.last().frameIndex());
        return picked.stream().sorted().map(f -> Ids.frame(t.streamId(), f)).toList();
    }
}
