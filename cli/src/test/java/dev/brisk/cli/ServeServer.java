// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Test helper: a real {@code brisk serve} process (java -jar brisk.jar serve) on a socket in a
 * fresh 0700 directory; {@link #close()} stops it by its PID (TERM, then KILL) and reaps it,
 * whatever the test did.
 */
final class ServeServer implements AutoCloseable {
    final Path dir;
    final Path socket;
    final Path log;
    final Process process;

    private ServeServer(Path dir, Process process) {
        this.dir = dir;
        this.socket = dir.resolve("serve.sock");
        this.log = dir.resolve("server.log");
        this.process = process;
    }

    /**
     * Starts a server in a new private directory and waits until its socket accepts; two warm
     * shells unless {@code extra} says {@code -j N}.
     */
    static ServeServer start(String... extra) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("brisk-serve-it", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        return startIn(dir, extra);
    }

    static ServeServer startIn(Path dir, String... extra) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("serve", "--socket", dir.resolve("serve.sock").toString()));
        if (!List.of(extra).contains("-j")) {
            args.addAll(List.of("-j", "2"));
        }
        args.addAll(List.of(extra));
        ProcessBuilder pb = new ProcessBuilder(BriskProcess.command(args.toArray(String[]::new)));
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.redirectErrorStream(true);
        pb.redirectOutput(dir.resolve("server.log").toFile());
        ServeServer s = new ServeServer(dir, pb.start());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!accepts(s.socket)) {
            if (!s.process.isAlive() || System.nanoTime() > until) {
                String log = s.log();
                s.close();
                throw new AssertionError("brisk serve did not start: " + log);
            }
            Thread.sleep(20);
        }
        return s;
    }

    static boolean accepts(Path socket) {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            return ch.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            return false;
        }
    }

    long pid() {
        return process.pid();
    }

    String log() throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }

    /** Sends {@code signal} (by number) to the server's PID. */
    void signal(int signal) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).inheritIO().start().waitFor();
    }

    /** True when {@code pid} is a live process (not gone, not a zombie). */
    static boolean alive(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    /** Waits up to {@code seconds} for every pid to end; returns those still alive. */
    static List<Long> awaitGone(List<Long> pids, double seconds) throws InterruptedException {
        long until = System.nanoTime() + (long) (seconds * 1e9);
        while (true) {
            List<Long> left = pids.stream().filter(ServeServer::alive).toList();
            if (left.isEmpty() || System.nanoTime() > until) {
                return left;
            }
            Thread.sleep(20);
        }
    }

    /** The server's descendants right now. */
    List<Long> descendants() {
        return process.descendants().map(ProcessHandle::pid).toList();
    }

    @Override
    public void close() throws IOException {
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
