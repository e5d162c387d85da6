package io.videoworld.query.live;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.core.Json;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A server-sent events client for tests: parses the response into events on a queue, on its own thread. */
final class SseReader implements AutoCloseable {
    /** One event as received. */
    record Event(String id, String name, JsonNode data) {}

    final int status;
    final String body;
    private final InputStream in;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

    SseReader(HttpClient http, String url, String lastEventId) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url)).header("Accept", "text/event-stream");
        if (lastEventId != null) {
            req.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> r = http.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
        status = r.statusCode();
        in = r.body();
        if (status != 200) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return;
        }
        body = null;
        Thread t = new Thread(this::read, "sse-reader");
        t.setDaemon(true);
        t.start();
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String id = null;
            String name = null;
            String data = null;
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isEmpty()) {
                    if (data != null) {
                        events.add(new Event(id, name, Json.MAPPER.readTree(data)));
                    }
                    id = name = data = null;
                } else if (line.startsWith("id: ")) {
                    id = line.substring(4);
                } else if (line.startsWith("event: ")) {
                    name = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
        } catch (Exception closed) {
            // The test closed the stream.
        }
    }

    /** The next event, failing the test when none comes in time. */
    Event next(Duration within) throws InterruptedException {
        Event e = events.poll(within.toMillis(), TimeUnit.MILLISECONDS);
        if (e == null) {
            throw new AssertionError("no event within " + within);
        }
        return e;
    }

    /** The next event, or null if none comes in time. */
    Event poll(Duration within) throws InterruptedException {
        return events.poll(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws Exception {
        in.close();
    }
}
