package io.videoworld.query.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.Args;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code /v1/ask} body: {@code question}, {@code stream_ids} (or {@code video_ids}), optional
 * {@code time_range} {start_time, end_time} in seconds, optional {@code budget} {max_steps 1-10,
 * max_clips 1-5}, optional {@code stream} (server-sent events).
 */
record AskRequest(String question, List<String> streams, double from, double to, int maxSteps, int maxClips, boolean sse) {
    static final int MAX_STEPS = 10;
    static final int MAX_CLIPS = 5;

    static AskRequest parse(JsonNode body) {
        Args args = Args.of(body);
        String question = args.requiredString("question");
        if (question.length() > 4000) {
            throw ApiException.badField("question", "'question' must be at most 4000 characters");
        }
        String field = body.has("stream_ids") ? "stream_ids" : "video_ids";
        JsonNode list = body.get(field);
        if (list == null || !list.isArray() || list.isEmpty() || list.size() > 20) {
            throw ApiException.badField("stream_ids", "'stream_ids' must be a list of 1 to 20 stream ids");
        }
        List<String> streams = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (!list.get(i).isTextual() || list.get(i).asText().isBlank()) {
                throw ApiException.badField(field + "[" + i + "]", "'" + field + "[" + i + "]' must be a stream id");
            }
            streams.add(list.get(i).asText());
        }
        double[] range = args.optionalTimeRange("time_range");
        double from = range[0];
        double to = range[1];
        Args budget = args.optionalObject("budget").orElse(null);
        int steps = budget == null ? MAX_STEPS : budget.optionalInt("max_steps", 1, MAX_STEPS).orElse(MAX_STEPS);
        int clips = budget == null ? MAX_CLIPS : budget.optionalInt("max_clips", 1, MAX_CLIPS).orElse(MAX_CLIPS);
        boolean sse = body.path("stream").asBoolean(false);
        return new AskRequest(question, List.copyOf(streams), from, to, steps, clips, sse);
    }

    /** Counting questions watch every chosen clip before answering (seed 003). */
    boolean counting() {
        String q = question.toLowerCase(java.util.Locale.ROOT);
        return q.contains("how many") || q.contains("how often") || q.contains("number of") || q.contains("count");
    }
}
