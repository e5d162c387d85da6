package io.videoworld.media.video;

import java.io.IOException;
import org.bytedeco.javacv.FFmpegFrameGrabber;

/** Closing an FFmpeg grabber, the one way every reader of files here does it. */
final class Grabbers {
    private Grabbers() {}

    /** Releases the grabber after another failure; that failure is what matters, so this one is dropped. */
    static void releaseQuietly(FFmpegFrameGrabber grabber) {
        try {
            grabber.release();
        } catch (Exception ignored) {
            // already failing; the original error is what matters
        }
    }

    /** Stops and releases the grabber, its failure as an IOException. */
    static void stopAndRelease(FFmpegFrameGrabber grabber) throws IOException {
        try {
            grabber.stop();
            grabber.release();
        } catch (FFmpegFrameGrabber.Exception e) {
            throw new IOException(e);
        }
    }
}
