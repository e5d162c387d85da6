package io.videoworld.query.api;

/**
 * A request the service answers with a 4xx/5xx and a JSON error naming what was wrong:
 * {@code {"error": {"code", "message", "field"}}}.
 */
public class ApiException extends RuntimeException {
    private final int status;
    private final String code;
    private final String field;

    public ApiException(int status, String code, String field, String message) {
        super(message);
        this.status = status;
        this.code = code;
        this.field = field;
    }

    public static ApiException badField(String field, String message) {
        return new ApiException(400, "invalid_argument", field, message);
    }

    public static ApiException notFound(String field, String message) {
        return new ApiException(404, "not_found", field, message);
    }

    /** A 413 naming the limit a request went past. */
    public static ApiException tooLarge(String field, String message) {
        return new ApiException(413, "too_large", field, message);
    }

    /**
     * Client text to echo in a message, cut to 80 characters so an error never carries a
     * request's megabytes back.
     */
    public static String quote(String text) {
        return text == null || text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String field() {
        return field;
    }
}
