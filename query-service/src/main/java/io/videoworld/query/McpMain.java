package io.videoworld.query;

import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.videoworld.query.auth.Caller;
import io.videoworld.query.mcp.McpTools;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;

/**
 * {@code bin/videoworld mcp}: the tools over MCP on stdin/stdout, for a local agent that starts
 * the process. Standard output carries the protocol and nothing else: everything that would print
 * there (a library's banner, a stray println) goes to standard error with the logs. It serves until
 * standard input ends or the process is stopped.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true, description = "Serve the VideoWorld tools over MCP (stdio). "
        + "With tokens configured (--tokens, VW_ADMIN_TOKEN), VW_TOKEN names the caller.")
public final class McpMain implements Callable<Integer> {
    @Mixin
    ServiceOptions options;

    public static void main(String[] args) {
        PrintStream protocol = System.out;
        // Before anything else runs, so not one byte of stdout is anything but protocol.
        System.setOut(System.err);
        System.exit(new CommandLine(new McpMain(protocol)).setOut(new java.io.PrintWriter(System.err, true)).execute(args));
    }

    private final PrintStream protocol;

    McpMain(PrintStream protocol) {
        this.protocol = protocol;
    }

    @Override
    public Integer call() throws Exception {
        QueryConfig config;
        try {
            config = options.config();
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        String token = System.getenv("VW_TOKEN");
        Caller caller = config.auth().authenticate(token == null ? null : "Bearer " + token).orElse(null);
        if (caller == null) {
            System.err.println(token == null ? "tokens are configured: set VW_TOKEN to the bearer token this agent calls with"
                    : "VW_TOKEN is not a known token");
            return 2;
        }
        CountDownLatch ended = new CountDownLatch(1);
        InputStream in = new FilterInputStream(System.in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) {
                    ended.countDown();
                }
                return n;
            }
        };
        QueryWiring wiring = new QueryWiring(config, new io.videoworld.query.metrics.ServiceMetrics());
        McpSyncServer server = McpTools.serve(new StdioServerTransportProvider(McpTools.jsonMapper(), in, protocol),
                wiring.dispatcher(), caller);
        Runtime.getRuntime().addShutdownHook(new Thread(ended::countDown));
        System.err.println("videoworld MCP server on stdio (Elasticsearch " + options.esUrl + ", caller " + caller.name() + ")");
        ended.await();
        server.closeGracefully();
        wiring.close();
        return 0;
    }
}
