package io.videoworld.bench;

import io.videoworld.connectors.es.EsDocuments;
import io.videoworld.connectors.es.EsWrite;
import io.videoworld.core.DetectedFrame;
import io.videoworld.core.Detection;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Keyframe;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Perception;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import io.videoworld.core.TextLine;
import io.videoworld.core.VideoDoc;
import io.videoworld.engines.tracking.ByteTracker;
import io.videoworld.engines.tracking.LiveTrack;
import io.videoworld.engines.tracking.TrackerParams;
import io.videoworld.testkit.MachineText;
import io.videoworld.testkit.SyntheticTracks;
import io.videoworld.connectors.framestore.FrameStore;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.imageio.ImageIO;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NByteArrayEntity;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.RestClient;

/**
 * A generated history written straight into the indices through the job's document builders
 * ({@link EsDocuments}), with the job's deterministic ids and versions, without running
 * perception: a screen at 1 fps (a frame document a second; a keyframe, with what OCR read, on
 * every second the screen changed; a shot and an episode per activity, activities being pages of
 * the machine's own manuals and licences in six kinds of app, as {@link MachineText} gives the
 * generated desktop sessions) and a camera whose detector ran at {@code DETECT_FPS} (crowds as
 * {@link SyntheticTracks} makes them for the tracker bench, tracked by the project's
 * {@link ByteTracker}; a frame document per sample, a shot every ten minutes with a keyframe
 * every ten seconds, whose JPEG, a drawing of the boxes, goes to the frame store when one is given,
 * so that the tools that look at pixels have some). The same seed writes the same documents.
 */
final class ScaleHistory {
    static final long EPOCH = 1_767_225_600_000L; // 2026-01-01T00:00:00Z: the push every generated stream belongs to
    static final int DETECT_FPS = 4;
    private static final List<String> KINDS = List.of("browser", "terminal", "editor", "pdf", "chat", "files");
    private static final Map<String, String> APPS = Map.of("browser", "Firefox", "terminal", "Terminal", "editor", "Text Editor", "pdf",
            "Document Viewer", "chat", "Chat", "files", "Files");
    private static final int VISIBLE_LINES = 14;
    private static final float[] CAMERA_DESCRIPTOR_BASE = unit(176, 3);

    /** What was written to one index for one kind of stream: documents and JSON bytes sent. */
    static final class Written {
        long docs;
        long bytes;
    }

    private final RestClient rest;
    private final long seed;
    private final MachineText text = MachineText.load();
    private final Map<String, Written> written = new LinkedHashMap<>();
    private final List<EsWrite> pending = new ArrayList<>();
    private long pendingBytes;
    private long jpegWritten;
    private final List<String> phrases = new ArrayList<>();
    private final List<double[]> sightings = new ArrayList<>();

    private final FrameStore frames;

    /**
     * A history written through {@code rest} (null: a dry run that writes nothing); camera keyframes' JPEGs go to
     * {@code frames} (null: none are written).
     */
    ScaleHistory(RestClient rest, long seed, FrameStore frames) {
        this.rest = rest;
        this.seed = seed;
        this.frames = frames;
    }

    /** Documents and bytes written, by "index/kind" (kind: screen or camera). */
    Map<String, Written> written() {
        return written;
    }

    /** Short spans of the text the screens showed (two to four words), for queries that find something. */
    List<String> phrases() {
        return phrases;
    }

    /** Camera sightings as [second, x, y, w, h] (a box normalised to 0-1) at times a confirmed track was seen. */
    List<double[]> sightings() {
        return sightings;
    }

