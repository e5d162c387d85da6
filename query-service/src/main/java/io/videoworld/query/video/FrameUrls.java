package io.videoworld.query.video;

import java.util.Locale;

/** URLs of {@code GET /v1/frames/{id}} with the resize and crop a tool asked for. */
public final class FrameUrls {
    private FrameUrls() {}

    /** The URL of a frame resized to {@code width} x {@code height} (0: keep) and cropped to {@code bbox} (null: whole) with {@code padding}. */
    public static String of(String frameId, int width, int height, double[] bbox, double padding) {
        StringBuilder sb = new StringBuilder("/v1/frames/").append(frameId);
        String sep = "?";
        if (width > 0) {
            sb.append(sep).append("width=").append(width);
            sep = "&";
        }
        if (height > 0) {
            sb.append(sep).append("height=").append(height);
            sep = "&";
        }
        if (bbox != null) {
            sb.append(sep).append(String.format(Locale.ROOT, "crop=%.4f,%.4f,%.4f,%.4f", bbox[0], bbox[1], bbox[2], bbox[3]));
            sep = "&";
            if (padding > 0) {
                sb.append(sep).append(String.format(Locale.ROOT, "padding=%.3f", padding));
            }
        }
        return sb.toString();
    }
}
