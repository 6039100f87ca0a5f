// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorStream;
import dev.brisk.internal.remote.SshSharing;
import dev.brisk.serve.BriskServer;
import dev.brisk.serve.CallServer;
import dev.brisk.serve.ServeOptions;
import dev.brisk.serve.SocketLocation;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code brisk daemon run|start|stop|status}: the per-user brisk that stays up and runs the
 * native client's calls (docs/DAEMON.md). {@code run} is the server itself, in the foreground;
 * the client starts it detached when none answers. {@code status} and {@code stop} reach a
 * running server as calls (it answers them itself); run directly they read {@code daemon.pid}.
 */
@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = {"The per-user brisk server that the native client hands its calls to (docs/DAEMON.md).",
                "ACTION: run (the server, in the foreground), start (in the background, unless one runs),"
                        + " stop, status."},
        footer = {"", "Idle exit: --idle=SECONDS, else $BRISK_DAEMON_IDLE, else 900 s (0: never).",
                "Exit status: 0 ok; 1 failure; 2 usage error; 3 (status, stop) no server is running."})
final class DaemonCommand implements Callable<Integer> {
    static final int NOT_RUNNING = 3;
    private static final Duration DEFAULT_IDLE = Duration.ofSeconds(900);

    /** The server this JVM runs, when it is one: the calls {@code status} and {@code stop} reach it. */
    private static volatile CallServer server;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ACTION", description = "run, start, stop or status")
    String action;