    /** Writes {@code seconds} of one screen as {@code stream}, 1 fps from the push start. */
    void screen(String stream, long seconds) throws IOException {
        Random rnd = new Random(seed ^ stream.hashCode());
        long s = 0;
        long episode = 0;
        while (s < seconds) {
            long len = Math.min(seconds - s, 20 + (long) (Math.abs(rnd.nextGaussian()) * 240));
            String kind = KINDS.get(rnd.nextInt(KINDS.size()));
            String app = APPS.get(kind);
            MachineText.Doc doc = kind.equals("terminal") || kind.equals("browser") && rnd.nextBoolean() ? text.manPage(rnd) : text.prose(rnd);
            String title = (kind.equals("terminal") ? "user@debian: ~/work - man " : "") + doc.name() + " - " + app;
            boolean idle = rnd.nextDouble() < 0.2; // left on screen while away: nothing changes after its first second
            List<KeyframeRef> keyframes = new ArrayList<>();
            int scroll = 0;
            StringBuilder seen = new StringBuilder();
            for (long t = s; t < s + len; t++) {
                boolean changed = t == s || !idle && rnd.nextDouble() < 0.45;
                if (changed && t > s) {
                    scroll = Math.min(Math.max(0, doc.lines().size() - VISIBLE_LINES), scroll + 1 + rnd.nextInt(4));
                }
                long pts = t * 1000;
                if (changed) {
                    KeyframeRef k = new KeyframeRef(t, pts, EPOCH + pts, t, 1280, 800, 60_000 + rnd.nextInt(40_000),
                            t == s ? KeyframeRef.FIRST : KeyframeRef.PERIODIC);
                    keyframes.add(k);
                    write("screen", EsDocuments.frame(new FrameDoc(stream, EPOCH, t, pts, EPOCH + pts, t, 1280, 800, k.jpegBytes(),
                            SourceKind.SCREEN, Segment.id(stream, Segment.SHOT, s), Segment.id(stream, Segment.SCENE, s), k.role(),
                            Keyframe.storeKey(stream, EPOCH, t))));
                    List<TextLine> lines = new ArrayList<>();
                    lines.add(new TextLine(title, 12, 6, 8 * title.length(), 22, 0.97));
                    for (int i = 0; i < VISIBLE_LINES && scroll + i < doc.lines().size(); i++) {
                        String line = doc.lines().get(scroll + i);
                        if (!line.isBlank()) {
                            lines.add(new TextLine(line, 40, 80 + i * 44, Math.min(1200, 9 * line.length()), 26, 0.85 + 0.14 * rnd.nextDouble()));
                        }
                    }
                    StringBuilder all = new StringBuilder();
                    lines.forEach(l -> all.append(l.text()).append('\n'));
                    if (seen.length() < 4000) {
                        seen.append(all);
                    }
                    write("screen", EsDocuments.perception(new Perception(stream, EPOCH, t, pts, k.role(), lines, all.toString().strip(),
                            topic(384, kind.hashCode() ^ doc.name().hashCode(), rnd), topic(176, kind.hashCode(), rnd), "cpu", 1280, 800,
                            List.of(), EPOCH + pts, Perception.OK, null)));
                    if (rnd.nextDouble() < 0.02) {
                        phrase(lines.get(rnd.nextInt(lines.size())).text(), rnd);
                    }
                } else {
                    write("screen", EsDocuments.frame(new FrameDoc(stream, EPOCH, t, pts, EPOCH + pts, t, 1280, 800, 0, SourceKind.SCREEN)));
                }
            }
            long end = s + len;
            Segment shot = new Segment(stream, Segment.SHOT, EPOCH, SourceKind.SCREEN, s, end, s * 1000, end * 1000, EPOCH + s * 1000,
                    EPOCH + end * 1000, s == 0 ? "start" : "cut", "adaptive", 30, s, 1, s, keyframes, true);
            write("screen", EsDocuments.segment(shot));
            write("screen", EsDocuments.segment(new Segment(stream, Segment.SCENE, EPOCH, SourceKind.SCREEN, s, end, s * 1000, end * 1000,
                    EPOCH + s * 1000, EPOCH + end * 1000, shot.transitionIn(), "adaptive", 30, s, 1, s, keyframes.subList(0, 1), true)));
            String summary = String.format(Locale.ROOT, "%s %s in %s", verb(kind), doc.name(), app);
            String details = seen.length() > 3000 ? seen.substring(0, 3000) : seen.toString();
            write("screen", EsDocuments.episode(new EpisodeDoc(stream, EPOCH, ++episode, 1 + len / 20, "screen_activity", "user",
                    EPOCH + s * 1000, EPOCH + end * 1000, s * 1000, end * 1000, app, summary, details, List.of(kind), List.of(),
                    (int) Math.max(1, len / 20), topic(384, kind.hashCode() ^ doc.name().hashCode(), rnd), "rules", true, false)));
            s = end;
        }
        video(stream, SourceKind.SCREEN, seconds, seconds, 1280, 800, 1, "screen");
    }

