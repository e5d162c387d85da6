package io.videoworld.query.video;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.SegmentRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.core.Ids;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.video.VideoResponses.Indexed;
import io.videoworld.query.video.VideoResponses.KeyframeAt;
import io.videoworld.query.video.VideoResponses.Open;
import io.videoworld.query.video.VideoResponses.Resolution;
import io.videoworld.query.video.VideoResponses.Scene;
import io.videoworld.query.video.VideoResponses.SegmentAt;
import io.videoworld.query.video.VideoResponses.Shot;
import io.videoworld.query.video.VideoResponses.Span;
import io.videoworld.query.video.VideoResponses.TemporalStructure;
import io.videoworld.query.video.VideoResponses.VideoInfo;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Seed 000 API-1 {@code get_video_info} and API-2 {@code get_temporal_structure}, and seed 001
 * {@code get_segment}, over the indexed streams. A stream id is the seeds' {@code video_id}.
 *
 * <p>Until shot detection has produced boundaries for a stream, its temporal structure is one
 * segment spanning the whole stream, and the response says so rather than inventing boundaries.
 */
public final class VideoTools {
    private final VideoRepository videos;
    private final SegmentRepository segments;

    public VideoTools(VideoRepository videos, SegmentRepository segments) {
        this.videos = videos;
        this.segments = segments;
    }

    /** Seed 000 API-1. */
    public VideoInfo getVideoInfo(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        SourceInfo s = v.source();
        Indexed indexed = new Indexed(v.framesIndexed(), round(s.sampleFps(), 3), new Resolution(v.width(), v.height()),
                Instant.ofEpochMilli(v.firstEventTimeMs()).toString(), Instant.ofEpochMilli(v.lastEventTimeMs()).toString(), v.status());
        return new VideoInfo(v.streamId(), round(Videos.durationSeconds(v), 3), round(s.fps(), 3), new Resolution(s.width(), s.height()),
                aspectRatio(s.width(), s.height()), s.hasAudio(), s.audioChannels(), s.audioSampleRate(), Videos.numFrames(v),
                s.fileSizeBytes() == null ? null : round(s.fileSizeBytes() / 1_048_576.0, 2), s.codec(), s.bitrateKbps(),
                v.sourceKind().wireName(), v.sourceUri(), indexed);
    }

    /**
     * Seed 000 API-2: scenes for {@code coarse}, shots for {@code fine}. Frame numbers are the
     * source's (its frame rate), as in seed 000. While a live stream's latest shot is still open,
     * a last segment marked {@code "open": true} covers the time indexed since the last boundary.
     * Before shot detection has produced anything, the stream is one segment and the response
     * says so in {@code source} and {@code note}.
     */
    public TemporalStructure getTemporalStructure(Args args) throws IOException {
        String granularity = args.optionalChoice("granularity", Set.of("coarse", "fine"), "coarse");
        VideoDoc v = Videos.require(videos, args);
        boolean coarse = "coarse".equals(granularity);
        String kind = coarse ? Segment.SCENE : Segment.SHOT;
        String type = coarse ? "scene" : "shot";
        List<Segment> found = segments.list(v.streamId(), v.epochMs(), kind);
        double duration = round(Videos.durationSeconds(v), 3);
        double fps = v.source().fps();
        if (found.isEmpty()) {
            long n = Videos.numFrames(v);
            Span whole = new Span("seg_001", 0, duration, 0, n, duration, n, type);
            return new TemporalStructure(v.streamId(), granularity, List.of(whole), 1, "whole_stream",
                    "no shot boundaries are indexed for this stream yet; the whole stream is one segment");
        }
        List<Object> out = new ArrayList<>();
        for (Segment s : found) {
            Span span = span(s.id(), s.startPtsMs() / 1000.0, s.endPtsMs() / 1000.0, fps, type);
            String transition = "start".equals(s.transitionIn()) ? null : s.transitionIn();
            double keyframeAt = round(s.keyframes().stream().filter(k -> k.frameIndex() == s.representativeFrame())
                    .mapToLong(KeyframeRef::ptsMs).findFirst().orElse(s.startPtsMs()) / 1000.0, 3);
            if (Segment.SHOT.equals(s.kind())) {
                out.add(new Shot(span, transition, keyframeAt, s.sceneId(), s.keyframes().stream()
                        .map(k -> new KeyframeAt(Ids.frame(s.streamId(), k.frameIndex()), round(k.ptsMs() / 1000.0, 3), k.role())).toList()));
            } else {
                out.add(new Scene(span, transition, keyframeAt, s.shots()));
            }
        }
        Segment last = found.get(found.size() - 1);
        double covered = last.endPtsMs() / 1000.0;
        if (openTail(v, covered, duration)) {
            out.add(new Open(span(Segment.id(v.streamId(), kind, last.endFrame()), covered, duration, fps, type), true));
        }
        return new TemporalStructure(v.streamId(), granularity, out, out.size(), "shot_detection", null);
    }

    /**
     * Whether the time after the last closed segment is a segment still open: only while the
     * stream is live. An ended stream's last shot was closed by its last frame; what is left up to
     * the container's duration (the last frame's rounded length, a longer audio track) is no
     * segment of its own.
     */
    static boolean openTail(VideoDoc v, double covered, double duration) {
        return !VideoDoc.ENDED.equals(v.status()) && covered < duration - 1e-3;
    }

    private static Span span(String id, double start, double end, double fps, String type) {
        long startFrame = Math.round(start * fps);
        long endFrame = Math.round(end * fps);
        return new Span(id, round(start, 3), round(end, 3), startFrame, endFrame, round(end - start, 3), endFrame - startFrame, type);
    }

    /**
     * Seed 001 {@code get_segment}: the shot that overlaps the range most, with its scene and
     * exact bounds; {@code overlapping_segments} lists every shot the range touches.
     */
    public SegmentAt getSegment(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double[] span = args.requiredSpan(Videos.durationSeconds(v));
        double start = span[0];
        double end = span[1];
        Segment best = null;
        double bestOverlap = -1;
        List<String> touching = new ArrayList<>();
        for (Segment s : segments.list(v.streamId(), v.epochMs(), Segment.SHOT)) {
            double overlap = Math.min(end, s.endPtsMs() / 1000.0) - Math.max(start, s.startPtsMs() / 1000.0);
            if (overlap > 0) {
                touching.add(s.id());
                if (overlap > bestOverlap) {
                    bestOverlap = overlap;
                    best = s;
                }
            }
        }
        if (best == null) {
            throw new ApiException(404, "not_found", "start_time", "no closed shot of '" + v.streamId() + "' overlaps "
                    + start + "-" + end + " s (shots are indexed once they end)");
        }
        double a = best.startPtsMs() / 1000.0;
        double b = best.endPtsMs() / 1000.0;
        return new SegmentAt(best.id(), best.sceneId(), round(a, 3), round(b, 3), round(b - a, 3),
                Math.round(b * v.source().fps()) - Math.round(a * v.source().fps()), best.transitionIn(), touching);
    }

    /** The familiar name of a ratio when within 1% of it, otherwise the reduced fraction. */
    static String aspectRatio(int w, int h) {
        if (w <= 0 || h <= 0) {
            return null;
        }
        int[][] common = {{16, 9}, {4, 3}, {21, 9}, {16, 10}, {3, 2}, {1, 1}, {9, 16}, {3, 4}};
        double r = (double) w / h;
        for (int[] c : common) {
            if (Math.abs(r - (double) c[0] / c[1]) / r < 0.01) {
                return c[0] + ":" + c[1];
            }
        }
        int g = gcd(w, h);
        return (w / g) + ":" + (h / g);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
