// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native client ({@code target/brisk-client}, docs/DAEMON.md) as a real process: its direct
 * runs, the socket directory's check, the starter it leaves when no server answers, and the
 * protocol against a stand-in server on a real socket (which reads the request's bytes; the
 * descriptors it carries are closed by the kernel, since a JDK channel takes no ancillary data).
 * The JVM launcher it runs is a script of the test's that records each run and then runs the
 * packaged jar.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClientIT {
    @TempDir
    Path tmp;

    private Path runtime;
    private Path state;
    private Path record;
    private Path launcher;

    @BeforeEach
    void launcher() throws IOException {
        runtime = Files.createDirectory(tmp.resolve("run"));
        state = tmp.resolve("state");
        record = tmp.resolve("record");
        launcher = tmp.resolve("brisk-jvm");
        String java = System.getProperty("brisk.java", "java");
        String jar = System.getProperty("brisk.jar", "target/brisk.jar");
        // a call: recorded, run by the jar, then marked as ended; the server's start: recorded with
        // what the starter gave it (stdin, session), its stdout going to the log
        Files.writeString(launcher, "#!/bin/sh\n"
                + "echo \"BRISK_DAEMON=$BRISK_DAEMON $*\" >> '" + record + "'\n"
                + "if [ \"$1\" = daemon ]; then\n"
                + "  echo \"stdin=$(readlink /proc/$$/fd/0) pid=$$ session=$(cut -d' ' -f6 /proc/$$/stat)"
                + " ignored=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status)\"\n"
                + "  exit 0\n"
                + "fi\n"
                + "'" + java + "' --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 -XX:+UseSerialGC "
                + "-XX:-UsePerfData -jar '" + jar + "' \"$@\"\n"
                + "status=$?\n"
                + "echo 'call ended' >> '" + record + "'\n"
                + "exit $status\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
    }

    @Test
    void noDaemonAndBriskDaemon0RunTheJarDirectlyWithoutTheSocket() throws Exception {
        BriskProcess.Run jar = BriskProcess.run("--version");
        BriskProcess.Run flag = client(Map.of(), "--no-daemon", "--version");
        BriskProcess.Run env = client(Map.of("BRISK_DAEMON", "0"), "--version");
        for (BriskProcess.Run run : List.of(flag, env)) {
            assertThat(run.exit()).isZero();
            assertThat(run.out()).isEqualTo(jar.out());
            assertThat(run.err()).isEmpty();
        }
        assertThat(Files.readAllLines(record)).containsExactly(
                "BRISK_DAEMON=0 --version", "call ended", "BRISK_DAEMON=0 --version", "call ended");
        assertThat(runtime.resolve("brisk")).doesNotExist();
    }

    @Test
    void anUnsafeSocketDirectoryIsSaidInOneLineAndTheCallStillRuns() throws Exception {
        Path dir = Files.createDirectory(runtime.resolve("brisk"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        BriskProcess.Run run = client(Map.of(), "--version");
        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo(BriskProcess.run("--version").out());
        assertThat(run.err()).isEqualTo("brisk: " + dir + " is not safe for the server's socket (mode 0755): running without it\n");
        // no starter either: the directory is not the server's
        Thread.sleep(300);
        assertThat(Files.readAllLines(record)).containsExactly("BRISK_DAEMON=0 --version", "call ended");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void withNoServerTheCallRunsDirectlyAndAStarterStartsOneAfterIt() throws Exception {
        // a caller that ignores SIGHUP and SIGINT (nohup, a shell's `&`): the server must not
        BriskProcess.Run run = client(Map.of(BRISK_TRAP, "HUP INT"), "--version");
        // (its output's end came with the call's: the starter holds none of its pipes)
        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo(BriskProcess.run("--version").out());
        assertThat(run.err()).isEmpty();
        Path dir = runtime.resolve("brisk");
        assertThat(Files.getPosixFilePermissions(dir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        List<String> lines = awaitLines(3);
        assertThat(lines).containsExactly("BRISK_DAEMON=0 --version", "call ended", "BRISK_DAEMON=0 daemon run");
        // the starter's stdin was /dev/null, its stdout the log, in a session of its own
        Path logFile = state.resolve("brisk/daemon.log");
        String log = "";
        for (int i = 0; i < 200 && !log.endsWith("\n"); i++) { // the fake launcher writes it after its record
            log = Files.exists(logFile) ? Files.readString(logFile) : "";
            if (!log.endsWith("\n")) {
                Thread.sleep(25);
            }
        }
        assertThat(log).startsWith("stdin=/dev/null pid=");
        String[] words = log.strip().split(" ");
        assertThat(words[2]).isEqualTo("session=" + words[1].substring("pid=".length()));
        assertThat(words[3]).isEqualTo("ignored=0000000000000000");
        assertThat(dir.resolve("daemon.lock")).exists();
    }

    /**
     * {@code brisk daemon stop} (or {@code status}) with no server answers from the JVM and starts
     * none behind it (a server started behind a stop would undo it); the next plain call does.
     */
    @Test
    void daemonStopWithNoServerStartsNone() throws Exception {
        BriskProcess.Run stop = client(Map.of(), "daemon", "stop");
        assertThat(stop.exit()).isZero();
        BriskProcess.Run version = client(Map.of(), "--version");
        assertThat(version.exit()).isZero();
        // (the stand-in launcher records a `daemon` call and ends: no "call ended" after it)
        List<String> lines = awaitLines(4);
        Thread.sleep(300); // a starter of the first call's would have run by now
        assertThat(Files.readAllLines(record)).isEqualTo(lines).containsExactly("BRISK_DAEMON=0 daemon stop",
                "BRISK_DAEMON=0 --version", "call ended", "BRISK_DAEMON=0 daemon run");
    }

    @Test
    void theRequestCarriesTheCallAndTheExitStatusComesBack() throws Exception {
        try (StandIn server = new StandIn()) {
            Process client = start(Map.of("BRISK_TEST_MARK", "m=1"), "par", "-k", "echo", "a b");
            try (SocketChannel call = server.accept()) {
                Request request = Request.read(call);
                assertThat(request.build()).isEqualTo(buildId());
                assertThat(request.pid()).isEqualTo(client.pid());
                assertThat(request.args()).containsExactly("par", "-k", "echo", "a b");
                assertThat(request.env()).contains("BRISK_TEST_MARK=m=1", "XDG_RUNTIME_DIR=" + runtime);
                assertThat(request.limits()).isEqualTo(16);
                call.write(ByteBuffer.wrap(new byte[] {'x', 0, 0, 0, 4, 0, 0, 0, 42}));
            }
            assertThat(client.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(client.exitValue()).isEqualTo(42);
            assertThat(new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
            assertThat(record).doesNotExist();
        }
    }

    @Test
    void signalsAreForwardedAsFramesUntilTheAnswer() throws Exception {
        try (StandIn server = new StandIn()) {
            Process client = start(Map.of(), "run", "sleep 10");
            try (SocketChannel call = server.accept()) {
                Request.read(call);
                // (one the test runs under ignores, SIGINT under a shell's `&`, is not forwarded)
                long ignored = ignoredSignals(client.pid());
                List<Integer> sent = new ArrayList<>();
                for (int signal : List.of(2, 28, 15)) {
                    if ((ignored & (1L << (signal - 1))) == 0) {
                        sent.add(signal);
                        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(client.pid())).start().waitFor()).isZero();
                    }
                }
                ByteBuffer frames = ByteBuffer.allocate(9 * sent.size());
                while (frames.hasRemaining()) {
                    assertThat(call.read(frames)).isPositive();
                }
                frames.flip();
                List<Integer> signals = new ArrayList<>();
                for (int i = 0; i < sent.size(); i++) {
                    assertThat(frames.get()).isEqualTo((byte) 's');
                    assertThat(frames.getInt()).isEqualTo(4);
                    signals.add(frames.getInt());
                }
                // (a signalfd gives signals pending together in their numbers' order)
                assertThat(signals).containsExactlyInAnyOrderElementsOf(sent).contains(28);
                // an unknown frame is skipped
                call.write(ByteBuffer.wrap(new byte[] {'?', 0, 0, 0, 2, 7, 7, 'x', 0, 0, 0, 4, 0, 0, 0, (byte) 130}));
            }
            assertThat(client.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(client.exitValue()).isEqualTo(130);
        }
    }

    @Test
    void runDirectlyAndAnotherBuildRunTheCallInTheJvm() throws Exception {
        String version = BriskProcess.run("--version").out();
        for (char answer : new char[] {'d', 'b'}) {
            try (StandIn server = new StandIn()) {
                Process client = start(Map.of(), "--version");
                try (SocketChannel call = server.accept()) {
                    Request.read(call);
                    call.write(ByteBuffer.wrap(new byte[] {(byte) answer, 0, 0, 0, 1, 'r'}));
                }
                assertThat(client.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(client.exitValue()).isZero();
                assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(version);
            }
        }
        // `b` left a starter (the stand-in holds no lock), which started a server after the call
        assertThat(awaitLines(5)).containsExactly("BRISK_DAEMON=0 --version", "call ended",
                "BRISK_DAEMON=0 --version", "call ended", "BRISK_DAEMON=0 daemon run");
    }

    @Test
    void aServerThatEndsBeforeAnsweringIsSaidAndTheClientExits1() throws Exception {
        try (StandIn server = new StandIn()) {
            Process client = start(Map.of(), "--version");
            try (SocketChannel call = server.accept()) {
                Request.read(call);
            }
            assertThat(client.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(client.exitValue()).isEqualTo(1);
            assertThat(new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("brisk: the brisk server ended during the call\n");
        }
        try (StandIn server = new StandIn()) {
            Process client = start(Map.of(), "--version");
            server.accept().close(); // before reading anything
            assertThat(client.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(client.exitValue()).isEqualTo(1);
            assertThat(new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("brisk: the brisk server refused the call\n");
        }
        assertThat(record).doesNotExist();
    }

    @Test
    void theLaunchersCallGoesThroughTheClientAndComesBackToItForADirectRun() throws Exception {
        Path script = Path.of(System.getProperty("brisk.root", "..")).toRealPath().resolve("brisk");
        String version = BriskProcess.run("--version").out();
        try (StandIn server = new StandIn()) {
            ProcessBuilder pb = new ProcessBuilder(script.toString(), "--version")
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Map<String, String> e = pb.environment();
            e.keySet().removeIf(k -> k.startsWith("BRISK_"));
            e.putAll(Map.of("XDG_RUNTIME_DIR", runtime.toString(), "XDG_STATE_HOME", state.toString(),
                    "BRISK_NO_BUILD", "1", "BRISK_NO_AOT", "1"));
            Process launched = pb.start();
            try (SocketChannel call = server.accept()) {
                Request request = Request.read(call);
                assertThat(request.args()).containsExactly("--version");
                assertThat(request.env()).contains("BRISK_JVM=" + script);
                call.write(ByteBuffer.wrap(new byte[] {'d', 0, 0, 0, 0}));
            }
            assertThat(launched.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(launched.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
            assertThat(launched.exitValue()).isZero();
            assertThat(new String(launched.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(version);
        }
    }

    /** A server's stand-in: listens on the socket directory's daemon.sock, made as the server would. */
    private final class StandIn implements AutoCloseable {
        private final ServerSocketChannel listener;

        StandIn() throws IOException {
            Path dir = runtime.resolve("brisk");
            if (!Files.isDirectory(dir)) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Path socket = dir.resolve("daemon.sock");
            Files.deleteIfExists(socket);
            listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            listener.bind(UnixDomainSocketAddress.of(socket));
        }

        SocketChannel accept() throws IOException {
            return listener.accept();
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }

    /** The request's fields a test checks (docs/DAEMON.md, "The request"). */
    private record Request(String build, long pid, int limits, List<String> args, List<String> env) {
        static Request read(SocketChannel call) throws IOException {
            ByteBuffer head = readFully(call, 8);
            assertThat(new String(head.array(), 0, 4, StandardCharsets.US_ASCII)).isEqualTo("BRK1");
            ByteBuffer b = readFully(call, head.getInt(4));
            String build = string(b);
            long pid = b.getInt();
            b.position(b.position() + 4 * 4 + 8); // pgrp, terminals, foreground, umask, ignored signals
            int limits = b.getInt();
            b.position(b.position() + limits * 20);
            List<String> args = strings(b);
            List<String> env = strings(b);
            int passed = b.getInt(); // descriptors the arguments name (/dev/fd/N): none here
            assertThat(passed).isZero();
            assertThat(b.hasRemaining()).isFalse();
            return new Request(build, pid, limits, args, env);
        }

        private static ByteBuffer readFully(SocketChannel call, int n) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(n);
            while (b.hasRemaining()) {
                assertThat(call.read(b)).isNotNegative();
            }
            return b.flip();
        }

        private static String string(ByteBuffer b) {
            byte[] s = new byte[b.getInt()];
            b.get(s);
            return new String(s, StandardCharsets.UTF_8);
        }

        private static List<String> strings(ByteBuffer b) {
            int n = b.getInt();
            List<String> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                out.add(string(b));
            }
            return out;
        }
    }

    private static long ignoredSignals(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("SigIgn:")) {
                return Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16);
            }
        }
        throw new AssertionError("no SigIgn in /proc/" + pid + "/status");
    }

    private static String buildId() throws IOException {
        try (InputStream in = ClientIT.class.getResourceAsStream("/brisk-version.properties")) {
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("build");
        }
    }

    private List<String> awaitLines(int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        List<String> lines = Files.readAllLines(record);
        while (lines.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(50);
            lines = Files.readAllLines(record);
        }
        return lines;
    }

    /** In a test's environment: the signals the client's caller ignores (run through sh's trap). */
    private static final String BRISK_TRAP = "BRISK_TEST_IGNORE";

    private Process start(Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (env.containsKey(BRISK_TRAP)) {
            cmd.addAll(List.of("sh", "-c", "trap '' " + env.get(BRISK_TRAP) + "; exec \"$@\"", "sh"));
        }
        cmd.add(System.getProperty("brisk.client", "target/brisk-client"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Map<String, String> e = pb.environment();
        e.remove("BRISK_DAEMON");
        e.remove("BRISK_SOCKET");
        e.put("XDG_RUNTIME_DIR", runtime.toString());
        e.put("XDG_STATE_HOME", state.toString());
        e.put("BRISK_JVM", launcher.toString());
        e.putAll(env);
        return pb.start();
    }

    private BriskProcess.Run client(Map<String, String> env, String... args) throws Exception {
        Process p = start(env, args);
        var out = java.util.concurrent.CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
        var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        byte[] stdout = out.get(30, TimeUnit.SECONDS);
        byte[] stderr = err.get(30, TimeUnit.SECONDS);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new BriskProcess.Run(p.exitValue(), stdout, stderr);
    }

    private static byte[] drain(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
