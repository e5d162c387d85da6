package io.videoworld.connectors.flink.kafka;

import io.videoworld.core.DeadLetter;
import io.videoworld.core.FrameBatch;
import io.videoworld.core.FrameBatchCodec;
import io.videoworld.core.FrameLimits;
import io.videoworld.core.Ingested;
import io.videoworld.core.MalformedBatchException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decodes {@code vw.frames} records; never throws. A record that is not a usable batch becomes
 * a {@link DeadLetter} with the reason and its original bytes, so one bad producer cannot stop
 * the job and nothing it sent is lost. Besides the codec's checks, the record key must be there,
 * be valid UTF-8 and equal the batch's stream id: the key decides the partition, so a batch
 * under another key would be ordered with the wrong stream.
 */
public final class FrameBatchDeserializer implements KafkaRecordDeserializationSchema<Ingested> {
    private final FrameLimits limits;

    public FrameBatchDeserializer() {
        this(FrameLimits.DEFAULT);
    }

    public FrameBatchDeserializer(FrameLimits limits) {
        this.limits = limits;
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Ingested> out) {
        out.collect(decode(record, limits));
    }

    /** Visible for tests: the decision for one record under the default limits. */
    public static Ingested decode(ConsumerRecord<byte[], byte[]> record) {
        return decode(record, FrameLimits.DEFAULT);
    }

    /** Visible for tests: the decision for one record. */
    public static Ingested decode(ConsumerRecord<byte[], byte[]> record, FrameLimits limits) {
        try {
            FrameBatch batch = FrameBatchCodec.decode(record.value(), limits);
            if (record.key() == null) {
                return dead(record, "record key missing: it must be the stream id '" + batch.streamId() + "'");
            }
            String key = utf8(record.key());
            if (key == null) {
                return dead(record, "record key is not valid UTF-8");
            }
            if (!key.equals(batch.streamId())) {
                return dead(record, "record key '" + shorten(key) + "' differs from the batch's stream id '" + batch.streamId() + "'");
            }
            return Ingested.of(batch);
        } catch (MalformedBatchException e) {
            return dead(record, e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            // The codec should refuse everything itself; this keeps an unforeseen input a dead letter too.
            return dead(record, "undecodable record: " + e.getClass().getSimpleName());
        }
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static String shorten(String s) {
        return s.length() > 140 ? s.substring(0, 140) + "..." : s;
    }

    private static Ingested dead(ConsumerRecord<byte[], byte[]> r, String reason) {
        return Ingested.dead(DeadLetter.ofRecord(reason, r.topic(), r.partition(), r.offset(), r.timestamp(),
                r.key() == null ? null : Arrays.copyOf(r.key(), r.key().length),
                r.value() == null ? null : r.value()));
    }

    @Override
    public TypeInformation<Ingested> getProducedType() {
        return TypeInformation.of(Ingested.class);
    }
}
