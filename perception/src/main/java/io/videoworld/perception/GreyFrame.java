package io.videoworld.perception;

/**
 * The luma of an image, one byte a pixel ({@code (77 R + 150 G + 29 B) >> 8}), at full size or
 * box-averaged down to a thumbnail: what the change gates compare frames by.
 *
 * @param width pixels
 * @param height pixels
 * @param px {@code width * height} bytes, row by row
 */
public record GreyFrame(int width, int height, byte[] px) {

    /** The luma of every pixel. */
    public static GreyFrame of(DecodedImage img) {
        return of(img.width(), img.height(), img.bgr());
    }

    /** The luma of every pixel of packed BGR bytes, {@code width} x {@code height}. */
    public static GreyFrame of(int width, int height, byte[] bgr) {
        byte[] out = new byte[width * height];
        for (int i = 0, j = 0; i < out.length; i++, j += 3) {
            out[i] = (byte) (((bgr[j] & 0xFF) * 29 + (bgr[j + 1] & 0xFF) * 150 + (bgr[j + 2] & 0xFF) * 77) >> 8);
        }
        return new GreyFrame(width, height, out);
    }

    /** The luma box-averaged by the smallest integer factor that makes it at most {@code maxWidth} wide. */
    public static GreyFrame thumbnail(DecodedImage img, int maxWidth) {
        int f = Math.max(1, (img.width() + maxWidth - 1) / maxWidth);
        int w = img.width() / f;
        int h = img.height() / f;
        byte[] bgr = img.bgr();
        int[] sum = new int[w * h];
        for (int y = 0; y < h * f; y++) {
            int row = (y / f) * w;
            int base = y * img.width() * 3;
            for (int x = 0; x < w * f; x++) {
                int j = base + x * 3;
                sum[row + x / f] += ((bgr[j] & 0xFF) * 29 + (bgr[j + 1] & 0xFF) * 150 + (bgr[j + 2] & 0xFF) * 77) >> 8;
            }
        }
        byte[] out = new byte[w * h];
        int n = f * f;
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) (sum[i] / n);
        }
        return new GreyFrame(w, h, out);
    }

    public int at(int x, int y) {
        return px[y * width + x] & 0xFF;
    }

    /** Bytes held. */
    public long bytes() {
        return px.length + 32L;
    }
}
