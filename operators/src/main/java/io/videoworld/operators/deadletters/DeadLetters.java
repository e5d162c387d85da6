package io.videoworld.operators.deadletters;

import io.videoworld.core.DeadLetter;
import io.videoworld.core.Json;
import io.videoworld.core.StreamRecord;
import io.videoworld.connectors.es.EsWrite;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.OutputTag;

/**
 * The one side output every stage writes its dead letters to, and how a record that made a stage
 * throw becomes one: the stage, the exception in one line, the record's stream as key and the
 * record itself as JSON, so nothing is lost and it can be read, fixed and replayed.
 */
public final class DeadLetters {
    /** Every stage's dead letters; the job's wiring unions this side output of every stage into the dead-letter topic. */
    public static final OutputTag<DeadLetter> TAG = new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    private DeadLetters() {}

    /**
     * The dead letter for {@code record}, which made {@code stage} throw {@code error}.
     *
     * @param timestampMs the record's event time (from its payload), or 0 where the stage has none
     * @throws RuntimeException {@code error} itself, rethrown, when it is systemic or came from a stage chained downstream
     */
    public static DeadLetter of(String stage, Object record, Throwable error, long timestampMs) {
        rethrowUnlessContent(error);
        return new DeadLetter(stage + " threw " + Failures.describe(error), stage, origin(record), timestampMs, key(record), value(record));
    }

    /**
     * Rethrows a systemic failure, or one from a stage chained downstream, unchanged (so the job
     * backs off or stops as before); returns for a failure caused by the record in hand.
     */
    public static void rethrowUnlessContent(Throwable error) {
        if (Failures.isSystemic(error) || Failures.isFromDownstream(error)) {
            if (error instanceof RuntimeException r) {
                throw r;
            }
            if (error instanceof Error e) {
                throw e;
            }
            throw new SystemicException(error.toString(), error);
        }
    }

    static String origin(Object record) {
        if (record instanceof StreamRecord s) {
            return s.position().isEmpty() ? s.streamId() : s.streamId() + "#" + s.position();
        }
        if (record instanceof EsWrite e) {
            return e.index() + "/" + e.id();
        }
        return record == null ? "timer" : record.getClass().getSimpleName();
    }

    private static byte[] key(Object record) {
        String key = record instanceof StreamRecord s ? s.streamId() : null;
        return key == null ? null : key.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(Object record) {
        if (record == null) {
            return null;
        }
        try {
            return Json.MAPPER.writeValueAsBytes(record);
        } catch (Exception | StackOverflowError e) {
            // A record Jackson cannot write is still kept, as the text Java gives it.
            return String.valueOf(record).getBytes(StandardCharsets.UTF_8);
        }
    }
}
