package io.videoworld.engines.perception;

import io.videoworld.engines.gates.ScreenGate;
import io.videoworld.perception.ThreadNice;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The readers of change-gated perception, each with its own models, and one thread per reader
 * (none with 0 workers: the one reader then runs on the caller's thread). Not thread-safe: taken and
 * given back on the task thread only; a reader's work runs on its own thread. With worker threads
 * each reader loads its models on its own thread and is free only once the caller has been told
 * ({@link #ready}): loading (seconds of ONNX Runtime session creation) no longer holds the operator's
 * open(), during which its whole task, and through back-pressure the frame path, waited.
 */
public final class ReaderPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderPool.class);

    private final GatedReader[] readers;
    private final ExecutorService[] threads;
    private final ArrayDeque<Integer> free = new ArrayDeque<>();

    /** How a reader is made: its models loaded (seconds); a test stands in a slow or failing one. */
    @FunctionalInterface
    interface Loader {
        GatedReader load() throws Exception;
    }

    /**
     * @param nice added to the nice value of each worker thread (Linux; 0 leaves it), which loads its own
     *     models so that the model sessions' threads inherit it too; with 0 workers the caller's thread is never reniced
     * @param loaded with worker threads: told on each worker's thread when its reader has loaded (error null) or
     *     failed to; the caller then hands the reader's number to {@link #ready} on its own thread. With 0 workers the
     *     reader is loaded here and free at once.
     */
    public ReaderPool(int workers, String models, DetectorSettings detection, ScreenGate.Settings settings,
            String threadName, int nice, BiConsumer<Integer, Throwable> loaded) throws Exception {
        this(workers, models, detection, settings, io.videoworld.engines.privacy.Redactor.NONE, threadName, nice, loaded);
    }

    /** As above, each reader redacting what it reads with {@code redactor}. */
    public ReaderPool(int workers, String models, DetectorSettings detection, ScreenGate.Settings settings,
            io.videoworld.engines.privacy.Redactor redactor, String threadName, int nice, BiConsumer<Integer, Throwable> loaded)
            throws Exception {
        this(workers, () -> new GatedReader(Perceiver.load(models, detection).redacting(redactor), settings), threadName, nice, loaded);
    }

    /** A pool over readers that {@code loader} makes. */
    public ReaderPool(int workers, Loader loader, String threadName, int nice, BiConsumer<Integer, Throwable> loaded) throws Exception {
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
        if (workers == 0) {
            readers[0] = loader.load();
            free.add(0);
            return;
        }
        for (int i = 0; i < workers; i++) {
            int w = i;
            // Loaded on the worker itself, after its renice: ONNX Runtime's pool threads start here and inherit the value.
            threads[i].execute(() -> {
                if (nice > 0) {
                    ThreadNice.lowerCurrentThread(nice);
                }
                long t0 = System.nanoTime();
                try {
                    readers[w] = loader.load();
                } catch (Throwable e) {
                    loaded.accept(w, e);
                    return;
                }
                LOG.info("{} loaded its models in {} ms", Thread.currentThread().getName(), (System.nanoTime() - t0) / 1_000_000);
                loaded.accept(w, null);
            });
        }
    }

    /** Makes worker {@code w}'s reader free to take once it has loaded (the caller's thread, after being told). */
    public void ready(int w) {
        free.add(w);
    }

    /** Whether a reader is free to take. */
    public boolean hasFree() {
        return !free.isEmpty();
    }

    /** Takes a free reader's number. */
    public int take() {
        return free.pop();
    }

    /** Gives reader {@code w} back. */
    public void release(int w) {
        free.push(w);
    }

    /** The reader of worker {@code w}. */
    public GatedReader reader(int w) {
        return readers[w];
    }

    /** Whether reads run on worker threads rather than the caller's. */
    public boolean threaded() {
        return threads.length > 0;
    }

    /** Runs {@code work} on reader {@code w}'s thread. */
    public void execute(int w, Runnable work) {
        threads[w].execute(work);
    }

    /** The device the models run on (the same for every reader); asked of the engine while none has loaded. */
    public String device() {
        for (GatedReader r : readers) {
            if (r != null) {
                return r.perceiver.device;
            }
        }
        return Perceiver.device();
    }

    /** Text lines the readers took from their line memos (read on the metrics thread: a count, so a stale sum is fine). */
    public long linesRemembered() {
        long n = 0;
        for (GatedReader r : readers) {
            n += r == null ? 0 : r.perceiver.ocr.linesRemembered();
        }
        return n;
    }

    /** Text lines the readers' recognisers read. */
    public long linesRecognised() {
        long n = 0;
        for (GatedReader r : readers) {
            n += r == null ? 0 : r.perceiver.ocr.linesRecognised();
        }
        return n;
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
