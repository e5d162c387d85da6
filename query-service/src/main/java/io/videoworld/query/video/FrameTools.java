package io.videoworld.query.video;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.FrameRepository;
import io.videoworld.connectors.esread.SegmentRepository;
import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.media.images.Images;
import io.videoworld.core.Segment;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.api.RequestLimits;
import io.videoworld.query.video.VideoResponses.Resolution;
import io.videoworld.query.video.VideoResponses.SampledFrame;
import io.videoworld.query.video.VideoResponses.SampledFrames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * Seed 000 API-3 {@code sample_frames}. Decisions where the seeds are vague:
 * <ul>
 *   <li>uniform sampling takes {@code num_frames} (default 10) at {@code start + i * interval},
 *       interval = range / num_frames, or every {@code sample_interval} seconds;</li>
 *   <li>{@code keyframe} returns the stored shot keyframes in the range (thinned evenly to
 *       {@code num_frames}); {@code adaptive} takes every shot's representative keyframe in the
 *       range and fills up uniformly, so fast-cutting passages get more frames;</li>
 *   <li>{@code frame_id}s name indexed frames ({@code stream:f:index}); a frame decoded at an
 *       arbitrary time carries the id of the indexed frame nearest to it;</li>
 *   <li>every frame says whether it was decoded from the source ({@code origin}) or is the
 *       nearest stored keyframe, and how many milliseconds away that is.</li>
 * </ul>
 */
public final class FrameTools {
    static final int MAX_FRAMES = 200;
    private static final Set<String> METHODS = Set.of("uniform", "keyframe", "adaptive", "specific");
    private static final Set<String> FORMATS = Set.of("base64", "url", "frame_id");

    private final VideoRepository videos;
    private final SegmentRepository segments;
    private final FrameRepository frames;
    private final FrameAccess access;
    private final RequestLimits limits;

    public FrameTools(VideoRepository videos, SegmentRepository segments, FrameRepository frames, FrameAccess access, RequestLimits limits) {
        this.videos = videos;
        this.segments = segments;
        this.frames = frames;
        this.access = access;
        this.limits = limits;
    }

    /** Seed 000 API-3. */
    public SampledFrames sampleFrames(Args args) throws IOException {
        String method = args.optionalChoice("sample_method", METHODS, "uniform");
        String format = args.optionalChoice("format", FORMATS, "base64");
        OutputSize size = OutputSize.of(args, "resolution");
        Integer num = args.optionalInt("num_frames", 1, MAX_FRAMES).orElse(null);
        Double interval = args.optionalNumber("sample_interval", 0.001, 1e7).orElse(null);
        VideoDoc v = Videos.require(videos, args);
        double duration = Videos.durationSeconds(v);
        double[] range = timeRange(args, duration);

        List<Double> times = new ArrayList<>();
        double actualInterval;
        switch (method) {
            case "specific" -> {
                times.addAll(args.numberList("timestamps", 1, MAX_FRAMES, range[0], range[1]));
                actualInterval = 0;
            }
            case "keyframe", "adaptive" -> {
                int n = num != null ? num : 10;
                List<Double> keys = new ArrayList<>();
                if ("keyframe".equals(method)) {
                    // From memory: closed shots list their keyframes, and only the open shot's are read.
                    for (StoredKeyframes.Key k : access.keyframes().between(v, ms(range[0]), ms(range[1]))) {
                        keys.add(k.ptsMs() / 1000.0);
                    }
                } else {
                    for (Segment s : segments.list(v.streamId(), v.epochMs(), Segment.SHOT)) {
                        s.keyframes().stream().filter(k -> k.frameIndex() == s.representativeFrame()).findFirst()
                                .map(k -> k.ptsMs() / 1000.0).filter(t -> t >= range[0] && t <= range[1]).ifPresent(keys::add);
                    }
                }
                times.addAll(thin(keys, n));
                if ("adaptive".equals(method) && times.size() < n) {
                    for (double t : uniform(range, n - times.size(), null)) {
                        times.add(t);
                    }
                    times.sort(Double::compare);
                }
                actualInterval = times.size() > 1 ? (times.get(times.size() - 1) - times.get(0)) / (times.size() - 1) : 0;
            }
            default -> {
                if (interval != null && num != null) {
                    throw ApiException.badField("sample_interval", "give either 'num_frames' or 'sample_interval', not both");
                }
                times.addAll(uniform(range, num != null ? num : 10, interval));
                actualInterval = interval != null ? interval : (range[1] - range[0]) / (num != null ? num : 10);
            }
        }
        List<SampledFrame> out = new ArrayList<>();
        if (!times.isEmpty()) {
            // Only base64 needs pixels now; ids and URLs are resolved without decoding anything.
            if ("base64".equals(format)) {
                chargeFrames(v, times.size(), size, new PixelBudget(limits));
            }
            for (FrameAccess.Image img : "base64".equals(format) ? access.at(v, times) : access.idsAt(v, times)) {
                out.add(frameJson(v, img, format, size));
            }
        }
        return new SampledFrames(v.streamId(), out, out.size(), method, round(actualInterval, 3),
                access.decodable(v) ? FrameAccess.DECODED : FrameAccess.NEAREST);
    }

