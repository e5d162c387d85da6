package io.videoworld.query;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** Starts the query service and serves until the process is stopped. */
@Command(name = "query-service", mixinStandardHelpOptions = true, description = "Serve the VideoWorld tools over REST and MCP (/mcp).")
public final class QueryServiceMain implements Callable<Integer> {
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "address to bind (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", defaultValue = "8080", description = "port (default: ${DEFAULT-VALUE})")
    int port;

    @Mixin
    ServiceOptions options;

    public static void main(String[] args) {
        System.exit(new CommandLine(new QueryServiceMain()).execute(args));
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
        QueryServer server = new QueryServer(config).start(host, port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception ignored) {
                // exiting anyway
            } finally {
                stopped.countDown();
            }
        }));
        System.out.println("query service on http://" + host + ":" + server.port() + " (Elasticsearch " + options.esUrl
                + ", ingest job from Flink at " + options.flinkUrl + ")");
        stopped.await();
        return 0;
    }
}
