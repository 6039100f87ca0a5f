// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.exec.JobRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The entry point: {@code brisk [--help|--version] SUBCOMMAND ...}. Only {@link #main} exits the
 * JVM; {@link #run} takes its writers and returns the exit status, for tests.
 */
@Command(name = "brisk", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Shell work on the JVM, fast and safe.%n",
        subcommands = {RunCommand.class, FindCommand.class, ParCommand.class, PvCommand.class, ServeCommand.class},
        footer = {"", "Exit status: 0 ok, 1 failure, 2 usage error, 130 interrupted"
                + " (subcommands that mimic a tool use its statuses)."})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("find")) {
            FindCommand.exit(FindCommand.main(args)); // before picocli: find's syntax is its own
        }
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(run(args, out, err));
    }

    /** Runs brisk with {@code args}; returns the exit status. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        // `brisk pv`: its own entry (a warm server's too), which parses its plain flags without picocli
        boolean pv = args.length > 0 && args[0].equals("pv");
        if (pv) {
            return PvCommand.call(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        // `brisk par`'s start counts in every run: the same, for its plain command lines
        if (args.length > 0 && args[0].equals("par")) {
            if (!ParCommand.connectEarly(java.util.Arrays.copyOfRange(args, 1, args.length))) {
                // local jobs: bind the spawn calls on another core while the options are read
                JobRunner.prepare();
            }
            ParCommand fast = new ParCommand();
            if (GetoptParser.parse(fast, java.util.Arrays.copyOfRange(args, 1, args.length), true)) {
                int code;
                try {
                    code = fast.call();
                } catch (ParCommand.UsageError e) {
                    err.println("brisk par: " + e.getMessage());
                    code = 255;
                } catch (Exception e) {
                    // as picocli's execution exception handler below
                    err.println("brisk par: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
                    code = ExitCode.FAILURE.code();
                }
                out.flush();
                err.flush();
                return code;
            }
        }
        CommandLine cl = pv ? new CommandLine(new PvCommand()).setCommandName("brisk pv") : new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        if (!pv) {
            // GNU parallel reads options only before the command: everything after it is the command
            cl.getSubcommands().get("par").setStopAtPositional(true);
        } else if (PvMonitor.requested(args)) {
            cl.setStopAtPositional(true); // pv -M: the first operand is a command, the rest its arguments
        }
        cl.setExitCodeExceptionMapper(t -> ExitCode.FAILURE.code());
        cl.setParameterExceptionHandler((ex, a) -> {
            CommandLine c = ex.getCommandLine();
            String message = ex.getMessage();
            if (ex instanceof CommandLine.UnmatchedArgumentException u && c.getParent() == null
                    && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
                message = "unknown subcommand '" + u.getUnmatched().get(0) + "' (try 'brisk --help')";
            }
            // one line, named after the (sub)command, as the tools brisk mimics do
            c.getErr().println(c.getCommandSpec().qualifiedName() + ": " + message);
            // a subcommand that mimics a tool declares that tool's usage status (pv: 64, par: 255)
            return c.getCommandSpec().exitCodeOnInvalidInput();
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            c.getErr().println(c.getCommandSpec().qualifiedName() + ": "
                    + (ex.getMessage() != null ? ex.getMessage() : ex.toString()));
            return ExitCode.FAILURE.code();
        });
        int code = cl.execute(pv ? java.util.Arrays.copyOfRange(args, 1, args.length) : args);
        dev.brisk.exec.RemoteHost.dropEarlyConnections(); // par's, when picocli refused its options
        out.flush();
        err.flush();
        return code;
    }

    /** Reads the version and git revision Maven wrote into the jar; names the running Java. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("/brisk-version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            String revision = p.getProperty("revision", "unknown");
            if (revision.equals("unknown")) {
                revision = "unknown (built without -Dgit.commit.id: see ./test or ./brisk)";
            }
            return new String[] {"brisk " + p.getProperty("version", "unknown"),
                    "built from git revision " + revision,
                    "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ", "
                            + System.getProperty("java.home") + ")"};
        }
    }
}
