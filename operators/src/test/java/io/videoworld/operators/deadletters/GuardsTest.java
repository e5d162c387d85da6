package io.videoworld.operators.deadletters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.videoworld.core.DeadLetter;
import io.videoworld.core.StreamRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.async.CollectionSupplier;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.tasks.ExceptionInChainedOperatorException;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/** The guards: a record's exception becomes its dead letter and the stage goes on; systemic and downstream failures pass. */
class GuardsTest {
    /** A record of the test: a stream and a number. */
    record Item(String streamId, long n) implements StreamRecord {
        @Override
        public String position() {
            return "item " + n;
        }
    }

    /** Keeps a running sum per stream; throws on n = 13, arms a timer that throws when n = 7 was seen. */
    static final class Summing extends GuardedKeyedProcessFunction<String, Item, Long> {
        private transient ValueState<Long> sum;
        private transient ValueState<Long> timer;

        Summing() {
            super("summing");
        }

        @Override
        public void open(OpenContext ctx) {
            sum = getRuntimeContext().getState(new ValueStateDescriptor<>("sum", Types.LONG));
            timer = getRuntimeContext().getState(new ValueStateDescriptor<>("timer", Types.LONG));
        }

        @Override
        protected void process(Item in, Context ctx, Collector<Long> out) throws Exception {
            if (in.n() == 13) {
                throw new IllegalArgumentException("thirteen");
            }
            if (in.n() == -1) {
                throw new UncheckedIOException(new IOException("disk full"));
            }
            long s = (sum.value() == null ? 0 : sum.value()) + in.n();
            sum.update(s);
            out.collect(s);
            if (in.n() == 7 && timer.value() == null) {
                ctx.timerService().registerEventTimeTimer(100);
                ctx.timerService().registerEventTimeTimer(10_000);
                timer.update(10_000L);
            }
        }

        @Override
        protected void timer(long timestamp, OnTimerContext ctx, Collector<Long> out) {
            throw new ArithmeticException("timer at " + timestamp);
        }

        @Override
        protected void forget(OnTimerContext ctx) throws Exception {
            Long pending = timer.value();
            if (pending != null) {
                ctx.timerService().deleteEventTimeTimer(pending);
            }
            sum.clear();
            timer.clear();
        }
    }

