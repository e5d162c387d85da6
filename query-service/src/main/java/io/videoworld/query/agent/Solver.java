package io.videoworld.query.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.videoworld.clients.llm.ChatMessage;
import io.videoworld.clients.llm.LlmClient;
import io.videoworld.clients.llm.LlmException;
import io.videoworld.core.Json;
import io.videoworld.query.api.ApiException;
import io.videoworld.query.api.ErrorMapper;
import io.videoworld.query.api.ToolCatalog;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Caller;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 002's Solver: one stateful conversation. Each turn it thinks, then either calls tools
 * (run through the dispatcher with the asker's rights; errors and unknown tools come back to it
 * as tool results) or emits a JSON action. Invalid JSON gets the seed's error message.
 */
final class Solver {
    /** What a turn ended with. */
    sealed interface Turn permits Retrieve, Answer, Continue {}

    /** Fetch {@code count} more frames, optionally with a focus. */
    record Retrieve(int count, String focus) implements Turn {}

    /** An answer, and the checker's score once judged (0 before). */
    record Answer(String finalAnswer, String explanation, int score) implements Turn {
        Answer withScore(int s) {
            return new Answer(finalAnswer, explanation, s);
        }
    }

    /** Tool calls were made or the reply was unusable; the conversation continues. */
    record Continue() implements Turn {}

    private final LlmClient llm;
    private final ToolDispatcher tools;
    private final Caller caller;
    private final Trace trace;
    private final List<ChatMessage> messages = new ArrayList<>();
    private final List<LlmClient.ToolSpec> specs = new ArrayList<>();

    Solver(LlmClient llm, ToolDispatcher tools, Caller caller, Trace trace) {
        this.llm = llm;
        this.tools = tools;
        this.caller = caller;
        this.trace = trace;
        for (ToolCatalog.ToolDef t : tools.catalog().all()) {
            if (tools.available().contains(t.name())) {
                specs.add(new LlmClient.ToolSpec(t.name(), t.description(), t.parameters()));
            }
        }
    }

    void start(String question, String memory, Reasoner.Outcome reasoned) {
        StringBuilder sb = new StringBuilder("Question: ").append(question).append("\n\nMemory:\n").append(memory);
        if (!reasoned.summaries().isEmpty()) {
            sb.append("\nClips watched:\n").append(String.join("\n", reasoned.summaries()));
        }
        if (reasoned.answer() != null) {
            sb.append("\nA first reading of the clips suggests: ").append(reasoned.answer());
        }
        messages.add(ChatMessage.system(Prompts.SOLVER));
        messages.add(ChatMessage.user(sb.toString()));
    }

    /** Adds a system notification or feedback as a user message, as seed 002 says. */
    void tell(String text) {
        messages.add(ChatMessage.user(text));
    }

    Turn turn(int step) throws IOException, LlmException {
        ChatMessage reply = llm.chat(messages, specs, false);
        messages.add(reply);
        if (!reply.toolCalls().isEmpty()) {
            for (ChatMessage.ToolCall call : reply.toolCalls()) {
                messages.add(ChatMessage.toolResult(call.id(), runTool(step, call)));
            }
            return new Continue();
        }
        JsonNode action = JsonBlocks.lastObject(reply.content()).orElse(null);
        String type = action == null ? "" : action.path("action_type").asText();
        JsonNode payload = action == null ? null : action.path("action_payload");
        if ("retrieve_more_frames".equals(type)) {
            int count = Math.max(1, Math.min(10, payload.path("count").asInt(5)));
            String focus = payload.path("focus").isTextual() ? payload.get("focus").asText() : null;
            trace.add("solver", Map.of("turn", step, "action", type, "thought", action.path("thought_summary").asText("")));
            return new Retrieve(count, focus);
        }
        if ("answer_question".equals(type) && payload.path("final_answer").isTextual()) {
            trace.add("solver", Map.of("turn", step, "action", type, "final_answer", payload.get("final_answer").asText(),
                    "thought", action.path("thought_summary").asText("")));
            return new Answer(payload.get("final_answer").asText(), payload.path("explanation").asText(""), 0);
        }
        trace.add("solver", Map.of("turn", step, "action", "invalid", "reply", reply.content()));
        tell(action == null ? Prompts.INVALID_JSON : Prompts.INVALID_JSON
                + " action_type must be retrieve_more_frames or answer_question, with the matching action_payload.");
        return new Continue();
    }

    private String runTool(int step, ChatMessage.ToolCall call) throws IOException {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("turn", step);
        entry.put("tool", call.name());
        entry.put("arguments", call.arguments());
        String result;
        try {
            JsonNode args = Json.MAPPER.readTree(call.arguments().isBlank() ? "{}" : call.arguments());
            result = Json.MAPPER.writeValueAsString(abbreviateImages(Json.MAPPER.valueToTree(tools.call(caller, call.name(), args))));
            entry.put("status", 200);
        } catch (ApiException e) {
            result = Json.MAPPER.writeValueAsString(new ErrorMapper.Body(new ErrorMapper.Detail(e.code(), e.getMessage(), null)));
            entry.put("status", e.status());
            entry.put("error", e.getMessage());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            result = "{\"error\":{\"code\":\"invalid_arguments\",\"message\":\"the arguments are not valid JSON\"}}";
            entry.put("status", 400);
            entry.put("error", "arguments are not valid JSON");
        }
        trace.add("tool_call", entry);
        return result;
    }

    /** Base64 images would swamp a text model's context; tool results keep their frame ids and URLs instead. */
    private static JsonNode abbreviateImages(JsonNode node) {
        if (node.isObject()) {
            var obj = (com.fasterxml.jackson.databind.node.ObjectNode) node;
            if (obj.has("image_data")) {
                obj.put("image_data", "(image omitted; fetch it by frame_id)");
            }
            obj.elements().forEachRemaining(Solver::abbreviateImages);
        } else if (node.isArray()) {
            node.elements().forEachRemaining(Solver::abbreviateImages);
        }
        return node;
    }
}
