package io.videoworld.query;

import io.videoworld.connectors.es.FrameRepository;
import io.videoworld.connectors.es.SegmentRepository;
import io.videoworld.connectors.es.VideoRepository;
import io.videoworld.connectors.images.Images;
import io.videoworld.core.FrameDoc;
import io.videoworld.core.Segment;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.api.RequestLimits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Seed 000 API-3 {@code sample_frames}, API-4 {@code crop_region} and seed 001
 * {@code get_segment}. Decisions where the seeds are vague:
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

    FrameTools(VideoRepository videos, SegmentRepository segments, FrameRepository frames, FrameAccess access, RequestLimits limits) {
        this.videos = videos;
        this.segments = segments;
        this.frames = frames;
        this.access = access;
        this.limits = limits;
    }

    /** Seed 000 API-3. */
    public Map<String, Object> sampleFrames(Args args) throws IOException {
        String method = args.optionalChoice("sample_method", METHODS, "uniform");
        String format = args.optionalChoice("format", FORMATS, "base64");
        Optional2 size = resolution(args, "resolution");
        Integer num = args.optionalInt("num_frames", 1, MAX_FRAMES).orElse(null);
        Double interval = args.optionalNumber("sample_interval", 0.001, 1e7).orElse(null);
        VideoDoc v = Videos.require(videos, args);
        double duration = VideoTools.durationSeconds(v);
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
                    for (FrameDoc k : frames.keyframes(v.streamId(), v.epochMs(), ms(range[0]), ms(range[1]), 10_000)) {
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
        List<Map<String, Object>> out = new ArrayList<>();
        if (!times.isEmpty()) {
            // Only base64 needs pixels now; ids and URLs are resolved without decoding anything.
            if ("base64".equals(format)) {
                chargeFrames(v, times.size(), size, new PixelBudget(limits));
            }
            for (FrameAccess.Image img : "base64".equals(format) ? access.at(v, times) : access.idsAt(v, times)) {
                out.add(frameJson(v, img, format, size));
            }
        }
        Map<String, Object> res = new LinkedHashMap<>();
        res.put("video_id", v.streamId());
        res.put("frames", out);
        res.put("total_frames", out.size());
        res.put("sample_method", method);
        res.put("actual_interval", VideoTools.round(actualInterval, 3));
        res.put("frame_source", access.decodable(v) ? FrameAccess.DECODED : FrameAccess.NEAREST);
        return res;
    }

    /** Seed 000 API-4. */
    public Map<String, Object> cropRegion(Args args) throws IOException {
        Args source = args.optionalObject("source").orElseThrow(() -> ApiException.badField("source", "'source' is required"));
        String type = source.optionalChoice("type", Set.of("frame", "timestamp", "image_data"), null);
        if (type == null) {
            throw ApiException.badField("source.type", "'source.type' is required: frame, timestamp or image_data");
        }
        String format = args.optionalChoice("format", Set.of("base64", "url"), "base64");
        Optional2 size = resolution(args, "output_resolution");
        double padding = args.optionalNumber("padding", 0, 1).orElse(0.0);
        List<Args> regions = args.requiredObjectList("regions", 1, 50);
        List<double[]> boxes = new ArrayList<>();
        for (Args r : regions) {
            List<Double> b = r.numberList("bbox", 4, 4, 0, 1);
            if (b.get(2) <= 0 || b.get(3) <= 0 || b.get(0) + b.get(2) > 1 + 1e-9 || b.get(1) + b.get(3) > 1 + 1e-9) {
                throw ApiException.badField(r.path("bbox"), "'" + r.path("bbox") + "' must be [x, y, width, height] inside [0, 1] with positive size");
            }
            boxes.add(new double[] {b.get(0), b.get(1), b.get(2), b.get(3)});
        }
        VideoDoc v = Videos.require(videos, args);
        FrameAccess.Image img;
        switch (type) {
            case "frame" -> {
                String frameId = source.requiredString("frame_id");
                // The caller's right was checked for video_id only, so the frame must belong to that stream.
                if (!frameId.startsWith(v.streamId() + ":f:")) {
                    throw ApiException.badField("source.frame_id", "'source.frame_id' must be a frame of '" + v.streamId() + "'");
                }
                img = access.byId(frameId, v);
            }
            case "timestamp" -> img = access.at(v, List.of(source.requiredNumber("timestamp", 0, VideoTools.durationSeconds(v)))).get(0);
            default -> {
                byte[] data;
                try {
                    String s = source.requiredString("image_data");
                    data = Base64.getMimeDecoder().decode(s.substring(s.indexOf(',') + 1));
                } catch (IllegalArgumentException e) {
                    data = null;
                }
                ImageSizes.Size declared = ImageSizes.declared(data);
                if (declared == null) {
                    throw ApiException.badField("source.image_data", "'source.image_data' must be a base64 JPEG or PNG (data URL or bare)");
                }
                // The header is checked before the decoder sees the file: a few bytes can declare gigapixels.
                new PixelBudget(limits).checkUpload(declared, "source.image_data");
                img = new FrameAccess.Image(null, -1, data, "image_data", 0);
                if ("url".equals(format)) {
                    throw ApiException.badField("format", "crops of uploaded image_data are returned as base64 only");
                }
            }
        }
        ImageSizes.Size source0 = sizeOf(img.jpeg());
        int[] wh = {(int) source0.width(), (int) source0.height()};
        // Every region decodes the whole picture and encodes its crop: charge all of it before any work.
        PixelBudget budget = new PixelBudget(limits);
        List<Images.PixelBox> pixelBoxes = new ArrayList<>();
        for (int i = 0; i < boxes.size(); i++) {
            Images.PixelBox px = Images.box(boxes.get(i), padding, wh[0], wh[1]);
            ImageSizes.Size out = ImageSizes.output(source0, px, size.width, size.height);
            budget.checkOutput(out, "output_resolution");
            budget.charge(source0.pixels() + out.pixels(), "regions");
            pixelBoxes.add(px);
        }
        List<Map<String, Object>> crops = new ArrayList<>();
        for (int i = 0; i < boxes.size(); i++) {
            Images.PixelBox px = pixelBoxes.get(i);
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("region_id", String.format("crop_%03d", i + 1));
            regions.get(i).optionalString("label").ifPresent(l -> c.put("label", l));
            c.put("bbox", boxes.get(i));
            c.put("bbox_pixels", new int[] {px.x(), px.y(), px.width(), px.height()});
            byte[] jpeg;
            try {
                jpeg = Images.transform(img.jpeg(), px, size.width, size.height, 90);
            } catch (RuntimeException e) {
                if (img.frameId() != null) {
                    throw e;
                }
                // An upload whose header is sound but whose pixels are not is still the client's file.
                throw ApiException.badField("source.image_data", "'source.image_data' could not be decoded as a JPEG or PNG");
            }
            ImageSizes.Size out = sizeOf(jpeg);
            c.put("resolution", Map.of("width", out.width(), "height", out.height()));
            if ("url".equals(format)) {
                c.put("image_url", FrameUrls.of(img.frameId(), size.width, size.height, boxes.get(i), padding));
            } else {
                c.put("image_data", "data:image/jpeg;base64," + Base64.getEncoder().encodeToString(jpeg));
            }
            c.put("file_size_kb", VideoTools.round(jpeg.length / 1024.0, 1));
            crops.add(c);
        }
        Map<String, Object> info = new LinkedHashMap<>();
        if (img.frameId() != null) {
            info.put("frame_id", img.frameId());
            info.put("timestamp", VideoTools.round(img.ptsMs() / 1000.0, 3));
            info.put("origin", img.origin());
        }
        info.put("original_resolution", Map.of("width", wh[0], "height", wh[1]));
        Map<String, Object> res = new LinkedHashMap<>();
        res.put("video_id", v.streamId());
        res.put("source_info", info);
        res.put("cropped_regions", crops);
        res.put("total_regions", crops.size());
        return res;
    }

    /**
     * Seed 001 {@code get_segment}: the shot that overlaps the range most, with its scene and
     * exact bounds; {@code overlapping_segments} lists every shot the range touches.
     */
    public Map<String, Object> getSegment(Args args) throws IOException {
        VideoDoc v = Videos.require(videos, args);
        double duration = VideoTools.durationSeconds(v);
        double[] span = args.requiredSpan(duration);
        double start = span[0];
        double end = span[1];
        List<Segment> shots = segments.list(v.streamId(), v.epochMs(), Segment.SHOT);
        Segment best = null;
        double bestOverlap = -1;
        List<String> touching = new ArrayList<>();
        for (Segment s : shots) {
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
        Map<String, Object> res = new LinkedHashMap<>();
        res.put("segment_id", best.id());
        res.put("scene_id", best.sceneId());
        res.put("actual_start", VideoTools.round(a, 3));
        res.put("actual_end", VideoTools.round(b, 3));
        res.put("duration", VideoTools.round(b - a, 3));
        res.put("num_frames", Math.round(b * v.source().fps()) - Math.round(a * v.source().fps()));
        res.put("transition_type", best.transitionIn());
        res.put("overlapping_segments", touching);
        return res;
    }

    private Map<String, Object> frameJson(VideoDoc v, FrameAccess.Image img, String format, Optional2 size) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("frame_id", img.frameId());
        f.put("timestamp", VideoTools.round(img.ptsMs() / 1000.0, 3));
        f.put("frame_number", Math.round(img.ptsMs() / 1000.0 * v.source().fps()));
        if (img.jpeg() == null) {
            int w = size.width > 0 ? size.width : size.height > 0 ? (int) Math.round((double) v.width() * size.height / v.height()) : v.width();
            int h = size.height > 0 ? size.height : (int) Math.round((double) v.height() * w / v.width());
            f.put("resolution", Map.of("width", w, "height", h));
            if ("url".equals(format)) {
                f.put("image_url", FrameUrls.of(img.frameId(), size.width, size.height, null, 0));
            }
            f.put("origin", img.origin());
            if (img.offsetMs() > 0) {
                f.put("offset_ms", img.offsetMs());
            }
            return f;
        }
        byte[] jpeg = Images.transform(img.jpeg(), null, size.width, size.height, 90);
        ImageSizes.Size wh = sizeOf(jpeg);
        f.put("resolution", Map.of("width", wh.width(), "height", wh.height()));
        if ("base64".equals(format)) {
            f.put("image_data", "data:image/jpeg;base64," + Base64.getEncoder().encodeToString(jpeg));
        } else if ("url".equals(format)) {
            f.put("image_url", FrameUrls.of(img.frameId(), size.width, size.height, null, 0));
        }
        f.put("file_size_kb", VideoTools.round(jpeg.length / 1024.0, 1));
        f.put("origin", img.origin());
        if (img.offsetMs() > 0) {
            f.put("offset_ms", img.offsetMs());
        }
        return f;
    }

    /**
     * Charges {@code n} base64 frames of {@code v} before any is decoded: each decodes a picture of
     * the source's size (a stored keyframe's when the source is gone) and, when resized, encodes one
     * of the asked size.
     */
    private void chargeFrames(VideoDoc v, int n, Optional2 size, PixelBudget budget) {
        boolean fromSource = access.decodable(v) && v.source() != null && v.source().width() > 0 && v.source().height() > 0;
        ImageSizes.Size decoded = fromSource ? new ImageSizes.Size(v.source().width(), v.source().height())
                : new ImageSizes.Size(Math.max(1, v.width()), Math.max(1, v.height()));
        long perFrame = decoded.pixels();
        if (size.width > 0 || size.height > 0) {
            ImageSizes.Size out = ImageSizes.output(decoded, null, size.width, size.height);
            budget.checkOutput(out, "resolution");
            perFrame += out.pixels();
        }
        budget.charge(perFrame * n, "num_frames");
    }

    /** The size a JPEG declares, or, for one whose header does not parse, its decoded size. */
    static ImageSizes.Size sizeOf(byte[] jpeg) {
        ImageSizes.Size s = ImageSizes.declared(jpeg);
        if (s != null) {
            return s;
        }
        int[] wh = Images.size(jpeg);
        return new ImageSizes.Size(wh[0], wh[1]);
    }

    /** A requested output size; zeros mean "keep". */
    record Optional2(int width, int height) {}

    private static Optional2 resolution(Args args, String field) {
        return args.optionalObject(field).map(r -> new Optional2(r.optionalInt("width", 1, 8192).orElse(0),
                r.optionalInt("height", 1, 8192).orElse(0))).orElse(new Optional2(0, 0));
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
