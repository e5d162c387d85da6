package io.videoworld.query.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import io.videoworld.core.Json;
import io.videoworld.query.api.ErrorMapper;
import io.videoworld.query.api.ToolCatalog.ToolDef;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Caller;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The tool catalog over the Model Context Protocol: every tool the service can answer (those
 * {@code GET /v1/tools} lists as available), with its catalog description and JSON Schema, called
 * through the same {@link ToolDispatcher} as REST, so validation, the caller's streams and the
 * answers are the same. A refused call is a tool result with {@code isError} and the REST error
 * object ({@code {"error": {code, message, field, status}}}) as its text, so an agent can read and
 * correct it; an unknown tool is a protocol error, as MCP says.
 */
public final class McpTools {
    /** The transport-context key under which a transport puts the authenticated {@link Caller}. */
    public static final String CALLER = "videoworld.caller";
    static final String SERVER_NAME = "videoworld";
    static final String SERVER_VERSION = "0.1.0";
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

    private McpTools() {}

    /**
     * The SDK's own JSON binding over a plain Jackson 2 mapper: the protocol's field names must
     * not go through the project mapper's snake_case naming.
     */
    public static McpJsonMapper jsonMapper() {
        return new JacksonMcpJsonMapper(new ObjectMapper());
    }

    // Input validation is left to the dispatcher (validateToolInputs(false) below), so a bad argument gets the same
    // answer, naming the same field, as over REST, rather than the SDK's own schema validator's wording.

    /** A server for a stdio-like transport (one session) that calls the tools as {@code caller}. */
    public static McpSyncServer serve(McpServerTransportProvider transport, ToolDispatcher dispatcher, Caller caller) {
        return McpServer.sync(transport).serverInfo(SERVER_NAME, SERVER_VERSION).jsonMapper(jsonMapper())
                .validateToolInputs(false).capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .instructions(INSTRUCTIONS).tools(specifications(dispatcher, ctx -> caller)).build();
    }

    /** A server for streamable HTTP; each call's caller is the one the transport put in its context under {@link #CALLER}. */
    public static McpSyncServer serve(McpStreamableServerTransportProvider transport, ToolDispatcher dispatcher) {
        return McpServer.sync(transport).serverInfo(SERVER_NAME, SERVER_VERSION).jsonMapper(jsonMapper())
                .validateToolInputs(false).capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .instructions(INSTRUCTIONS).tools(specifications(dispatcher, ctx -> (Caller) ctx.get(CALLER))).build();
    }

    private static final String INSTRUCTIONS = "VideoWorld answers questions about indexed video and screen streams. "
            + "Times are seconds from the start of a stream (video_id). get_video_info and get_temporal_structure give the "
            + "layout; temporal_search finds moments by text; list_entities and track_entity follow objects.";

    /** One specification per available tool of the catalog, in catalog order. */
    static List<SyncToolSpecification> specifications(ToolDispatcher dispatcher, Function<McpTransportContext, Caller> callers) {
        return dispatcher.catalog().all().stream().filter(d -> dispatcher.available().contains(d.name()))
                .map(d -> SyncToolSpecification.builder().tool(tool(d))
                        .callHandler((exchange, request) -> call(dispatcher, callers.apply(exchange.transportContext()), d.name(),
                                request.arguments()))
                        .build())
                .toList();
    }

    private static McpSchema.Tool tool(ToolDef d) {
        String title = d.aliases().isEmpty() ? d.name() : d.name() + " (also " + String.join(", ", d.aliases()) + ")";
        return McpSchema.Tool.builder().name(d.name()).title(title).description(d.description())
                .inputSchema(Json.MAPPER.convertValue(d.parameters(), MAP))
                .annotations(new McpSchema.ToolAnnotations(null, readOnly(d.name()), false, true, false, null)).build();
    }

    /** Only the memory and entity writers change what is stored. */
    private static boolean readOnly(String name) {
        return !List.of("write_memory", "merge_events", "register_entity").contains(name);
    }

    /** Runs one call as REST would and wraps the answer (or the refusal) as a tool result. */
    static McpSchema.CallToolResult call(ToolDispatcher dispatcher, Caller caller, String name, Map<String, Object> arguments) {
        try {
            JsonNode body = Json.MAPPER.valueToTree(arguments == null ? Map.of() : arguments);
            JsonNode answer = Json.MAPPER.valueToTree(dispatcher.call(caller, name, body));
            McpSchema.CallToolResult.Builder r = McpSchema.CallToolResult.builder().addTextContent(Json.MAPPER.writeValueAsString(answer))
                    .isError(false);
            if (answer.isObject()) {
                r.structuredContent(Json.MAPPER.convertValue(answer, MAP));
            }
            return r.build();
        } catch (Exception e) {
            ErrorMapper.Answer a = ErrorMapper.answer(e, "MCP tools/call " + name);
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("code", a.code());
            error.put("message", a.message());
            if (a.field() != null) {
                error.put("field", a.field());
            }
            error.put("status", a.status());
            Map<String, Object> wrapped = Map.of("error", error);
            return McpSchema.CallToolResult.builder().addTextContent(text(wrapped)).structuredContent(wrapped).isError(true).build();
        }
    }

    private static String text(Object o) {
        try {
            return Json.MAPPER.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
