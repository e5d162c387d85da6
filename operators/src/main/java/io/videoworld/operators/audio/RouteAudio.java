package io.videoworld.operators.audio;

import io.videoworld.core.AudioChunk;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.IngestedAudio;
import io.videoworld.operators.deadletters.DeadLetters;
import io.videoworld.operators.deadletters.GuardedProcessFunction;
import org.apache.flink.util.Collector;

/** Splits decoded audio records into good chunks (main output) and dead letters ({@link DeadLetters#TAG}). Stateless. */
public final class RouteAudio extends GuardedProcessFunction<IngestedAudio, AudioChunk> {
    public RouteAudio() {
        super(DeadLetter.INGEST);
    }

    @Override
    protected void process(IngestedAudio in, Context ctx, Collector<AudioChunk> out) {
        if (in.chunk() != null) {
            out.collect(in.chunk());
        } else {
            ctx.output(DeadLetters.TAG, in.deadLetter());
        }
    }
}
