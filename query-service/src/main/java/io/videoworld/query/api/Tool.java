package io.videoworld.query.api;

import java.io.IOException;

/** One atomic operation: validated arguments in, a JSON-ready response out. */
@FunctionalInterface
public interface Tool {
    Object call(Args args) throws IOException;
}