    /** Writes {@code seconds} of one camera as {@code stream}: detections at {@link #DETECT_FPS}, tracks, shots. */
    void camera(String stream, long seconds) throws IOException {
        Random rnd = new Random(seed ^ stream.hashCode());
        ByteTracker tracker = new ByteTracker(TrackerParams.defaults(30, 90), EPOCH);
        long samples = seconds * DETECT_FPS;
        long step = 1000 / DETECT_FPS;
        long shotStart = 0;
        List<KeyframeRef> keyframes = new ArrayList<>();
        long chunk = 0;
        List<DetectedFrame> crowd = List.of();
        int at = 0;
        for (long i = 0; i < samples; i++) {
            if (at >= crowd.size()) {
                // A new crowd every 600 samples (2.5 minutes), some hours busier than others.
                int people = 2 + rnd.nextInt(11);
                crowd = SyntheticTracks.generate(new SyntheticTracks.Config(600, people, 0.05, 0.5 + rnd.nextDouble(), 2.0, -1,
                        seed * 1_000_003L + stream.hashCode() * 31L + chunk++)).frames();
                at = 0;
            }
            DetectedFrame g = crowd.get(at++);
            long pts = i * step;
            DetectedFrame f = new DetectedFrame(stream, EPOCH, i, pts, EPOCH + pts, g.width(), g.height(), false, g.detections(),
                    g.frameHistogram(), "cpu");
            write("camera", EsDocuments.detections(f));
            boolean keyframe = (i - shotStart) % (10L * DETECT_FPS) == 0;
            if (keyframe) {
                int jpegBytes = 90_000 + rnd.nextInt(30_000);
                if (frames != null) {
                    byte[] jpeg = picture(g);
                    frames.put(Keyframe.storeKey(stream, EPOCH, i), jpeg);
                    jpegBytes = jpeg.length;
                    jpegWritten += jpeg.length;
                }
                KeyframeRef k = new KeyframeRef(i, pts, EPOCH + pts, i, g.width(), g.height(), jpegBytes,
                        i == shotStart ? KeyframeRef.FIRST : KeyframeRef.PERIODIC);
                keyframes.add(k);
                write("camera", EsDocuments.frame(new FrameDoc(stream, EPOCH, i, pts, EPOCH + pts, i, g.width(), g.height(), k.jpegBytes(),
                        SourceKind.VIDEO, Segment.id(stream, Segment.SHOT, shotStart), Segment.id(stream, Segment.SCENE, shotStart), k.role(),
                        Keyframe.storeKey(stream, EPOCH, i))));
                List<Detection> objects = g.detections().stream().filter(d -> d.score() >= 0.5).toList();
                write("camera", EsDocuments.perception(new Perception(stream, EPOCH, i, pts, k.role(), List.of(), "", null,
                        topic(176, CAMERA_DESCRIPTOR_BASE.length, rnd), "cpu", g.width(), g.height(), objects, EPOCH + pts, Perception.OK, null)));
            } else {
                write("camera", EsDocuments.frame(new FrameDoc(stream, EPOCH, i, pts, EPOCH + pts, i, g.width(), g.height(), 0, SourceKind.VIDEO)));
            }
            ByteTracker.Step out = tracker.update(f);
            for (LiveTrack l : out.ended()) {
                track(stream, tracker, l);
            }
            boolean shotEnds = i + 1 == samples || (i + 1 - shotStart) >= 600L * DETECT_FPS;
            if (shotEnds) {
                long end = i + 1;
                Segment shot = new Segment(stream, Segment.SHOT, EPOCH, SourceKind.VIDEO, shotStart, end, shotStart * step, end * step,
                        EPOCH + shotStart * step, EPOCH + end * step, shotStart == 0 ? "start" : "cut", "adaptive", 30, 0,
                        (int) (end / (600L * DETECT_FPS)) + 1, shotStart, keyframes, true);
                write("camera", EsDocuments.segment(shot));
                shotStart = end;
                keyframes = new ArrayList<>();
            }
        }
        write("camera", EsDocuments.segment(new Segment(stream, Segment.SCENE, EPOCH, SourceKind.VIDEO, 0, samples, 0, samples * step,
                EPOCH, EPOCH + samples * step, "start", "adaptive", 30, 0, (int) (samples / (600L * DETECT_FPS)) + 1, 0, List.of(), true)));
        for (LiveTrack l : tracker.finish()) {
            track(stream, tracker, l);
        }
        video(stream, SourceKind.VIDEO, seconds, samples, 1280, 720, DETECT_FPS, "camera");
    }

    /** Bytes of camera keyframe JPEGs put in the frame store. */
    long jpegBytes() {
        return jpegWritten;
    }

