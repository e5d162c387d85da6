package io.videoworld.operators.timers;

import java.io.IOException;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.TimerService;

/**
 * A stream's one event-time idle timer, kept in keyed state so it can be moved: each new
 * frame pushes it to {@code eventTime + idleMs}, and the stream's last frame cancels it, so a
 * stream leaves neither state nor a timer behind.
 */
public final class IdleTimer {
    private IdleTimer() {}

    /** Cancels the pending timer, if any, and forgets it. */
    public static void cancel(ValueState<Long> timer, TimerService timers) throws IOException {
        Long pending = timer.value();
        if (pending != null) {
            timers.deleteEventTimeTimer(pending);
        }
        timer.clear();
    }

    /** Moves the timer to {@code eventTimeMs + idleMs}. */
    public static void rearm(ValueState<Long> timer, TimerService timers, long eventTimeMs, long idleMs) throws IOException {
        cancel(timer, timers);
        long at = eventTimeMs + idleMs;
        timers.registerEventTimeTimer(at);
        timer.update(at);
    }
}
