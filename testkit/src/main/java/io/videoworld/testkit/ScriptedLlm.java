package io.videoworld.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A real OpenAI-compatible HTTP server that answers {@code POST /v1/chat/completions} from a
 * script: the stand-in for a language model in tests, since no model weights can be had here.
 * Each request is recorded; each answer comes from the responder, which sees the request.
 */
public final class ScriptedLlm implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One scripted answer: an assistant message, or an HTTP error status. */
    public record Reply(int status, String content, List<String[]> toolCalls, long delayMs) {
        /** The assistant says {@code text}. */
        public static Reply text(String text) {
            return new Reply(200, text, List.of(), 0);
        }

        /** The assistant calls a tool: name and JSON arguments text. */
        public static Reply toolCall(String name, String argumentsJson) {
            return new Reply(200, null, List.<String[]>of(new String[] {name, argumentsJson}), 0);
        }

        /** The endpoint fails with this status. */
        public static Reply error(int status) {
            return new Reply(status, "scripted failure", List.of(), 0);
        }

        /** The same reply, sent only after {@code ms} milliseconds. */
        public Reply after(long ms) {
            return new Reply(status, content, toolCalls, ms);
        }
    }

    private final HttpServer server;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private volatile Function<JsonNode, Reply> responder = r -> Reply.error(500);

    private ScriptedLlm(HttpServer server) {
        this.server = server;
    }

    public static ScriptedLlm start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ScriptedLlm llm = new ScriptedLlm(server);
        server.createContext("/v1/chat/completions", llm::handle);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        return llm;
    }

    /** Base URL to configure the client with, ending in {@code /v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** Answers every request with {@code responder(request)}. */
    public void respondWith(Function<JsonNode, Reply> responder) {
        this.responder = responder;
    }

    /** Answers requests with these replies in order (then fails with 500). */
    public void script(Reply... replies) {
        List<Reply> queue = new ArrayList<>(List.of(replies));
        respondWith(r -> {
            synchronized (queue) {
                return queue.isEmpty() ? Reply.error(500) : queue.remove(0);
            }
        });
    }

    /** Every request body received, in order. */
    public List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    private void handle(HttpExchange ex) throws IOException {
        JsonNode request = JSON.readTree(ex.getRequestBody().readAllBytes());
        requests.add(request);
        Reply reply = responder.apply(request);
        if (reply.delayMs() > 0) {
            try {
                Thread.sleep(reply.delayMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] body;
        if (reply.status() != 200) {
            body = ("{\"error\":{\"message\":\"" + reply.content() + "\"}}").getBytes(StandardCharsets.UTF_8);
        } else {
            ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-" + requests.size()).put("object", "chat.completion");
            ObjectNode message = root.putArray("choices").addObject().put("index", 0)
                    .put("finish_reason", reply.toolCalls().isEmpty() ? "stop" : "tool_calls").putObject("message");
            message.put("role", "assistant");
            if (reply.content() == null) {
                message.putNull("content");
            } else {
                message.put("content", reply.content());
            }
            if (!reply.toolCalls().isEmpty()) {
                ArrayNode calls = message.putArray("tool_calls");
                int i = 0;
                for (String[] call : reply.toolCalls()) {
                    calls.addObject().put("id", "call_" + requests.size() + "_" + i++).put("type", "function")
                            .putObject("function").put("name", call[0]).put("arguments", call[1]);
                }
            }
            root.putObject("usage").put("prompt_tokens", request.toString().length() / 4)
                    .put("completion_tokens", reply.content() == null ? 10 : reply.content().length() / 4);
            body = JSON.writeValueAsBytes(root);
        }
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(reply.status(), body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
