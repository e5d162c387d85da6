package io.videoworld.operators.deadletters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.flink.streaming.runtime.tasks.ExceptionInChainedOperatorException;

/**
 * Tells a failure caused by a record's content from a systemic one. Systemic failures (the JVM out
 * of memory, an interrupted task, I/O to Elasticsearch, Kafka or the disk, anything marked
 * {@link SystemicException}) must still stop or back off the job, since no dead letter can fix
 * them; everything else a stage throws while handling one record is that record's doing.
 */
public final class Failures {
    private Failures() {}

    /** Whether {@code t}, or anything in its cause chain, is systemic. */
    public static boolean isSystemic(Throwable t) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable c = t; c != null && seen.put(c, Boolean.TRUE) == null; c = c.getCause()) {
            if (c instanceof StackOverflowError) {
                // Deep recursion over one record's content (a pathological string, say) is that record's.
                continue;
            }
            if (c instanceof Error || c instanceof InterruptedException || c instanceof IOException
                    || c instanceof UncheckedIOException || c instanceof SystemicException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code t} came from a stage chained after the one that caught it (Flink wraps what a
     * chained operator throws as it is handed a record): not the catching stage's record's doing,
     * and every guarded stage settles its own records, so what arrives this way is for the task.
     */
    public static boolean isFromDownstream(Throwable t) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable c = t; c != null && seen.put(c, Boolean.TRUE) == null; c = c.getCause()) {
            if (c instanceof ExceptionInChainedOperatorException) {
                return true;
            }
        }
        return false;
    }

    /** One line naming the exception at the root of {@code t} and where it was thrown in our code. */
    public static String describe(Throwable t) {
        Throwable root = t;
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        while (root.getCause() != null && seen.put(root, Boolean.TRUE) == null) {
            root = root.getCause();
        }
        StringBuilder s = new StringBuilder(root.getClass().getSimpleName());
        if (root.getMessage() != null) {
            s.append(": ").append(root.getMessage());
        }
        for (StackTraceElement e : root.getStackTrace()) {
            if (e.getClassName().startsWith("io.videoworld.")) {
                s.append(" (at ").append(e.getClassName().substring(e.getClassName().lastIndexOf('.') + 1)).append('.')
                        .append(e.getMethodName()).append(':').append(e.getLineNumber()).append(')');
                break;
            }
        }
        String line = s.toString().replaceAll("[\\r\\n\\t]+", " ");
        return line.length() > 1_000 ? line.substring(0, 1_000) + "..." : line;
    }
}
