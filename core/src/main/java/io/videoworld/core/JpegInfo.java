package io.videoworld.core;

/**
 * A structural check of a JPEG without decoding its pixels: start and end markers, and a frame
 * header (SOF) giving the size. It catches truncated, empty and non-JPEG payloads at a cost of a
 * few hundred nanoseconds, where a full decode would cost milliseconds per frame.
 *
 * @param width image width from the SOF segment
 * @param height image height from the SOF segment
 */
public record JpegInfo(int width, int height) {

    /** Returns the size, or null when the bytes are not a well-formed JPEG. */
    public static JpegInfo parse(byte[] b) {
        if (b == null || b.length < 4) {
            return null;
        }
        if ((b[0] & 0xFF) != 0xFF || (b[1] & 0xFF) != 0xD8) {
            return null;
        }
        if ((b[b.length - 2] & 0xFF) != 0xFF || (b[b.length - 1] & 0xFF) != 0xD9) {
            return null;
        }
        int i = 2;
        while (i + 4 <= b.length) {
            if ((b[i] & 0xFF) != 0xFF) {
                return null;
            }
            int marker = b[i + 1] & 0xFF;
            if (marker == 0xFF) {
                i++;
                continue;
            }
            int len = ((b[i + 2] & 0xFF) << 8) | (b[i + 3] & 0xFF);
            if (len < 2 || i + 2 + len > b.length) {
                return null;
            }
            boolean sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
            if (sof) {
                if (len < 7) {
                    return null;
                }
                int h = ((b[i + 5] & 0xFF) << 8) | (b[i + 6] & 0xFF);
                int w = ((b[i + 7] & 0xFF) << 8) | (b[i + 8] & 0xFF);
                return w > 0 && h > 0 ? new JpegInfo(w, h) : null;
            }
            if (marker == 0xDA) {
                return null; // scan data before any frame header
            }
            i += 2 + len;
        }
        return null;
    }
}
