package io.videoworld.query.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.videoworld.core.Json;
import io.videoworld.query.api.ErrorMapper;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Auth;
import io.videoworld.query.auth.Caller;
import io.videoworld.query.limits.LimitExceeded;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * MCP's streamable HTTP transport (the SDK's servlet) at {@link #PATH}, behind the same bearer
 * tokens as {@code /v1}: a request without a known token is a 401 before the protocol sees it,
 * and the caller it names rides in the transport context to every tool call.
 */
public final class McpHttp extends HttpServlet implements AutoCloseable {
    /** Where the query service serves MCP. */
    public static final String PATH = "/mcp";

    private final transient Auth auth;
    private final transient Consumer<String> admit;
    private final transient HttpServletStreamableServerTransportProvider transport;
    private final transient McpSyncServer server;

    /** MCP over the tools of {@code dispatcher}, for the callers {@code auth} knows; requests over {@code maxBodyBytes} are refused. */
    public McpHttp(Auth auth, ToolDispatcher dispatcher, int maxBodyBytes) {
        this(auth, dispatcher, maxBodyBytes, caller -> {});
    }

    /**
     * The same, with {@code admit} counting each request against its caller's rate limit (named
     * {@code token:NAME}, or {@code ip:ADDRESS} while authentication is off); it throws
     * {@link LimitExceeded} to refuse, answered 429 with {@code Retry-After}.
     */
    public McpHttp(Auth auth, ToolDispatcher dispatcher, int maxBodyBytes, Consumer<String> admit) {
        this.auth = auth;
        this.admit = admit;
        this.transport = HttpServletStreamableServerTransportProvider.builder().jsonMapper(McpTools.jsonMapper()).mcpEndpoint(PATH)
                .maxRequestSize(maxBodyBytes)
                .contextExtractor(req -> McpTransportContext.create(Map.of(McpTools.CALLER, req.getAttribute(McpTools.CALLER))))
                .build();
        this.server = McpTools.serve(transport, dispatcher);
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException, jakarta.servlet.ServletException {
        Optional<Caller> caller = auth.authenticate(req.getHeader("Authorization"));
        if (caller.isEmpty()) {
            resp.setStatus(401);
            resp.setHeader("WWW-Authenticate", "Bearer");
            resp.setContentType("application/json");
            String why = req.getHeader("Authorization") == null ? "an Authorization: Bearer <token> header is required"
                    : "the bearer token is not known";
            resp.getOutputStream().write(("{\"error\":{\"code\":\"unauthorized\",\"message\":\"" + why + "\"}}")
                    .getBytes(StandardCharsets.UTF_8));
            return;
        }
        try {
            admit.accept(auth.enabled() ? "token:" + caller.get().name() : "ip:" + req.getRemoteAddr());
        } catch (LimitExceeded limit) {
            resp.setStatus(limit.status());
            resp.setHeader("Retry-After", Long.toString(limit.retryAfterSeconds()));
            resp.setContentType("application/json");
            resp.getOutputStream().write(Json.MAPPER.writeValueAsBytes(new ErrorMapper.Body(new ErrorMapper.Detail(limit.code(),
                    limit.getMessage(), null))));
            return;
        }
        req.setAttribute(McpTools.CALLER, caller.get());
        transport.service(req, resp);
    }

    /** Ends the open sessions. */
    @Override
    public void close() {
        server.closeGracefully();
    }
}
