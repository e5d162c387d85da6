package io.videoworld.query.video;

import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.RequestLimits;

/**
 * The pixels one request may make the service decode plus encode. Tools charge what they are
 * about to do before they do it, so a request past the budget is answered 413 at once instead of
 * after seconds of decoding; a rendered image wider or taller than the side limit is refused too.
 */
public final class PixelBudget {
    private final RequestLimits limits;
    private long used;

    public PixelBudget(RequestLimits limits) {
        this.limits = limits;
    }

    /** Charges {@code pixels}; 413 naming {@code field} and the limit when the request would pass it. */
    public void charge(long pixels, String field) {
        used = pixels > Long.MAX_VALUE - used ? Long.MAX_VALUE : used + pixels;
        if (used > limits.maxPixelsPerRequest()) {
            throw ApiException.tooLarge(field, "this request would decode and encode " + megapixels(used)
                    + " megapixels; the limit is " + megapixels(limits.maxPixelsPerRequest())
                    + " megapixels per request (frames x width x height): ask for fewer frames or a smaller resolution");
        }
    }

    /** 413 naming {@code field} when an image the request would render is larger than the side limit. */
    public void checkOutput(ImageSizes.Size size, String field) {
        if (size.width() > limits.maxImageSide() || size.height() > limits.maxImageSide()) {
            throw ApiException.tooLarge(field, "the image asked for would be " + size.width() + "x" + size.height()
                    + " pixels; the limit is " + limits.maxImageSide() + " pixels a side");
        }
    }

    /** 413 naming {@code field} when an uploaded image declares more than the limits allow; checked before decoding. */
    public void checkUpload(ImageSizes.Size size, String field) {
        if (size.width() > limits.maxImageSide() || size.height() > limits.maxImageSide()
                || size.pixels() > limits.maxImagePixels()) {
            throw ApiException.tooLarge(field, "'" + field + "' declares " + size.width() + "x" + size.height()
                    + " pixels; uploaded images may be at most " + limits.maxImageSide() + " pixels a side and "
                    + megapixels(limits.maxImagePixels()) + " megapixels");
        }
    }

    private static String megapixels(long pixels) {
        return pixels >= 10_000_000 ? String.valueOf(pixels / 1_000_000) : String.format(java.util.Locale.ROOT, "%.1f", pixels / 1e6);
    }
}
