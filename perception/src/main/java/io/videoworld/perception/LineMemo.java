package io.videoworld.perception;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.bytedeco.opencv.opencv_core.Mat;
import org.bytedeco.opencv.opencv_core.Rect;

/**
 * What the recogniser read from text-line crops, by the crops' ink, so that a line whose ink did
 * not change is not recognised again (live reads only: see {@link OcrEngine#readCrops(java.util.List, java.util.List, boolean)}). Recognition is about nine tenths of an OCR read (measured
 * on live 1280x800 screens: 61 s against 7 s for detection over one bench run), and on a screen most
 * lines of a band that changed are the same pixels as before: the rest of a paragraph around a
 * typed word, a scrolled page's lines at new heights, a window that comes back. The key is the
 * crop's ink ({@link #key}), so the detector's box may move by a few pixels around the same line;
 * the same ink is the same glyphs, so a remembered line reads as the line does (its text and score
 * from the read that recognised it). A Caffeine cache of at most {@code capacity} lines, kept up on
 * the caller's thread. One thread at a time, as its {@link OcrEngine}.
 */
final class LineMemo {
    /** A line's recognised text (empty when it read as blank) and its score. */
    record Read(String text, double score) {}

    /** A crop's identity: the size of its ink's bounding box and the hash of its ink. */
    record Key(int width, int height, long hash) {}

    /** Grey levels between a crop's darkest and lightest pixel below which it has no ink to key. */
    static final int MIN_CONTRAST = 32;

    private final int capacity;
    private final Cache<Key, Read> reads;
    private volatile long remembered;
    private volatile long recognised;

    LineMemo(int capacity) {
        this.capacity = capacity;
        this.reads = Caffeine.newBuilder().maximumSize(Math.max(0, capacity)).executor(Runnable::run).build();
    }

    /** The key of the pixels of {@code rect} in the BGR image {@code bgr} (see {@link #key(int, int, byte[])}). */
    static Key key(Mat bgr, Rect rect) {
        try (Mat roi = bgr.apply(rect); Mat packed = roi.clone()) {
            byte[] px = new byte[rect.width() * rect.height() * 3];
            packed.data().get(px);
            return key(rect.width(), rect.height(), px);
        }
    }

    /**
     * The key of a crop of {@code width} x {@code height} whose packed BGR bytes are {@code bgr}: its ink, that is its
     * pixels split at the middle of its darkest and lightest grey, the side its border mostly is on being the background,
     * cut to the ink's bounding box and hashed with that box's size. So a line found with a box a few pixels wider or
     * shifted, or scrolled to another height, has the key it had, and so does one whose pixels differ by JPEG noise away
     * from the middle; one glyph more, less or other changes the ink, and the key. Null for a crop with no contrast.
     */
    static Key key(int width, int height, byte[] bgr) {
        int n = width * height;
        byte[] luma = GreyFrame.of(width, height, bgr).px();
        int[] grey = new int[n];
        int lo = 255;
        int hi = 0;
        for (int i = 0; i < n; i++) {
            int g = luma[i] & 0xff;
            grey[i] = g;
            lo = Math.min(lo, g);
            hi = Math.max(hi, g);
        }
        if (hi - lo < MIN_CONTRAST) {
            return null;
        }
        int middle = (lo + hi) / 2;
        int above = 0;
        int border = 0;
        for (int x = 0; x < width; x++) {
            above += (grey[x] > middle ? 1 : 0) + (grey[(height - 1) * width + x] > middle ? 1 : 0);
            border += 2;
        }
        for (int y = 0; y < height; y++) {
            above += (grey[y * width] > middle ? 1 : 0) + (grey[y * width + width - 1] > middle ? 1 : 0);
            border += 2;
        }
        boolean inkIsDark = 2 * above >= border;
        int x0 = width;
        int y0 = height;
        int x1 = -1;
        int y1 = -1;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                if ((grey[y * width + x] > middle) != inkIsDark) {
                    x0 = Math.min(x0, x);
                    x1 = Math.max(x1, x);
                    y0 = Math.min(y0, y);
                    y1 = Math.max(y1, y);
                }
            }
        }
        // FNV-1a, 64 bits, over the ink rows: a collision between two lines a reader holds at once is about 2^-40 at 4096 lines.
        long h = 0xcbf29ce484222325L;
        for (int y = y0; y <= y1; y++) {
            for (int x = x0; x <= x1; x++) {
                h = (h ^ ((grey[y * width + x] > middle) != inkIsDark ? 1 : 0)) * 0x100000001b3L;
            }
            h = (h ^ 2) * 0x100000001b3L;
        }
        return new Key(x1 - x0 + 1, y1 - y0 + 1, h);
    }

    /** What {@code key} read as when it was last recognised; null when it must be recognised (counted either way; a null key always is). */
    Read get(Key key) {
        if (capacity <= 0 || key == null) {
            recognised++;
            return null;
        }
        Read r = reads.getIfPresent(key);
        if (r == null) {
            recognised++;
        } else {
            remembered++;
        }
        return r;
    }

    /** Remembers what {@code key} read as. */
    void put(Key key, Read read) {
        if (capacity > 0 && key != null) {
            reads.put(key, read);
        }
    }

    /** Lines taken from the memo so far. */
    long remembered() {
        return remembered;
    }

    /** Lines that had to be recognised so far. */
    long recognised() {
        return recognised;
    }

    /** Lines held now (at most the capacity). */
    int size() {
        reads.cleanUp();
        return (int) reads.estimatedSize();
    }
}
