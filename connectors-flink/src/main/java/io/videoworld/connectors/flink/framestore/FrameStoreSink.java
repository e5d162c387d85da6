package io.videoworld.connectors.flink.framestore;

import io.videoworld.connectors.framestore.FrameStore;

import io.videoworld.core.Keyframe;
import java.io.IOException;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;

/**
 * Writes keyframe JPEGs to a {@link FrameStore}. Keys are deterministic and writes replace, so
 * at-least-once delivery after a restore leaves exactly one file per keyframe.
 */
public final class FrameStoreSink implements Sink<Keyframe> {
    private final String location;

    public FrameStoreSink(String location) {
        this.location = location;
    }

    @Override
    public SinkWriter<Keyframe> createWriter(WriterInitContext context) {
        FrameStore store = FrameStore.open(location);
        Counter stored = context.metricGroup().counter("vwKeyframesStored");
        return new SinkWriter<>() {
            @Override
            public void write(Keyframe k, Context ctx) throws IOException {
                store.put(k.storeKey(), k.jpeg());
                stored.inc();
            }

            @Override
            public void flush(boolean endOfInput) {
                // every write is synchronous
            }

            @Override
            public void close() {
                // nothing held open
            }
        };
    }
}
