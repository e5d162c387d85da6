package io.videoworld.perception;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the operating system's scheduling priority (raises the nice value) of the calling
 * thread, so work that may lag (detection on sampled frames) takes the cores only when the work
 * that must not lag (frame documents, shots) leaves them idle. Linux keeps a nice value per
 * thread and a thread inherits its creator's, so calling this before a model session starts
 * also covers the session's own worker threads. Raising a nice value needs no privilege; where
 * it is not possible (another OS, no libc) this logs once and does nothing.
 */
public final class ThreadNice {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadNice.class);
    private static final int PRIO_PROCESS = 0;

    private interface LibC extends Library {
        int getpriority(int which, int who);

        int setpriority(int which, int who, int prio);
    }

    private ThreadNice() {}

    /**
     * Raises the calling thread's nice value by {@code by} (up to 19); returns the nice value it
     * now has, or {@code Integer.MIN_VALUE} where threads cannot be reniced.
     */
    public static int lowerCurrentThread(int by) {
        if (by <= 0) {
            return Integer.MIN_VALUE;
        }
        try {
            // /proc/thread-self links to <pid>/task/<tid>: the thread id without a native call.
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            int tid = Integer.parseInt(self.getFileName().toString());
            LibC c = Native.load("c", LibC.class);
            int target = Math.min(19, c.getpriority(PRIO_PROCESS, tid) + by);
            if (c.setpriority(PRIO_PROCESS, tid, target) != 0) {
                LOG.warn("could not renice thread {} to {}: errno {}", tid, target, Native.getLastError());
                return Integer.MIN_VALUE;
            }
            return c.getpriority(PRIO_PROCESS, tid);
        } catch (Exception | LinkageError e) {
            LOG.warn("threads cannot be reniced here ({}); detection runs at normal priority", e.toString());
            return Integer.MIN_VALUE;
        }
    }
}
