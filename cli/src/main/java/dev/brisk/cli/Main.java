// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorStream;
import dev.brisk.internal.posix.Environ;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
import java.util.function.IntSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The entry point: {@code brisk [--help|--version] SUBCOMMAND ...}. Only this class ends the JVM
 * (besides the launcher's other entry, {@link FindMain}, and the build's {@link Docs}): {@link
 * #main} with the status a command returned, and {@link #endOnSignal} for a direct run whose
 * command ends with its own status on a signal; every command returns its status, so that a
 * warm server's call never ends the server. {@link #run} takes its writers and returns the
 * exit status, for tests.
 */
@Command(name = "brisk", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Shell work on the JVM, fast and safe.%n",
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
            FindMain.main(args); // before picocli: find's syntax is its own; ends the JVM
        }
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(run(args, out, err));
    }

    /**
     * For a direct run whose command ends with a status of its own on SIGINT, SIGTERM or SIGHUP
     * rather than the JVM's 128+N (pv's 32, {@code pv -M}'s command's): when the JVM shuts down,
     * {@code status} runs on a shutdown hook, and when it gives 0 or more the JVM halts with it
     * there (the copy may be blocked in a system call that nothing else would end). It runs at
     * every shutdown, so it gives -1 once the command has returned its status. Does nothing in a
     * warm server's call: a shutdown hook is the whole server's, and the server answers the
     * caller's signal itself ({@link Caller#statusOnSignal}).
     */
    static void endOnSignal(IntSupplier status) {
        if (!Caller.current().self()) {
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            int s = status.getAsInt();
            if (s >= 0) {
                Runtime.getRuntime().halt(s);
            }
        }));
    }

    /**
     * {@code status}, after flushing {@code out}; 1 with a one-line message when a command that
     * succeeded could not write what it printed there (help, the version): a full disk.
     */
    private static int written(PrintWriter out, PrintWriter err, int status) {
        out.flush();
        // (a command that failed has said why itself)
        if (out.checkError() && status == 0) {
            err.println("brisk: cannot write to standard output");
            err.flush();
            return ExitCode.FAILURE.code();
        }
        return status;
    }

    /**
     * picocli's model of {@code brisk} and its subcommands, in the order help lists them (par's
     * and pv's from their option tables, the others from their annotations): for help, the
     * subcommands Main does not route itself, and the man pages and completions ({@link Docs}).
     */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.addSubcommand(new RunCommand());
        cl.addSubcommand(new FindCommand());
        cl.addSubcommand(ParCommand.commandLine());
        cl.addSubcommand(PvCommand.commandLine());
        cl.addSubcommand(new ServeCommand());
        cl.addSubcommand(new DaemonCommand());
        return cl;
    }

    /** Runs brisk with {@code args}; returns the exit status. */
    public static int run(String[] given, PrintWriter out, PrintWriter err) {
        String[] args = ParScript.subcommand(given); // a #! line's "par --shebang ..."
        // `brisk pv`: its own entry (a warm server's too), which parses its plain flags without picocli
        if (args.length > 0 && args[0].equals("pv")) {
            return PvCommand.call(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        // `brisk par`: its own entry, for a direct run and a warm server's call alike
        if (args.length > 0 && args[0].equals("par")) {
            out.flush();
            err.flush();
            return ParCommand.call(java.util.Arrays.copyOfRange(args, 1, args.length));
        }
        CommandLine cl = commandLine();
        cl.setOut(out);
        cl.setErr(err);
        // GNU parallel reads options only before the command: everything after it is the command
        cl.getSubcommands().get("par").setStopAtPositional(true);
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
        int code = cl.execute(args);
        dev.brisk.exec.internal.EarlyConnections.drop(); // par's, when picocli refused its options
        err.flush();
        return written(out, err, code);
    }

    /**
     * Runs {@code args} (brisk's command line without the program name, as bytes) for a client
     * of the warm server, on the call's thread: writes only to the {@link Caller}'s
     * descriptors and returns the exit status; never exits the JVM.
     */
    static int call(List<byte[]> given) {
        List<byte[]> args = ParScript.subcommand(given); // a #! line's "par --shebang ..."
        Caller caller = Caller.current();
        String[] strings = new String[args.size()];
        java.nio.charset.Charset cs = Environ.utf8Locale() ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1;
        for (int i = 0; i < strings.length; i++) {
            strings[i] = new String(args.get(i), cs);
        }
        if (strings.length > 0 && strings[0].equals("find")) {
            return FindCommand.call(args);
        }
        if (strings.length > 0 && strings[0].equals("par")) {
            return ParCommand.call(java.util.Arrays.copyOfRange(strings, 1, strings.length), args.subList(1, args.size()));
        }
        PrintWriter out = new PrintWriter(new OutputStreamWriter(DescriptorStream.output(caller.stdout()), cs), false);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(DescriptorStream.output(caller.stderr()), cs), true);
        try {
            if (strings.length == 1 && (strings[0].equals("--version") || strings[0].equals("-V"))) {
                // the server's own version, without building picocli's model of every subcommand
                for (String line : VersionLines.LINES) {
                    out.println(line);
                }
                return written(out, err, ExitCode.OK.code());
            }
            return run(strings, out, err);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * Null when {@code args} can run in the warm server, else why the client must start a JVM of
     * its own (docs/DAEMON.md): {@code run} and {@code serve} keep pools of their own for the
     * whole process, {@code daemon run} is a server, and some pv and par command lines must own
     * the caller's terminal.
     */
    static String directReason(List<byte[]> given) {
        List<byte[]> args = ParScript.subcommand(given);
        if (args.isEmpty()) {
            return null;
        }
        String first = new String(args.get(0), StandardCharsets.ISO_8859_1);
        return switch (first) {
            case "run", "serve" -> "brisk " + first + " runs in a JVM of its own";
            case "pv" -> PvCommand.directReason(rest(args));
            case "par" -> ParCommand.directReason(rest(args));
            case "daemon" -> args.size() > 1 && new String(args.get(1), StandardCharsets.ISO_8859_1).equals("run")
                    ? "brisk daemon run is a server" : null;
            default -> null;
        };
    }

    /** {@code args} after the subcommand's name, decoded byte for byte (for option names only). */
    private static String[] rest(List<byte[]> args) {
        String[] rest = new String[args.size() - 1];
        for (int i = 1; i < args.size(); i++) {
            rest[i - 1] = new String(args.get(i), StandardCharsets.ISO_8859_1);
        }
        return rest;
    }

    /** The version lines, read once: they cannot change while a server runs. */
    private static final class VersionLines {
        static final String[] LINES = lines();

        private static String[] lines() {
            try {
                return new Version().getVersion();
            } catch (IOException e) {
                return new String[] {"brisk (version unknown: " + e.getMessage() + ")"};
            }
        }
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
