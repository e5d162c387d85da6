package io.videoworld.query;

import io.javalin.http.Context;
import io.videoworld.core.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Server-sent events on one response: each event a name and one line of JSON data, flushed as it is sent. */
final class EventStream {
    private final OutputStream out;

    private EventStream(OutputStream out) {
        this.out = out;
    }

    /** Turns the response into an event stream; nothing can be answered as plain JSON after this. */
    static EventStream open(Context ctx) throws IOException {
        ctx.contentType("text/event-stream");
        ctx.header("Cache-Control", "no-cache");
        return new EventStream(ctx.res().getOutputStream());
    }

    /** Sends one event; a client gone away is an {@link UncheckedIOException}, which ends the answer. */
    void send(String event, Object data) {
        send(null, event, data);
    }

    /** Sends one event with an id, which the client sends back as {@code Last-Event-ID} when it reconnects. */
    void send(String id, String event, Object data) {
        try {
            write((id == null ? "" : "id: " + id + "\n") + "event: " + event + "\ndata: " + Json.MAPPER.writeValueAsString(data) + "\n\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A comment line: ignored by clients, it keeps an idle connection open and finds one that has gone. */
    void comment(String text) {
        try {
            write(": " + text + "\n\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
