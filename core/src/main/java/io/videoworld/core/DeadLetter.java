package io.videoworld.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * A Kafka record that could not be used, kept whole with the reason so nothing is lost: it goes
 * to the dead-letter topic with the original key and bytes.
 *
 * @param reason why it was rejected, one line
 * @param topic the topic it was read from
 * @param partition its partition
 * @param offset its offset
 * @param timestampMs the Kafka record timestamp
 * @param key the original key bytes (may be null)
 * @param value the original value bytes (may be null)
 */
public record DeadLetter(String reason, String topic, int partition, long offset, long timestampMs, byte[] key, byte[] value) {

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetter d
                && Objects.equals(reason, d.reason)
                && Objects.equals(topic, d.topic)
                && partition == d.partition
                && offset == d.offset
                && timestampMs == d.timestampMs
                && Arrays.equals(key, d.key)
                && Arrays.equals(value, d.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(reason, topic, partition, offset, timestampMs) * 31 + Arrays.hashCode(value);
    }

    /** Where the record came from, as "topic/partition@offset". */
    public String origin() {
        return topic + "/" + partition + "@" + offset;
    }
}
