package io.videoworld.jobs;

import io.videoworld.core.DeadLetter;
import io.videoworld.operators.deadletters.DeadLetters;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Gathers the dead letters of every stage as the job is wired: each stage is added through
 * {@link #tap}, which unions its {@link DeadLetters#TAG} side output into the one stream the
 * dead-letter topic is written from.
 */
final class DeadLetterRoutes {
    private DataStream<DeadLetter> all;

    /** Routes {@code stage}'s dead letters to the topic and returns the stage. */
    <T> SingleOutputStreamOperator<T> tap(SingleOutputStreamOperator<T> stage) {
        DataStream<DeadLetter> letters = stage.getSideOutput(DeadLetters.TAG);
        all = all == null ? letters : all.union(letters);
        return stage;
    }

    /** Every dead letter tapped so far. */
    DataStream<DeadLetter> all() {
        return all;
    }
}
