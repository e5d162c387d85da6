package io.videoworld.operators.deadletters;

import io.videoworld.core.StreamRecord;

/** What a dead letter holds when a timer, not a record, made a keyed stage throw. */
public record TimerFired(String streamId, long timestampMs) implements StreamRecord {
    @Override
    public String position() {
        return "timer@" + timestampMs;
    }
}
