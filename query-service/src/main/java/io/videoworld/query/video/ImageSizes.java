package io.videoworld.query.video;

import io.videoworld.media.images.Images;
import io.videoworld.core.JpegInfo;

/**
 * Image sizes known before any pixel is decoded: what a JPEG or PNG declares in its header, and
 * what a crop and resize by {@link Images#transform} will produce. A header can claim 60000x60000
 * in a few hundred bytes, so sizes are checked from it and the decoder never sees such a file.
 */
public final class ImageSizes {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    /** A width and height in pixels; long, because a PNG may declare up to 2^31-1 each way. */
    public record Size(long width, long height) {
        /** Width times height. */
        public long pixels() {
            return width * height;
        }
    }

    private ImageSizes() {}

    /** The size a JPEG's frame header or a PNG's IHDR chunk declares; null when the bytes are neither, or malformed. */
    public static Size declared(byte[] data) {
        if (data == null || data.length < 4) {
            return null;
        }
        if ((data[0] & 0xFF) == 0xFF && (data[1] & 0xFF) == 0xD8) {
            JpegInfo info = JpegInfo.parse(data);
            return info == null ? null : new Size(info.width(), info.height());
        }
        if (data.length < 33) {
            return null;
        }
        for (int i = 0; i < PNG_SIGNATURE.length; i++) {
            if (data[i] != PNG_SIGNATURE[i]) {
                return null;
            }
        }
        if (u32(data, 8) != 13 || data[12] != 'I' || data[13] != 'H' || data[14] != 'D' || data[15] != 'R') {
            return null;
        }
        long w = u32(data, 16);
        long h = u32(data, 20);
        return w > 0 && h > 0 ? new Size(w, h) : null;
    }

    /**
     * The size {@link Images#transform} gives a {@code source}-sized image cropped to {@code box}
     * (null: whole image) and resized to {@code width} x {@code height} (0 keeps the aspect ratio,
     * both 0 keep the size); computed in doubles, so absurd requests come out as large numbers
     * rather than overflowing.
     */
    public static Size output(Size source, Images.PixelBox box, int width, int height) {
        double w = source.width();
        double h = source.height();
        if (box != null) {
            w = Math.min(box.width(), source.width() - box.x());
            h = Math.min(box.height(), source.height() - box.y());
        }
        if (width > 0 || height > 0) {
            double nw = width > 0 ? width : Math.round(w * height / h);
            double nh = height > 0 ? height : Math.round(h * width / w);
            w = Math.max(1, nw);
            h = Math.max(1, nh);
        }
        return new Size((long) Math.min(w, Long.MAX_VALUE / 4), (long) Math.min(h, Long.MAX_VALUE / 4));
    }

    /** The size a JPEG declares, or, for one whose header does not parse, its decoded size. */
    public static Size of(byte[] jpeg) {
        Size s = declared(jpeg);
        if (s != null) {
            return s;
        }
        int[] wh = Images.size(jpeg);
        return new Size(wh[0], wh[1]);
    }

    private static long u32(byte[] b, int at) {
        return ((long) (b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
    }
}