    /** A frame as sampled: with its picture for base64, else only its id, size and (for url) where to fetch it. */
    private static SampledFrame frameJson(VideoDoc v, FrameAccess.Image img, String format, OutputSize size) {
        double timestamp = round(img.ptsMs() / 1000.0, 3);
        long number = Math.round(img.ptsMs() / 1000.0 * v.source().fps());
        String url = "url".equals(format) ? FrameUrls.of(img.frameId(), size.width(), size.height(), null, 0) : null;
        Long offset = img.offsetMs() > 0 ? img.offsetMs() : null;
        if (img.jpeg() == null) {
            int w = size.width() > 0 ? size.width() : size.height() > 0 ? (int) Math.round((double) v.width() * size.height() / v.height()) : v.width();
            int h = size.height() > 0 ? size.height() : (int) Math.round((double) v.height() * w / v.width());
            return new SampledFrame(img.frameId(), timestamp, number, new Resolution(w, h), null, url, null, img.origin(), offset);
        }
        byte[] jpeg = Images.transform(img.jpeg(), null, size.width(), size.height(), 90);
        ImageSizes.Size wh = ImageSizes.of(jpeg);
        String data = "base64".equals(format) ? "data:image/jpeg;base64," + Base64.getEncoder().encodeToString(jpeg) : null;
        return new SampledFrame(img.frameId(), timestamp, number, new Resolution(wh.width(), wh.height()), data, data == null ? url : null,
                round(jpeg.length / 1024.0, 1), img.origin(), offset);
    }

    /**
     * Charges {@code n} base64 frames of {@code v} before any is decoded: each decodes a picture of
     * the source's size (a stored keyframe's when the source is gone) and, when resized, encodes one
     * of the asked size.
     */
    private void chargeFrames(VideoDoc v, int n, OutputSize size, PixelBudget budget) {
        boolean fromSource = access.decodable(v) && v.source() != null && v.source().width() > 0 && v.source().height() > 0;
        ImageSizes.Size decoded = fromSource ? new ImageSizes.Size(v.source().width(), v.source().height())
                : new ImageSizes.Size(Math.max(1, v.width()), Math.max(1, v.height()));
        long perFrame = decoded.pixels();
        if (size.resizes()) {
            ImageSizes.Size out = ImageSizes.output(decoded, null, size.width(), size.height());
            budget.checkOutput(out, "resolution");
            perFrame += out.pixels();
        }
        budget.charge(perFrame * n, "num_frames");
    }

    private static double[] timeRange(Args args, double duration) {
        Args r = args.optionalObject("time_range").orElse(null);
        if (r == null) {
            return new double[] {0, duration};
        }
        double start = r.optionalNumber("start_time", 0, duration).orElse(0.0);
        double end = r.optionalNumber("end_time", 0, duration + 1e-6).orElse(duration);
        if (end <= start) {
            throw ApiException.badField(r.path("end_time"), "'" + r.path("end_time") + "' must be after 'start_time' (the range is empty)");
        }
        return new double[] {start, Math.min(end, duration)};
    }

    private static List<Double> uniform(double[] range, int n, Double interval) {
        List<Double> out = new ArrayList<>();
        if (interval != null) {
            for (double t = range[0]; t < range[1] && out.size() < MAX_FRAMES; t += interval) {
                out.add(t);
            }
            return out;
        }
        double step = (range[1] - range[0]) / n;
        for (int i = 0; i < n; i++) {
            out.add(range[0] + i * step);
        }
        return out;
    }

    private static List<Double> thin(List<Double> times, int n) {
        if (times.size() <= n) {
            return times;
        }
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(times.get((int) Math.round(i * (times.size() - 1) / (double) Math.max(1, n - 1))));
        }
        return out;
    }

    private static long ms(double seconds) {
        return Math.round(seconds * 1000);
    }
}
