package io.videoworld.operators.inference;

import io.videoworld.perception.ThreadNice;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The readers of change-gated perception, each with its own models, and one thread per reader
 * (none with 0 workers: the one reader then runs on the caller's thread). Not thread-safe: taken and
 * given back on the task thread only; a reader's work runs on its own thread.
 */
final class ReaderPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderPool.class);

    private final GatedReader[] readers;
    private final ExecutorService[] threads;
    private final ArrayDeque<Integer> free = new ArrayDeque<>();

    ReaderPool(int workers, String models, DetectionFunction.DetectorSettings detection, ScreenGate.Settings settings,
            String threadName) throws Exception {
        this(workers, models, detection, settings, threadName, 0);
    }

    /**
     * @param nice added to the nice value of each worker thread (Linux; 0 leaves it), which loads its own
     *     models so that the model sessions' threads inherit it too; with 0 workers the caller's thread is never reniced
     */
    ReaderPool(int workers, String models, DetectionFunction.DetectorSettings detection, ScreenGate.Settings settings,
            String threadName, int nice) throws Exception {
        readers = new GatedReader[Math.max(1, workers)];
        threads = new ExecutorService[workers];
        for (int i = 0; i < workers; i++) {
            String name = threadName + "." + i;
            threads[i] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
        }
        for (int i = 0; i < readers.length; i++) {
            if (workers == 0) {
                readers[i] = new GatedReader(Perceiver.load(models, detection), settings);
            } else {
                // Loaded on the worker itself, after its renice: ONNX Runtime's pool threads start here and inherit the value.
                try {
                    readers[i] = threads[i].submit(() -> {
                        if (nice > 0) {
                            ThreadNice.lowerCurrentThread(nice);
                        }
                        return new GatedReader(Perceiver.load(models, detection), settings);
                    }).get();
                } catch (ExecutionException e) {
                    close();
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
            free.add(i);
        }
    }

    /** Whether a reader is free to take. */
    boolean hasFree() {
        return !free.isEmpty();
    }

    /** Takes a free reader's number. */
    int take() {
        return free.pop();
    }

    /** Gives reader {@code w} back. */
    void release(int w) {
        free.push(w);
    }

    GatedReader reader(int w) {
        return readers[w];
    }

    /** Whether reads run on worker threads rather than the caller's. */
    boolean threaded() {
        return threads.length > 0;
    }

    /** Runs {@code work} on reader {@code w}'s thread. */
    void execute(int w, Runnable work) {
        threads[w].execute(work);
    }

    /** The device the models run on (the same for every reader). */
    String device() {
        return readers[0].perceiver.device;
    }

    @Override
    public void close() throws Exception {
        for (ExecutorService t : threads) {
            if (t != null) {
                t.shutdownNow();
            }
        }
        // A read in progress still uses its models (native sessions): wait for it before closing them.
        for (ExecutorService t : threads) {
            if (t != null && !t.awaitTermination(60, TimeUnit.SECONDS)) {
                LOG.warn("a gated perception worker did not stop within 60 s");
            }
        }
        for (GatedReader r : readers) {
            if (r != null) {
                r.close();
            }
        }
    }
}
