package io.videoworld.query;

import io.videoworld.connectors.es.SegmentRepository;
import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.core.Ids;
import io.videoworld.core.KeyframeRef;
import io.videoworld.core.Segment;
import io.videoworld.core.SourceInfo;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.Args;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Video API tools of seed 000 (API-1 {@code get_video_info}, API-2
 * {@code get_temporal_structure}) over the indexed streams. A stream id is the seeds'
 * {@code video_id}.
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

    private VideoDoc video(Args args) throws IOException {
        return Videos.require(videos, args);
    }

    /** Seed 000 API-1. */
    public Map<String, Object> getVideoInfo(Args args) throws IOException {
        VideoDoc v = video(args);
        SourceInfo s = v.source();
        double duration = durationSeconds(v);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("video_id", v.streamId());
        out.put("duration", round(duration, 3));
        out.put("fps", round(s.fps(), 3));
        out.put("resolution", Map.of("width", s.width(), "height", s.height()));
        out.put("aspect_ratio", aspectRatio(s.width(), s.height()));
        out.put("has_audio", s.hasAudio());
        out.put("audio_channels", s.audioChannels());
        out.put("audio_sample_rate", s.audioSampleRate());
        out.put("num_frames", numFrames(v));
        out.put("file_size_mb", s.fileSizeBytes() == null ? null : round(s.fileSizeBytes() / 1_048_576.0, 2));
        out.put("codec", s.codec());
        out.put("bitrate_kbps", s.bitrateKbps());
        out.put("source_kind", v.sourceKind().wireName());
        out.put("source_uri", v.sourceUri());
        Map<String, Object> indexed = new LinkedHashMap<>();
        indexed.put("frames", v.framesIndexed());
        indexed.put("sample_fps", round(s.sampleFps(), 3));
        indexed.put("resolution", Map.of("width", v.width(), "height", v.height()));
        indexed.put("first_event_time", Instant.ofEpochMilli(v.firstEventTimeMs()).toString());
        indexed.put("last_event_time", Instant.ofEpochMilli(v.lastEventTimeMs()).toString());
        indexed.put("status", v.status());
        out.put("indexed", indexed);
        return out;
    }

    /**
     * Seed 000 API-2: scenes for {@code coarse}, shots for {@code fine}. Frame numbers are the
     * source's (its frame rate), as in seed 000. While a live stream's latest shot is still open,
     * a last segment marked {@code "open": true} covers the time indexed since the last boundary.
     * Before shot detection has produced anything, the stream is one segment and the response
     * says so in {@code source} and {@code note}.
     */
    public Map<String, Object> getTemporalStructure(Args args) throws IOException {
        String granularity = args.optionalChoice("granularity", Set.of("coarse", "fine"), "coarse");
        VideoDoc v = video(args);
        String kind = "coarse".equals(granularity) ? Segment.SCENE : Segment.SHOT;
        List<Segment> found = segments.list(v.streamId(), v.epochMs(), kind);
        double duration = round(durationSeconds(v), 3);
        double fps = v.source().fps();
        List<Map<String, Object>> out = new ArrayList<>();
        for (Segment s : found) {
            Map<String, Object> seg = segment(s.id(), s.startPtsMs() / 1000.0, s.endPtsMs() / 1000.0, fps,
                    "coarse".equals(granularity) ? "scene" : "shot");
            if (!"start".equals(s.transitionIn())) {
                seg.put("transition_type", s.transitionIn());
            }
            seg.put("keyframe_timestamp", round(s.keyframes().stream().filter(k -> k.frameIndex() == s.representativeFrame())
                    .mapToLong(KeyframeRef::ptsMs).findFirst().orElse(s.startPtsMs()) / 1000.0, 3));
            if (Segment.SHOT.equals(s.kind())) {
                seg.put("scene_id", s.sceneId());
                seg.put("keyframes", s.keyframes().stream().map(k -> Map.of("frame_id", Ids.frame(s.streamId(), k.frameIndex()),
                        "timestamp", round(k.ptsMs() / 1000.0, 3), "role", k.role())).toList());
            } else {
                seg.put("shots", s.shots());
            }
            out.add(seg);
        }
        double covered = found.isEmpty() ? 0 : found.get(found.size() - 1).endPtsMs() / 1000.0;
        if (!found.isEmpty() && covered < duration - 1e-3) {
            Map<String, Object> open = segment(Segment.id(v.streamId(), kind, found.get(found.size() - 1).endFrame()), covered,
                    duration, fps, "coarse".equals(granularity) ? "scene" : "shot");
            open.put("open", true);
            out.add(open);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("video_id", v.streamId());
        result.put("granularity", granularity);
        if (found.isEmpty()) {
            Map<String, Object> whole = segment("seg_001", 0, duration, fps, "coarse".equals(granularity) ? "scene" : "shot");
            whole.put("end_frame", numFrames(v));
            whole.put("num_frames", numFrames(v));
            result.put("segments", List.of(whole));
            result.put("total_segments", 1);
            result.put("source", "whole_stream");
            result.put("note", "no shot boundaries are indexed for this stream yet; the whole stream is one segment");
        } else {
            result.put("segments", out);
            result.put("total_segments", out.size());
            result.put("source", "shot_detection");
        }
        return result;
    }

    private static Map<String, Object> segment(String id, double start, double end, double fps, String type) {
        Map<String, Object> seg = new LinkedHashMap<>();
        long startFrame = Math.round(start * fps);
        long endFrame = Math.round(end * fps);
        seg.put("segment_id", id);
        seg.put("start_time", round(start, 3));
        seg.put("end_time", round(end, 3));
        seg.put("start_frame", startFrame);
        seg.put("end_frame", endFrame);
        seg.put("duration", round(end - start, 3));
        seg.put("num_frames", endFrame - startFrame);
        seg.put("type", type);
        return seg;
    }

    /** The source's length when known; for live and screenshot streams, up to the end of the last frame. */
    static double durationSeconds(VideoDoc v) {
        SourceInfo s = v.source();
        if (s.durationMs() != null) {
            return s.durationMs() / 1000.0;
        }
        double frameMs = s.sampleFps() > 0 ? 1000.0 / s.sampleFps() : 0;
        return (v.lastPtsMs() + frameMs) / 1000.0;
    }

    /** Frames in the source's own numbering (its frame rate), which seed 000 frame numbers use. */
    static long numFrames(VideoDoc v) {
        SourceInfo s = v.source();
        if (s.totalFrames() != null) {
            return s.totalFrames();
        }
        return Math.round(durationSeconds(v) * s.fps());
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

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