    @Test
    void aRecordThatThrowsIsDeadLetteredOnceAndTheStageGoesOn() throws Exception {
        try (var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new Summing()), Item::streamId, Types.STRING)) {
            h.open();
            h.processElement(new Item("cam-1", 2), 5);
            h.processElement(new Item("cam-1", 13), 6);
            h.processElement(new Item("cam-1", 3), 7);
            assertThat(h.extractOutputValues()).containsExactly(2L, 5L);
            List<DeadLetter> dead = values(h.getSideOutput(DeadLetters.TAG));
            assertThat(dead).hasSize(1);
            DeadLetter d = dead.get(0);
            assertThat(d.stage()).isEqualTo("summing");
            assertThat(d.reason()).startsWith("summing threw IllegalArgumentException: thirteen (at GuardsTest$Summing.process:");
            assertThat(d.origin()).isEqualTo("cam-1#item 13");
            assertThat(d.timestampMs()).isEqualTo(6);
            assertThat(new String(d.key(), StandardCharsets.UTF_8)).isEqualTo("cam-1");
            assertThat(new String(d.value(), StandardCharsets.UTF_8)).isEqualTo("{\"stream_id\":\"cam-1\",\"n\":13}");
        }
    }

    @Test
    void aTimerThatThrowsIsDeadLetteredAndItsKeyForgottenLeavingNoStateOrTimers() throws Exception {
        try (var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new Summing()), Item::streamId, Types.STRING)) {
            h.open();
            h.processElement(new Item("cam-2", 7), 50);
            assertThat(h.numEventTimeTimers()).isEqualTo(2);
            h.processWatermark(200);
            List<DeadLetter> dead = values(h.getSideOutput(DeadLetters.TAG));
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).origin()).isEqualTo("cam-2#timer@100");
            assertThat(dead.get(0).reason()).contains("ArithmeticException: timer at 100");
            assertThat(h.numKeyedStateEntries()).isZero();
            assertThat(h.numEventTimeTimers()).as("the other timer of the forgotten key is gone too").isZero();
        }
    }

    @Test
    void systemicFailuresStillFailTheTask() throws Exception {
        try (var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new Summing()), Item::streamId, Types.STRING)) {
            h.open();
            assertThatThrownBy(() -> h.processElement(new Item("cam-3", -1), 1)).isInstanceOf(UncheckedIOException.class);
            assertThat(h.getSideOutput(DeadLetters.TAG)).isNull();
        }
    }

    @Test
    void aFailureFromAChainedStageIsNotBlamedOnThisRecord() throws Exception {
        GuardedProcessFunction<Item, Item> passOn = Stages.map("pass-on", i -> {
            throw new ExceptionInChainedOperatorException(new IllegalStateException("the next stage failed"));
        });
        try (var h = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(passOn))) {
            h.open();
            assertThatThrownBy(() -> h.processElement(new Item("cam-4", 1), 1)).isInstanceOf(ExceptionInChainedOperatorException.class);
        }
    }

    @Test
    void stagesMadeFromFunctionsAreGuardedToo() throws Exception {
        try (var h = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(Stages.filter("odd", (Item i) -> 10 / (i.n() % 2) > 0)))) {
            h.open();
            h.processElement(new Item("cam-5", 3), 1);
            h.processElement(new Item("cam-5", 4), 2);
            assertThat(h.extractOutputValues()).containsExactly(new Item("cam-5", 3));
            assertThat(values(h.getSideOutput(DeadLetters.TAG))).singleElement()
                    .satisfies(d -> assertThat(d.reason()).startsWith("odd threw ArithmeticException: / by zero (at GuardsTest."));
        }
    }

    /** Doubles a number later; throws for 13, fails for 0, and for -1 as Elasticsearch being down. */
    static final class Doubling extends GuardedAsyncFunction<Item, Item[]> {
        Doubling() {
            super("doubling");
        }

        @Override
        protected void invoke(Item in, ResultFuture<Item[]> result) throws Exception {
            if (in.n() == 13) {
                throw new IllegalStateException("unlucky");
            }
            if (in.n() == -1) {
                result.completeExceptionally(new IOException("connection refused"));
                return;
            }
            if (in.n() == 0) {
                result.completeExceptionally(new NumberFormatException("zero"));
                return;
            }
            result.complete(List.<Item[]>of(new Item[] {new Item(in.streamId(), in.n() * 2)}));
        }

        @Override
        protected Item[] deadLettered(Item in, DeadLetter d) {
            return new Item[] {null, new Item(d.reason(), -in.n())};
        }

        @Override
        protected long eventTimeMs(Item in) {
            return in.n();
        }
    }

    @Test
    void anAsyncStageCompletesWithTheDeadLetterInsteadOfFailing() {
        Doubling f = new Doubling();
        assertThat(run(f, new Item("s", 4)).result[0]).isEqualTo(new Item("s", 8));
        Item[] unlucky = run(f, new Item("s", 13)).result;
        assertThat(unlucky[0]).isNull();
        assertThat(unlucky[1].streamId()).startsWith("doubling threw IllegalStateException: unlucky");
        assertThat(run(f, new Item("s", 0)).result[1].streamId()).startsWith("doubling threw NumberFormatException: zero");
        Captured down = run(f, new Item("s", -1));
        assertThat(down.result).isNull();
        assertThat(down.error).isInstanceOf(IOException.class);
    }

    @Test
    void failuresAreToldApart() {
        assertThat(Failures.isSystemic(new IllegalArgumentException("x"))).isFalse();
        assertThat(Failures.isSystemic(new RuntimeException(new IOException("down")))).isTrue();
        assertThat(Failures.isSystemic(new OutOfMemoryError())).isTrue();
        assertThat(Failures.isSystemic(new StackOverflowError())).isFalse();
        assertThat(Failures.isSystemic(new SystemicException("model missing"))).isTrue();
        assertThat(Failures.isSystemic(new InterruptedException())).isTrue();
        assertThat(Failures.describe(new IllegalStateException("a\nb\tc"))).startsWith("IllegalStateException: a b c (at GuardsTest.");
        assertThat(Failures.describe(new IllegalStateException("x".repeat(5000)))).hasSize(1003);
    }

    private static final class Captured implements ResultFuture<Item[]> {
        Item[] result;
        Throwable error;

        @Override
        public void complete(Collection<Item[]> out) {
            result = out.iterator().next();
        }

        @Override
        public void complete(CollectionSupplier<Item[]> supplier) {
            try {
                complete(supplier.get());
            } catch (Exception e) {
                error = e;
            }
        }

        @Override
        public void completeExceptionally(Throwable e) {
            error = e;
        }
    }

    private static Captured run(Doubling f, Item in) {
        Captured c = new Captured();
        f.asyncInvoke(in, c);
        return c;
    }

    private static <T> List<T> values(Collection<org.apache.flink.streaming.runtime.streamrecord.StreamRecord<T>> records) {
        List<T> out = new ArrayList<>();
        if (records != null) {
            records.forEach(r -> out.add(r.getValue()));
        }
        return out;
    }
}
