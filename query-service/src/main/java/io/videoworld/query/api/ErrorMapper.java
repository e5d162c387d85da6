package io.videoworld.query.api;

import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.transport.TransportException;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.javalin.http.Context;
import java.io.EOFException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.io.EofException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where an exception becomes an HTTP answer. What the client got wrong is a 4xx
 * saying what; what went wrong inside is a 500 (or a 503 for a backend that is down) saying only
 * "logged as &lt;id&gt;", with the details under that id in the log. Messages never carry Java
 * class names or stack traces.
 */
public final class ErrorMapper {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorMapper.class);
    /** What a message must not show: qualified class names, exception class names, stack frames. */
    public static final Pattern INTERNALS = Pattern.compile("\\b(java|javax|jakarta|com|org|io|co|sun|kotlin)\\.[a-z]\\w*\\.|[A-Z]\\w*(Exception|Error)\\b|\\tat ");

    /** An error answer: HTTP status and the JSON error object's fields. */
    public record Answer(int status, String code, String field, String message) {}

    /** The body of every error answer: {@code {"error": {...}}}. */
    public record Body(Detail error) {}

    /** What went wrong: a code, a message, and the offending field's path when there is one. */
    public record Detail(String code, String message, String field) {}

    private ErrorMapper() {}

    /** Writes the answer for {@code e} on {@code ctx}, logging whatever the client is not told. */
    public static void respond(Exception e, Context ctx) {
        write(ctx, answer(e, ctx.method() + " " + ctx.path()));
    }

    /** Writes an error answer as {@code {"error": {code, message, field}}}. */
    public static void write(Context ctx, Answer a) {
        ctx.status(a.status()).json(new Body(new Detail(a.code(), a.message(), a.field())));
    }

    /** The answer for an exception thrown while serving {@code what} (method and path, for the log). */
    public static Answer answer(Throwable e, String what) {
        if (e instanceof ApiException api) {
            return new Answer(api.status(), api.code(), api.field(), api.getMessage());
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ApiException api) {
                return new Answer(api.status(), api.code(), api.field(), api.getMessage());
            }
            if (t instanceof ElasticsearchException es) {
                return elasticsearch(es.status(), es, what);
            }
            if (t instanceof TransportException tx && tx.statusCode() >= 400) {
                return elasticsearch(tx.statusCode(), tx, what);
            }
            if (t instanceof ConnectException || t instanceof TransportException) {
                String id = logged(e, what, false);
                return new Answer(503, "unavailable", null, "a service this request needs (Elasticsearch or a model) "
                        + "is unreachable; try again (logged as " + id + ")");
            }
        }
        ApiException framing = framing(e);
        if (framing != null) {
            return answer(framing, what);
        }
        String id = logged(e, what, true);
        return new Answer(500, "internal", null, "internal error (logged as " + id + ")");
    }

    /**
     * A failure to read the request itself (broken chunking, a body shorter than its
     * Content-Length, a stalled upload, JSON the parser refuses) as the 4xx it is, or null when
     * {@code e} is not one. Jetty raises these from the body's input stream, which Javalin would
     * otherwise answer with an empty 500.
     */
    public static ApiException framing(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof BadMessageException bad) {
                String reason = bad.getReason() == null ? null : safe(bad.getReason());
                int code = bad.getCode() >= 400 && bad.getCode() < 500 ? bad.getCode() : 400;
                return new ApiException(code, "malformed_request", null, "malformed HTTP request"
                        + (reason == null ? "" : ": " + reason));
            }
            if (t instanceof TimeoutException) {
                return new ApiException(408, "timeout", null, "the request body stopped arriving before it was complete");
            }
            if (t instanceof EofException || t instanceof EOFException || t instanceof ClosedChannelException) {
                return new ApiException(400, "malformed_request", null,
                        "the request body ended before its declared length (Content-Length or chunking)");
            }
            if (t instanceof JsonProcessingException json) {
                String reason = safe(json.getOriginalMessage());
                return ApiException.badField(null, "request body is not valid JSON" + (reason == null ? "" : ": " + reason));
            }
        }
        return null;
    }

    private static Answer elasticsearch(int status, Throwable es, String what) {
        if (status == 400) {
            // Elasticsearch refuses a query it cannot run (a term past its length limit, too many
            // clauses, text it cannot parse): the request's input is at fault, not the service.
            String id = logged(es, what, false);
            return new Answer(400, "invalid_argument", null,
                    "the search this request asks for was refused by Elasticsearch as invalid; shorten or simplify its text (logged as " + id + ")");
        }
        if (status == 404) {
            return new Answer(404, "not_found", null, "nothing this request names is indexed yet");
        }
        if (status == 429) {
            return new Answer(429, "busy", null, "Elasticsearch is busy; try again shortly");
        }
        String id = logged(es, what, false);
        return new Answer(503, "unavailable", null, "Elasticsearch could not answer; try again (logged as " + id + ")");
    }

    /** Text from a library that may go into a message, or null when it shows internals. */
    public static String safe(String text) {
        if (text == null) {
            return null;
        }
        // Jackson appends how to configure itself ("enable `JsonReadFeature...`") and where its
        // input came from ("[Source: REDACTED ...]"): neither means anything to a client.
        for (String tail : new String[] {"`", "[Source", " (start marker"}) {
            int at = text.indexOf(tail);
            if (at >= 0) {
                text = text.substring(0, at).replaceAll("[\\s:;,(]*(enable|disable)?[\\s:;,(]*$", "");
            }
        }
        if (text.isBlank() || INTERNALS.matcher(text).find()) {
            return null;
        }
        return ApiException.quote(text.replaceAll("\\s+", " ").strip());
    }

    private static String logged(Throwable e, String what, boolean error) {
        String id = Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 32 | 0x1_0000_0000L).substring(1);
        if (error) {
            LOG.error("error {} on {}", id, what, e);
        } else {
            LOG.warn("error {} on {}: {}", id, what, e.toString());
        }
        return id;
    }
}
