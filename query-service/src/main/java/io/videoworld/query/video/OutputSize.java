package io.videoworld.query.video;

import io.videoworld.query.api.Args;

/**
 * The output size a request asks for ({@code resolution}, {@code output_resolution}); a zero side
 * means "keep", and with one side given the other keeps the aspect ratio.
 */
record OutputSize(int width, int height) {
    static final OutputSize KEEP = new OutputSize(0, 0);

    /** The size in {@code field} of the arguments, or {@link #KEEP} when absent. */
    static OutputSize of(Args args, String field) {
        return args.optionalObject(field).map(r -> new OutputSize(r.optionalInt("width", 1, 8192).orElse(0),
                r.optionalInt("height", 1, 8192).orElse(0))).orElse(KEEP);
    }

    boolean resizes() {
        return width > 0 || height > 0;
    }
}
