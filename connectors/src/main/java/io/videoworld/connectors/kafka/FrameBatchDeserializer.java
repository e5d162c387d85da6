package io.videoworld.connectors.kafka;

import io.videoworld.core.DeadLetter;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.Ingested;
import io.videoworld.core.MalformedBatchException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decodes {@code vw.frames} records; never throws. A record that is not a usable batch becomes
 * a {@link DeadLetter} with the reason and its original bytes, so one bad producer cannot stop
 * the job and nothing it sent is lost.
 */
public final class FrameBatchDeserializer implements KafkaRecordDeserializationSchema<Ingested> {

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Ingested> out) {
        out.collect(decode(record));
    }

    /** Visible for tests: the decision for one record. */
    public static Ingested decode(ConsumerRecord<byte[], byte[]> record) {
        try {
            FrameBatch batch = FrameBatchCodec.decode(record.value());
            String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
            if (key != null && !key.equals(batch.streamId())) {
                return dead(record, "record key '" + key + "' differs from the batch's stream id '" + batch.streamId() + "'");
            }
            return Ingested.of(batch);
        } catch (MalformedBatchException e) {
            return dead(record, e.getMessage());
        } catch (RuntimeException e) {
            return dead(record, "decoder failure: " + e);
        }
    }

    private static Ingested dead(ConsumerRecord<byte[], byte[]> r, String reason) {
        return Ingested.dead(new DeadLetter(reason, r.topic(), r.partition(), r.offset(), r.timestamp(),
                r.key() == null ? null : Arrays.copyOf(r.key(), r.key().length),
                r.value() == null ? null : r.value()));
    }

    @Override
    public TypeInformation<Ingested> getProducedType() {
        return TypeInformation.of(Ingested.class);
    }
}
