// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.serve.BriskServer;
import dev.brisk.serve.ServeOptions;
import dev.brisk.serve.SocketLocation;
import java.io.File;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code brisk serve}: keeps a warm shell pool behind a Unix-domain socket for programs in any
 * language (docs/PROTOCOL.md), until SIGTERM/SIGINT or the idle limit.
 */
@picocli.CommandLine.Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve warm shells to other programs over a Unix-domain socket (docs/PROTOCOL.md).",
                "Default socket: $BRISK_SOCKET, else $XDG_RUNTIME_DIR/brisk/serve.sock, else /tmp/brisk-$UID/serve.sock."
                        + " Its directory must be mode 0700 and owned by you; other users are refused."},
        footer = {"", "Exit status: 0 after --idle-exit or a clean stop; 1 failure (unsafe directory, a live"
                + " server on the socket); 2 usage error; 143/130 after SIGTERM/SIGINT."})
final class ServeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--socket", paramLabel = "PATH", description = "The socket's path.")
    Path socket;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Warm shells in the pool (default: one per core).")
    int jobs = Runtime.getRuntime().availableProcessors();

    @Option(names = "--shell", paramLabel = "SHELL", description = "bash (default), dash, or another shell.")
    String shell = "bash";

    @Option(names = "--detach", description = "Run in the background; print its pid once the socket accepts clients.")
    boolean detach;

    @Option(names = "--idle-exit", paramLabel = "SECS", description = "Exit after SECS seconds without a connected client.")
    Double idleExit;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (idleExit != null && !(idleExit > 0)) {
            throw new ParameterException(spec.commandLine(), "--idle-exit must be positive, got " + idleExit);
        }
        ServeOptions options;
        try {
            options = new ServeOptions(socket != null ? socket : SocketLocation.defaultPath(), jobs, shell,
                    idleExit == null ? null : Duration.ofNanos((long) (idleExit * 1e9)));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (detach) {
            return detach(options.socket());
        }
        BriskServer server = BriskServer.bind(options);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "brisk-serve-shutdown"));
        System.err.println("brisk serve: listening on " + server.socket() + " (" + server.pool().workers() + " "
                + shell + " workers, pid " + ProcessHandle.current().pid() + ")");
        server.serve();
        return ExitCode.OK.code();
    }

    /**
     * Starts this same command line without {@code --detach} in a new session (setsid), its
     * output in {@code serve.log} beside the socket, and waits until the socket accepts or the
     * child exits (then its log says why, and its status is ours).
     */
    private int detach(Path sock) throws IOException, InterruptedException {
        SocketLocation.prepareDirectory(sock.getParent());
        Path log = sock.resolveSibling(sock.getFileName() + ".log");
        ProcessHandle.Info info = ProcessHandle.current().info();
        List<String> cmd = new ArrayList<>();
        cmd.add("setsid");
        cmd.add("-w");
        cmd.add(info.command().orElseThrow(() -> new IOException("cannot learn this JVM's command line")));
        for (String a : info.arguments().orElseThrow(() -> new IOException("cannot learn this JVM's arguments"))) {
            if (!a.equals("--detach")) {
                cmd.add(a);
            }
        }
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        Process child = pb.start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < until) {
            if (child.waitFor(20, TimeUnit.MILLISECONDS)) {
                System.err.print(Files.readString(log, StandardCharsets.UTF_8));
                return child.exitValue();
            }
            if (accepts(sock)) {
                System.out.println(child.pid());
                return ExitCode.OK.code();
            }
        }
        child.destroyForcibly();
        throw new IOException("the detached server did not accept on " + sock + " within 60 s; see " + log);
    }

    private static boolean accepts(Path sock) {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            return ch.connect(UnixDomainSocketAddress.of(sock));
        } catch (IOException e) {
            return false;
        }
    }
}
