package io.videoworld.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Something the job could not use, kept whole with the reason so nothing is lost: a Kafka record
 * refused at the edge (its original key and bytes), or one frame that passed the edge but failed
 * to decode in an operator (its stream as key, its JPEG as value). Both go to the dead-letter
 * topic.
 *
 * @param reason why it was rejected, one line
 * @param stage where: {@link #INGEST} for records, else the operator that refused the frame
 * @param origin "topic/partition@offset" for a record, "stream#frame-index" for a frame
 * @param timestampMs the Kafka record timestamp, or the frame's event time
 * @param key the original key bytes (may be null)
 * @param value the original value bytes (may be null)
 */
public record DeadLetter(String reason, String stage, String origin, long timestampMs, byte[] key, byte[] value) {
    /** The stage of records refused when read from Kafka. */
    public static final String INGEST = "ingest";

    /** A Kafka record refused at the edge. */
    public static DeadLetter ofRecord(String reason, String topic, int partition, long offset, long timestampMs, byte[] key, byte[] value) {
        return new DeadLetter(reason, INGEST, topic + "/" + partition + "@" + offset, timestampMs, key, value);
    }

    /** One frame an operator could not decode; the rest of its batch goes on. */
    public static DeadLetter ofFrame(String stage, String reason, String streamId, long frameIndex, long eventTimeMs, byte[] jpeg) {
        return new DeadLetter(reason, stage, streamId + "#" + frameIndex, eventTimeMs, streamId.getBytes(StandardCharsets.UTF_8), jpeg);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetter d
                && Objects.equals(reason, d.reason)
                && Objects.equals(stage, d.stage)
                && Objects.equals(origin, d.origin)
                && timestampMs == d.timestampMs
                && Arrays.equals(key, d.key)
                && Arrays.equals(value, d.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(reason, stage, origin, timestampMs) * 31 + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "DeadLetter[" + stage + " " + origin + ": " + reason + "]";
    }
}
