package io.videoworld.connectors.flink.kafka;

import io.videoworld.core.AudioChunk;
import io.videoworld.core.AudioChunkCodec;
import io.videoworld.core.DeadLetter;
import io.videoworld.core.IngestedAudio;
import io.videoworld.core.MalformedBatchException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decodes {@code vw.audio} records; never throws. A record that is not a usable chunk
 * ({@link AudioChunkCodec}), or whose key is not its stream id, becomes a {@link DeadLetter} with
 * the reason and its original bytes, as frame batches do.
 */
public final class AudioChunkDeserializer implements KafkaRecordDeserializationSchema<IngestedAudio> {

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<IngestedAudio> out) {
        out.collect(decode(record));
    }

    /** Visible for tests: the decision for one record. */
    public static IngestedAudio decode(ConsumerRecord<byte[], byte[]> r) {
        try {
            AudioChunk c = AudioChunkCodec.decode(r.value());
            if (r.key() == null || !Arrays.equals(r.key(), c.streamId().getBytes(StandardCharsets.UTF_8))) {
                return dead(r, "record key must be the chunk's stream id '" + c.streamId() + "'");
            }
            return IngestedAudio.of(c);
        } catch (MalformedBatchException e) {
            return dead(r, e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            return dead(r, "undecodable record: " + e.getClass().getSimpleName());
        }
    }

    private static IngestedAudio dead(ConsumerRecord<byte[], byte[]> r, String reason) {
        return IngestedAudio.dead(DeadLetter.ofRecord(reason, r.topic(), r.partition(), r.offset(), r.timestamp(), r.key(), r.value()));
    }

    @Override
    public TypeInformation<IngestedAudio> getProducedType() {
        return TypeInformation.of(IngestedAudio.class);
    }
}
