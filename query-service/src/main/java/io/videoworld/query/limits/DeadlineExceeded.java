package io.videoworld.query.limits;

import io.videoworld.query.api.ApiException;

/** A JSON answer that took longer than the request deadline: 504 naming the deadline. */
public final class DeadlineExceeded extends ApiException {
    public DeadlineExceeded(long deadlineMs) {
        super(504, "deadline_exceeded", null, "the answer took longer than the request deadline of "
                + (deadlineMs % 1000 == 0 ? deadlineMs / 1000 + " s" : deadlineMs + " ms") + " (--request-deadline); narrow the request or retry");
    }
}
