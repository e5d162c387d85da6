package io.videoworld.query.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.videoworld.query.api.ToolDispatcher;
import io.videoworld.query.auth.Auth;
import io.videoworld.query.auth.Caller;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * MCP's streamable HTTP transport (the SDK's servlet) at {@link #PATH}, behind the same bearer
 * tokens as {@code /v1}: a request without a known token is a 401 before the protocol sees it,
 * and the caller it names rides in the transport context to every tool call.
 */
public final class McpHttp extends HttpServlet implements AutoCloseable {
    /** Where the query service serves MCP. */
    public static final String PATH = "/mcp";

    private final transient Auth auth;
    private final transient HttpServletStreamableServerTransportProvider transport;
    private final transient McpSyncServer server;

    /** MCP over the tools of {@code dispatcher}, for the callers {@code auth} knows; requests over {@code maxBodyBytes} are refused. */
    public McpHttp(Auth auth, ToolDispatcher dispatcher, int maxBodyBytes) {
        this.auth = auth;
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
        req.setAttribute(McpTools.CALLER, caller.get());
        transport.service(req, resp);
    }

    /** Ends the open sessions. */
    @Override
    public void close() {
        server.closeGracefully();
    }
}
