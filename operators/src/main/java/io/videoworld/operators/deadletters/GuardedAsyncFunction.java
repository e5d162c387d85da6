package io.videoworld.operators.deadletters;

import io.videoworld.core.DeadLetter;
import java.util.Collection;
import java.util.List;
import org.apache.flink.streaming.api.functions.async.CollectionSupplier;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

/**
 * An async stage whose requests that throw, or complete exceptionally, complete instead with the
 * subclass's dead-letter result (an async operator has no side output, so the result carries it to
 * a {@code SplitDeadLetters} after it); systemic failures still fail the task.
 *
 * @param <I> request
 * @param <O> result, able to carry a dead letter
 */
public abstract class GuardedAsyncFunction<I, O> extends RichAsyncFunction<I, O> implements Guarded {
    private final String stage;

    protected GuardedAsyncFunction(String stage) {
        this.stage = stage;
    }

    @Override
    public final String stage() {
        return stage;
    }

    /** The stage's work on one request; completes {@code result} now or later. */
    protected abstract void invoke(I request, ResultFuture<O> result) throws Exception;

    /** The result that carries {@code deadLetter} for {@code request}. */
    protected abstract O deadLettered(I request, DeadLetter deadLetter);

    /** The request's event time, for its dead letter. */
    protected abstract long eventTimeMs(I request);

    @Override
    public final void asyncInvoke(I request, ResultFuture<O> result) {
        ResultFuture<O> guarded = new Guard(request, result);
        try {
            invoke(request, guarded);
        } catch (Exception | StackOverflowError e) {
            guarded.completeExceptionally(e);
        }
    }

    private final class Guard implements ResultFuture<O> {
        private final I request;
        private final ResultFuture<O> result;

        Guard(I request, ResultFuture<O> result) {
            this.request = request;
            this.result = result;
        }

        @Override
        public void complete(Collection<O> out) {
            result.complete(out);
        }

        @Override
        public void complete(CollectionSupplier<O> supplier) {
            result.complete(supplier);
        }

        @Override
        public void completeExceptionally(Throwable error) {
            if (Failures.isSystemic(error) || Failures.isFromDownstream(error)) {
                result.completeExceptionally(error);
                return;
            }
            result.complete(List.of(deadLettered(request, DeadLetters.of(stage, request, error, eventTimeMs(request)))));
        }
    }
}
