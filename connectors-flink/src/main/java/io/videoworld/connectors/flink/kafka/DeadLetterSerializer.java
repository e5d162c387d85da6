package io.videoworld.connectors.flink.kafka;

import io.videoworld.core.DeadLetter;
import io.videoworld.core.Names;
import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Writes a dead letter as its original key and bytes, with the reason, origin and stage as headers. */
public final class DeadLetterSerializer implements KafkaRecordSerializationSchema<DeadLetter> {
    private final String topic;

    public DeadLetterSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(DeadLetter d, KafkaSinkContext context, Long timestamp) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, null, d.timestampMs(), d.key(), d.value());
        r.headers().add(Names.DLQ_REASON_HEADER, d.reason().getBytes(StandardCharsets.UTF_8));
        r.headers().add(Names.DLQ_SOURCE_HEADER, d.origin().getBytes(StandardCharsets.UTF_8));
        r.headers().add(Names.DLQ_STAGE_HEADER, d.stage().getBytes(StandardCharsets.UTF_8));
        return r;
    }
}
