package io.videoworld.clients.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.videoworld.core.Json;
import java.util.List;

/**
 * One chat message in the OpenAI wire shape, kept as JSON so assistant messages with tool calls
 * go back to the model exactly as they came.
 */
public record ChatMessage(JsonNode json) {

    public static ChatMessage system(String text) {
        return text("system", text);
    }

    public static ChatMessage user(String text) {
        return text("user", text);
    }

    /** A user message with images, each a JPEG sent as a base64 data URL (for vision models). */
    public static ChatMessage userWithImages(String text, List<byte[]> jpegs) {
        ObjectNode m = Json.MAPPER.createObjectNode().put("role", "user");
        ArrayNode parts = m.putArray("content");
        parts.addObject().put("type", "text").put("text", text);
        for (byte[] jpeg : jpegs) {
            parts.addObject().put("type", "image_url").putObject("image_url")
                    .put("url", "data:image/jpeg;base64," + java.util.Base64.getEncoder().encodeToString(jpeg));
        }
        return new ChatMessage(m);
    }

    /** The result of a tool call, answering the assistant's call with that id. */
    public static ChatMessage toolResult(String toolCallId, String content) {
        return new ChatMessage(Json.MAPPER.createObjectNode().put("role", "tool").put("tool_call_id", toolCallId)
                .put("content", content));
    }

    private static ChatMessage text(String role, String text) {
        return new ChatMessage(Json.MAPPER.createObjectNode().put("role", role).put("content", text));
    }

    public String role() {
        return json.path("role").asText();
    }

    /** The text content ("" when the message only calls tools). */
    public String content() {
        JsonNode c = json.get("content");
        return c == null || c.isNull() ? "" : c.isTextual() ? c.asText() : c.toString();
    }

    /** Tool calls of an assistant message, possibly none. */
    public List<ToolCall> toolCalls() {
        JsonNode calls = json.get("tool_calls");
        if (calls == null || !calls.isArray()) {
            return List.of();
        }
        java.util.ArrayList<ToolCall> out = new java.util.ArrayList<>();
        for (JsonNode c : calls) {
            out.add(new ToolCall(c.path("id").asText(), c.path("function").path("name").asText(),
                    c.path("function").path("arguments").asText("{}")));
        }
        return out;
    }

    /** A function call the model asked for; {@code arguments} is the raw JSON text it wrote. */
    public record ToolCall(String id, String name, String arguments) {}
}
