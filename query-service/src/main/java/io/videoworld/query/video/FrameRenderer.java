package io.videoworld.query.video;

import io.videoworld.connectors.esread.VideoRepository;
import io.videoworld.media.images.Images;
import io.videoworld.core.VideoDoc;
import io.videoworld.query.api.RequestLimits;
import java.io.IOException;

/**
 * The picture behind {@code GET /v1/frames/{id}}: a frame's JPEG, cropped to a normalised box and
 * resized, with the pixels it costs charged against the request's budget before any decoding.
 */
public final class FrameRenderer {
    /** A rendered frame and where its picture came from ({@link FrameAccess#DECODED}, a stored keyframe, ...). */
    public record Rendered(byte[] jpeg, String origin) {}

    private final VideoRepository videos;
    private final FrameAccess frames;
    private final RequestLimits limits;

    public FrameRenderer(VideoRepository videos, FrameAccess frames, RequestLimits limits) {
        this.videos = videos;
        this.frames = frames;
        this.limits = limits;
    }

    /**
     * Frame {@code frameId} of stream {@code stream}, cropped to {@code crop} ({@code x, y, w, h}
     * normalised, null for the whole frame) grown by {@code padding}, resized to {@code width} x
     * {@code height} (0 keeps the aspect ratio, both 0 the size).
     */
    public Rendered render(String frameId, String stream, int width, int height, double[] crop, double padding) throws IOException {
        VideoDoc v = Videos.byId(videos, stream);
        FrameAccess.Image img = frames.byId(frameId, v);
        ImageSizes.Size source = ImageSizes.of(img.jpeg());
        Images.PixelBox box = crop == null ? null : Images.box(crop, padding, (int) source.width(), (int) source.height());
        PixelBudget budget = new PixelBudget(limits);
        ImageSizes.Size out = ImageSizes.output(source, box, width, height);
        String field = width > 0 ? "width" : "height";
        budget.checkOutput(out, field);
        budget.charge(source.pixels() + (box != null || width > 0 || height > 0 ? out.pixels() : 0), field);
        return new Rendered(Images.transform(img.jpeg(), box, width, height, 90), img.origin());
    }
}
