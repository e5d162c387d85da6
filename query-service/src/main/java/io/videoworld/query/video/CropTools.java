package io.videoworld.query.video;

import static io.videoworld.query.api.Decimals.round;

import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.media.images.Images;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import io.videoworld.query.api.RequestLimits;
import io.videoworld.query.video.VideoResponses.Crop;
import io.videoworld.query.video.VideoResponses.CropSource;
import io.videoworld.query.video.VideoResponses.Crops;
import io.videoworld.query.video.VideoResponses.Resolution;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * Seed 000 API-4 {@code crop_region}: normalised boxes cut out of a frame (by id), the frame at a
 * time, or an uploaded picture, each padded, resized and returned as base64 or as a URL of
 * {@code /v1/frames}. Every pixel the request will decode and encode is charged before any is.
 */
public final class CropTools {
    private final VideoRepository videos;
    private final FrameAccess access;
    private final RequestLimits limits;

    public CropTools(VideoRepository videos, FrameAccess access, RequestLimits limits) {
        this.videos = videos;
        this.access = access;
        this.limits = limits;
    }

    /** Seed 000 API-4. */
    public Crops cropRegion(Args args) throws IOException {
        Args source = args.optionalObject("source").orElseThrow(() -> ApiException.badField("source", "'source' is required"));
        String type = source.optionalChoice("type", Set.of("frame", "timestamp", "image_data"), null);
        if (type == null) {
            throw ApiException.badField("source.type", "'source.type' is required: frame, timestamp or image_data");
        }
        String format = args.optionalChoice("format", Set.of("base64", "url"), "base64");
        OutputSize size = OutputSize.of(args, "output_resolution");
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
            case "timestamp" -> img = access.at(v, List.of(source.requiredNumber("timestamp", 0, Videos.durationSeconds(v)))).get(0);
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
        ImageSizes.Size source0 = ImageSizes.of(img.jpeg());
        int[] wh = {(int) source0.width(), (int) source0.height()};
        // Every region decodes the whole picture and encodes its crop: charge all of it before any work.
        PixelBudget budget = new PixelBudget(limits);
        List<Images.PixelBox> pixelBoxes = new ArrayList<>();
        for (int i = 0; i < boxes.size(); i++) {
            Images.PixelBox px = Images.box(boxes.get(i), padding, wh[0], wh[1]);
            ImageSizes.Size out = ImageSizes.output(source0, px, size.width(), size.height());
            budget.checkOutput(out, "output_resolution");
            budget.charge(source0.pixels() + out.pixels(), "regions");
            pixelBoxes.add(px);
        }
        List<Crop> crops = new ArrayList<>();
        for (int i = 0; i < boxes.size(); i++) {
            Images.PixelBox px = pixelBoxes.get(i);
            byte[] jpeg;
            try {
                jpeg = Images.transform(img.jpeg(), px, size.width(), size.height(), 90);
            } catch (RuntimeException e) {
                if (img.frameId() != null) {
                    throw e;
                }
                // An upload whose header is sound but whose pixels are not is still the client's file.
                throw ApiException.badField("source.image_data", "'source.image_data' could not be decoded as a JPEG or PNG");
            }
            ImageSizes.Size out = ImageSizes.of(jpeg);
            boolean url = "url".equals(format);
            crops.add(new Crop(String.format("crop_%03d", i + 1), regions.get(i).optionalString("label").orElse(null), boxes.get(i),
                    new int[] {px.x(), px.y(), px.width(), px.height()}, new Resolution(out.width(), out.height()),
                    url ? FrameUrls.of(img.frameId(), size.width(), size.height(), boxes.get(i), padding) : null,
                    url ? null : "data:image/jpeg;base64," + Base64.getEncoder().encodeToString(jpeg), round(jpeg.length / 1024.0, 1)));
        }
        boolean frame = img.frameId() != null;
        CropSource info = new CropSource(img.frameId(), frame ? round(img.ptsMs() / 1000.0, 3) : null, frame ? img.origin() : null,
                new Resolution(wh[0], wh[1]));
        return new Crops(v.streamId(), info, crops, crops.size());
    }
}
