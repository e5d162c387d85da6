package io.videoworld.engines.sampling;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The keyframes waiting for {@code GatedPerception} or being read, in arrival order with the
 * watermarks (and watermark statuses: marks) that came between them, and whose turn it is: a
 * stream's keyframe once the stream's previous one is done (the gate reads it against that one),
 * and only before the first held mark, which waits until everything before it is done. Task thread only.
 *
 * @param <T> what is queued
 */
public final class StreamTurns<T> {
    /** One queued item of stream {@code key}; {@code started} once handed to a reader. */
    public static final class Turn<T> {
        /** The stream. */
        public final String key;
        /** What was queued. */
        public final T item;
        /** Whether a reader has it. */
        public boolean started;

        Turn(String key, T item) {
            this.key = key;
            this.item = item;
        }
    }

    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private int size;

    /** Queues an item of stream {@code key}. */
    public Turn<T> add(String key, T item) {
        Turn<T> t = new Turn<>(key, item);
        queue.add(t);
        size++;
        return t;
    }

    /** Holds {@code mark} (not a {@link Turn}) behind what is queued; false when nothing is (the mark may pass at once). */
    public boolean hold(Object mark) {
        if (queue.isEmpty()) {
            return false;
        }
        queue.add(mark);
        return true;
    }

    /** The first held mark once everything before it is done, taken off the queue; else null. */
    public Object releasable() {
        return queue.isEmpty() || queue.peekFirst() instanceof Turn<?> ? null : queue.pollFirst();
    }

    /** The items whose turn it is and that are not started, in arrival order. */
    public List<Turn<T>> due() {
        List<Turn<T>> due = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Object o : queue) {
            if (!(o instanceof Turn<?> t)) {
                break;
            }
            if (seen.add(t.key) && !t.started) {
                @SuppressWarnings("unchecked")
                Turn<T> typed = (Turn<T>) t;
                due.add(typed);
            }
        }
        return due;
    }

    /** Whether no later item of {@code t}'s stream is queued (marks between them aside). */
    public boolean newest(Turn<T> t) {
        boolean after = false;
        for (Object o : queue) {
            if (o == t) {
                after = true;
            } else if (after && o instanceof Turn<?> later && later.key.equals(t.key)) {
                return false;
            }
        }
        return true;
    }

    /** Takes a finished item off the queue. */
    public void done(Turn<T> t) {
        if (queue.remove(t)) {
            size--;
        }
    }

    /** Items queued or being read (not the marks). */
    public int size() {
        return size;
    }
}