    /** A camera keyframe as a picture: a floor and a wall, and each detected person as a box of their own shade. */
    private static byte[] picture(DetectedFrame g) throws IOException {
        BufferedImage img = new BufferedImage(g.width(), g.height(), BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D gr = img.createGraphics();
        gr.setColor(new Color(150, 150, 140));
        gr.fillRect(0, 0, g.width(), g.height() / 2);
        gr.setColor(new Color(90, 80, 70));
        gr.fillRect(0, g.height() / 2, g.width(), g.height() / 2);
        for (Detection d : g.detections()) {
            int shade = (int) (d.x1() * 7 + d.y2() * 3) & 0xff;
            gr.setColor(new Color(shade, 255 - shade, (shade * 3) & 0xff));
            gr.fillRect((int) d.x1(), (int) d.y1(), (int) Math.max(1, d.width()), (int) Math.max(1, d.height()));
        }
        gr.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    private void track(String stream, ByteTracker tracker, LiveTrack l) throws IOException {
        var doc = tracker.doc(stream, l, false);
        write("camera", EsDocuments.track(doc));
        if (doc.samples() >= 8 && sightings.size() < 2000) {
            var p = doc.timeline().get(doc.timeline().size() / 2);
            double w = doc.width();
            double h = doc.height();
            double x = Math.max(0, p.x1() / w);
            double y = Math.max(0, p.y1() / h);
            sightings.add(new double[] {p.ptsMs() / 1000.0, x, y, Math.min((p.x2() - p.x1()) / w, 0.9999 - x),
                    Math.min((p.y2() - p.y1()) / h, 0.9999 - y)});
        }
    }

    private void video(String stream, SourceKind kind, long seconds, long frames, int w, int h, double fps, String k) throws IOException {
        SourceInfo info = new SourceInfo(fps, null, null, kind == SourceKind.SCREEN ? "png" : "h264", false, 0, 0, null, null, w, h, fps);
        long lastPts = (frames - 1) * 1000 * seconds / Math.max(1, frames);
        write(k, EsDocuments.video(new VideoDoc(stream, kind, "generated:" + stream, info, EPOCH, EPOCH, EPOCH + lastPts, lastPts, frames,
                frames / 20 + 1, frames / 20, frames - 1, w, h, VideoDoc.LIVE)));
    }

    private void phrase(String line, Random rnd) {
        String[] words = line.replaceAll("[^\\p{L}\\p{N} ]", " ").trim().split("\\s+");
        List<String> good = new ArrayList<>();
        for (String word : words) {
            if (word.length() >= 3) {
                good.add(word.toLowerCase(Locale.ROOT));
            }
        }
        if (good.size() >= 2 && phrases.size() < 5000) {
            int n = Math.min(good.size(), 2 + rnd.nextInt(3));
            int from = rnd.nextInt(good.size() - n + 1);
            phrases.add(String.join(" ", good.subList(from, from + n)));
        }
    }

    private static String verb(String kind) {
        return switch (kind) {
            case "browser" -> "Reading the page";
            case "terminal" -> "Reading the manual of";
            case "editor" -> "Editing";
            case "pdf" -> "Reading the document";
            case "chat" -> "Chatting about";
            default -> "Browsing the files of";
        };
    }

    /** A unit vector leaning to one axis picked by {@code key}, with noise: screens of one document embed alike. */
    private static float[] topic(int dims, int key, Random rnd) {
        float[] v = new float[dims];
        v[Math.floorMod(key, dims)] = 1;
        double n = 0;
        for (int i = 0; i < dims; i++) {
            v[i] += (float) (rnd.nextGaussian() * 0.05);
            n += v[i] * v[i];
        }
        for (int i = 0; i < dims; i++) {
            v[i] /= (float) Math.sqrt(n);
        }
        return v;
    }

    private static float[] unit(int dims, int axis) {
        float[] v = new float[dims];
        v[axis] = 1;
        return v;
    }

    private void write(String kind, EsWrite w) throws IOException {
        Written c = written.computeIfAbsent(w.index() + "/" + kind, x -> new Written());
        c.docs++;
        c.bytes += w.json() == null ? 0 : w.json().length;
        pending.add(w);
        pendingBytes += w.json() == null ? 64 : w.json().length + 128;
        if (pendingBytes >= 8 << 20) {
            flush();
        }
    }

    /** Sends what is buffered as one bulk request; a refused item fails the run, so no size is measured over missing documents. */
    void flush() throws IOException {
        if (rest == null) {
            pending.clear(); // a dry run: only the phrases and sightings are wanted
            pendingBytes = 0;
        }
        if (pending.isEmpty()) {
            return;
        }
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream((int) pendingBytes + 1024);
        for (EsWrite w : pending) {
            String action = w.isDelete() ? "delete" : "index";
            String meta = "{\"" + action + "\":{\"_index\":\"" + w.index() + "\",\"_id\":" + io.videoworld.core.Json.MAPPER.writeValueAsString(w.id())
                    + (w.version() >= 0 ? ",\"version\":" + w.version() + ",\"version_type\":\"external_gte\"" : "") + "}}\n";
            body.write(meta.getBytes(StandardCharsets.UTF_8));
            if (!w.isDelete()) {
                body.write(w.json());
                body.write('\n');
            }
        }
        Request r = new Request("POST", "/_bulk");
        r.addParameter("filter_path", "errors,items.*.error");
        r.setEntity(new NByteArrayEntity(body.toByteArray(), ContentType.create("application/x-ndjson")));
        Response resp = rest.performRequest(r);
        var json = io.videoworld.core.Json.MAPPER.readTree(resp.getEntity().getContent());
        if (json.path("errors").asBoolean()) {
            throw new IOException("Elasticsearch refused generated documents: " + json.path("items").path(0));
        }
        pending.clear();
        pendingBytes = 0;
    }
}
