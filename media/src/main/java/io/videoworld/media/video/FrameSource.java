package io.videoworld.media.video;

import io.videoworld.core.SourceInfo;
import io.videoworld.core.SourceKind;
import java.io.IOException;

/** A sampled, encoded sequence of frames from one source. */
public interface FrameSource extends AutoCloseable {

    SourceKind kind();

    /** What the source is; known once the source is open. */
    SourceInfo info();

    /** Frames the source expects to deliver after sampling, or -1 when unknown (live). */
    long expectedFrames();

    /** The next sampled frame, or null at the end of the source. */
    SourceFrame next() throws IOException;

    @Override
    void close() throws IOException;
}
