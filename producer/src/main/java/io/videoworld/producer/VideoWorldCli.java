package io.videoworld.producer;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code videoworld} command line: push frames, make the sample video. */
@Command(name = "videoworld", mixinStandardHelpOptions = true, version = "videoworld 0.1.0",
        subcommands = {PushCommand.class, SampleVideoCommand.class},
        description = "Turn video and screenshot streams into a memory an agent can query.")
public final class VideoWorldCli {
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command and returns its exit code; errors are one line on stderr, not a stack trace. */
    public static int run(String... args) {
        return run(new java.io.PrintWriter(System.out, true), new java.io.PrintWriter(System.err, true), args);
    }

    /** Runs a command writing to the given streams; for tests and embedding. */
    public static int run(java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new VideoWorldCli()).setOut(out).setErr(err);
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            String message = e.getMessage() == null || e.getMessage().isBlank()
                    ? e.getClass().getSimpleName() + " (unexpected; rerun with VW_JAVA_OPTS=-Dvw.cli.trace=true for the stack trace)"
                    : e.getMessage().lines().findFirst().orElse("");
            cmd.getErr().println("videoworld: " + message);
            if (Boolean.getBoolean("vw.cli.trace")) {
                e.printStackTrace(new java.io.PrintWriter(cmd.getErr(), true));
            }
            return 2;
        });
        return cli.execute(args);
    }
}
