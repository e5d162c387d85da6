package io.videoworld.perception;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Renicing one thread: it and the threads it starts later run nicer, the threads around it do not. */
class ThreadNiceTest {

    /** The calling thread's nice value as the kernel reports it (field 19 of its stat line). */
    private static int niceOfThisThread() throws Exception {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        // The command name (field 2) may hold spaces; fields after it start past its closing parenthesis.
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(after[16]);
    }

    @Test
    void aRenicedThreadAndItsLaterChildrenRunNicerAndOthersDoNot() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        int before = niceOfThisThread();
        assumeTrue(before <= 16, "room to renice");
        AtomicInteger reported = new AtomicInteger();
        AtomicInteger seen = new AtomicInteger();
        AtomicInteger child = new AtomicInteger();
        Thread t = new Thread(() -> {
            try {
                reported.set(ThreadNice.lowerCurrentThread(3));
                seen.set(niceOfThisThread());
                Thread c = new Thread(() -> {
                    try {
                        child.set(niceOfThisThread());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                c.start();
                c.join();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        t.join();
        assertThat(reported.get()).isEqualTo(before + 3);
        assertThat(seen.get()).isEqualTo(before + 3);
        assertThat(child.get()).as("a thread started by the reniced one inherits it").isEqualTo(before + 3);
        assertThat(niceOfThisThread()).as("the caller's own thread is untouched").isEqualTo(before);
        assertThat(ThreadNice.lowerCurrentThread(0)).as("zero changes nothing").isEqualTo(Integer.MIN_VALUE);
        assertThat(niceOfThisThread()).isEqualTo(before);
    }
}