    @Option(names = "--idle", paramLabel = "SECONDS", description = "Exit after this long without a call (0: never).")
    Long idleSeconds;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintStream out = DescriptorStream.print(Caller.current().stdout());
        return switch (action) {
            case "run" -> run();
            case "status" -> status(out);
            case "stop" -> stop(out);
            case "start" -> start(out);
            default -> throw new ParameterException(spec.commandLine(),
                    "unknown action '" + action + "' (run, start, stop or status)");
        };
    }

    /** The socket directory: that of {@code brisk serve}'s default socket. */
    static Path directory() {
        return SocketLocation.defaultPath().getParent();
    }

    /** This build's id, as the Maven build wrote it beside the version (the client has the same compiled in). */
    static String build() {
        String forced = System.getProperty("brisk.build");
        if (forced != null) {
            return forced; // a test's stand-in for a server of another build
        }
        Properties p = new Properties();
        try (InputStream in = Main.class.getResourceAsStream("/brisk-version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        String b = p.getProperty("build", "unknown");
        return b.contains("${") ? "unknown" : b;
    }

    private Duration idle() {
        long s;
        if (idleSeconds != null) {
            s = idleSeconds;
        } else {
            String env = System.getenv("BRISK_DAEMON_IDLE");
            if (env == null || env.isEmpty()) {
                return DEFAULT_IDLE;
            }
            try {
                s = Long.parseLong(env.trim());
            } catch (NumberFormatException e) {
                throw new ParameterException(spec.commandLine(), "BRISK_DAEMON_IDLE must be a number of seconds, got '" + env + "'");
            }
        }
        if (s < 0) {
            throw new ParameterException(spec.commandLine(), "--idle must be 0 or more seconds, got " + s);
        }
        return s == 0 ? Duration.ofDays(365 * 100) : Duration.ofSeconds(s);
    }

    private int run() throws IOException {
        if (!Caller.current().self()) {
            throw new IOException("a brisk server is already running (pid " + ProcessHandle.current().pid() + ")");
        }
        Duration idle = idle();
        CallServer s;
        try {
            s = CallServer.bind(directory(), build(), new DaemonHandler(), idle, System.err);
        } catch (CallServer.AlreadyRunning e) {
            System.err.println("brisk daemon: " + e.getMessage());
            return ExitCode.OK.code();
        }
        server = s;
        // par -S's ssh logins stay up for the next call (--ssh-persist), their sockets beside ours
        SshSharing.enable(directory());
        BriskServer serve = serve(s);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            s.retire();
            if (serve != null) {
                serve.close();
            }
            SshSharing.stopAll();
        }, "brisk-daemon-shutdown"));
        System.err.println("brisk daemon: pid " + ProcessHandle.current().pid() + " listening on " + s.socket()
                + " (build " + s.build() + ", idle exit after " + idle.toSeconds() + " s)");
        DaemonHandler.warm();
        s.serve();
        if (serve != null) {
            serve.close();
        }
        SshSharing.stopAll();
        return ExitCode.OK.code();
    }

    /**
     * Serves {@code brisk serve}'s protocol on its default socket from this same process (one
     * process, one directory), unless a {@code brisk serve} of its own holds it; the server is
     * idle only when that socket has no client either.
     */
    private BriskServer serve(CallServer calls) {
        Path socket = SocketLocation.defaultPath();
        if (!socket.getParent().equals(calls.socket().getParent())) {
            return null;
        }
        try {
            BriskServer serve = BriskServer.bind(new ServeOptions(socket, Runtime.getRuntime().availableProcessors(), "bash", null));
            calls.busyWhile(() -> serve.connections() > 0);
            Thread.ofPlatform().daemon().name("brisk-daemon-serve").start(() -> {
                try {
                    serve.serve();
                } catch (IOException e) {
                    System.err.println("brisk daemon: serve.sock: " + e.getMessage());
                }
            });
            System.err.println("brisk daemon: serving warm shells on " + socket + " too");
            return serve;
        } catch (IOException | RuntimeException e) {
            System.err.println("brisk daemon: not serving " + socket + ": " + e.getMessage());
            return null;
        }
    }

    private static int status(PrintStream out) {
        CallServer s = server;
        if (s != null && !Caller.current().self()) {
            return report(out, ExitCode.OK.code(), "brisk daemon: running, pid " + ProcessHandle.current().pid(),
                    "uptime: " + s.uptime().toSeconds() + " s",
                    "build: " + s.build(),
                    "calls served: " + s.callsServed() + " (" + s.callsRunning() + " running, this one included)",
                    "socket: " + s.socket(),
                    "idle exit after: " + s.idle().toSeconds() + " s");
        }
        long pid = runningPid();
        return pid < 0 ? report(out, NOT_RUNNING, "brisk daemon: not running")
                : report(out, ExitCode.OK.code(), "brisk daemon: running, pid " + pid
                        + " (asked without it: BRISK_DAEMON=0 or another build)");
    }

    private static int stop(PrintStream out) throws InterruptedException {
        CallServer s = server;
        if (s != null && !Caller.current().self()) {
            s.retire();
            return report(out, ExitCode.OK.code(),
                    "brisk daemon: stopping pid " + ProcessHandle.current().pid() + " (after its running calls)");
        }
        long pid = runningPid();
        if (pid < 0) {
            return report(out, NOT_RUNNING, "brisk daemon: not running");
        }
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        for (int i = 0; i < 200 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false); i++) {
            Thread.sleep(50);
        }
        return report(out, ExitCode.OK.code(), "brisk daemon: stopped pid " + pid);
    }

    /**
     * Prints {@code lines} on {@code out} and returns {@code status}; 1, with a one-line message
     * on the caller's stderr, when they could not be written (a full disk, a closed pipe).
     */
    private static int report(PrintStream out, int status, String... lines) {
        for (String line : lines) {
            out.println(line);
        }
        out.flush();
        if (out.checkError()) {
            DescriptorStream.print(Caller.current().stderr()).println("brisk daemon: cannot write to standard output");
            return ExitCode.FAILURE.code();
        }
        return status;
    }

    private int start(PrintStream out) throws IOException, InterruptedException {
        if (server != null && !Caller.current().self()) {
            return report(out, ExitCode.OK.code(), "brisk daemon: already running, pid " + ProcessHandle.current().pid());
        }
        long pid = runningPid();
        if (pid >= 0) {
            return report(out, ExitCode.OK.code(), "brisk daemon: already running, pid " + pid);
        }
        Path dir = directory();
        SocketLocation.prepareDirectory(dir);
        ProcessHandle.Info info = ProcessHandle.current().info();
        List<String> cmd = new ArrayList<>();
        cmd.add("setsid");
        cmd.add(info.command().orElseThrow(() -> new IOException("cannot learn this JVM's command line")));
        List<String> jvmArgs = List.of(info.arguments().orElseThrow(() -> new IOException("cannot learn this JVM's arguments")));
        // this JVM's command line up to "daemon", then "daemon run" with this command's options
        int at = jvmArgs.lastIndexOf("daemon");
        if (at < 0) {
            throw new IOException("cannot find 'daemon' in this JVM's command line");
        }
        cmd.addAll(jvmArgs.subList(0, at));
        cmd.add("daemon");
        cmd.add("run");
        if (idleSeconds != null) {
            cmd.add("--idle=" + idleSeconds);
        }
        Path log = logFile();
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(new java.io.File("/"));
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        Process child = pb.start();
        for (int i = 0; i < 1200; i++) {
            // the language clients connect to serve.sock next: it is bound right after daemon.sock.
            // It must accept, not merely exist: a loaded server can sit between bind and listen
            if (Files.exists(dir.resolve("daemon.sock")) && accepts(dir.resolve("serve.sock")) && runningPid() >= 0) {
                return report(out, ExitCode.OK.code(), "brisk daemon: started, pid " + runningPid());
            }
            // status 0: another server took the lock first (a client's starter): wait for its pid file
            if (!child.isAlive() && child.exitValue() != 0) {
                throw new IOException("the server exited at once (status " + child.exitValue() + "); see " + log);
            }
            Thread.sleep(25);
        }
        throw new IOException("the server did not listen within 30 s; see " + log);
    }

    /** True when a connection to the Unix socket {@code socket} is accepted (and closed at once). */
    private static boolean accepts(Path socket) {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            return ch.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            return false;
        }
    }

    /** The live server's pid from {@code daemon.pid}, or -1. */
    static long runningPid() {
        try {
            long pid = Long.parseLong(Files.readString(directory().resolve("daemon.pid"), StandardCharsets.US_ASCII).trim());
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? pid : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** {@code $XDG_STATE_HOME/brisk/daemon.log}, else {@code ~/.local/state/brisk/daemon.log}. */
    static Path logFile() {
        String state = System.getenv("XDG_STATE_HOME");
        Path base = state != null && state.startsWith("/") ? Path.of(state)
                : Path.of(System.getProperty("user.home"), ".local", "state");
        return base.resolve("brisk").resolve("daemon.log");
    }
}
