// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.serve.BriskClient;
import dev.brisk.shell.Command;
import dev.brisk.shell.CommandResult;
import dev.brisk.shell.ShellException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code brisk serve} through a real server process: the Java client here, the Common Lisp
 * client through its own test script (the Python package's tests are {@link PythonPackageIT}),
 * raw sockets for bad input, a second uid.
 */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServeIT {
    static ServeServer server;
    static final Path CLIENTS = Path.of("").toAbsolutePath().getParent().resolve("clients");

    @BeforeAll
    static void start() throws Exception {
        server = ServeServer.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static BriskClient client() throws IOException {
        return BriskClient.connect(server.socket);
    }

    @Test
    void exactStatusesAndByteExactSeparateOutput() throws Exception {
        try (BriskClient c = client()) {
            for (int code : new int[] {0, 1, 3, 127, 255}) {
                assertThat(c.run(Command.of("exit " + code)).exitCode()).isEqualTo(code);
            }
            assertThat(c.run(Command.of("sh -c 'kill -9 $$'")).exitCode()).isEqualTo(137);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int i = 0; i < 256; i++) {
                all.write(i);
            }
            byte[] bytes = all.toByteArray();
            CommandResult r = c.run(Command.of("cat; printf 'err\\0no newline' >&2").stdin(bytes));
            assertThat(r.stdout()).isEqualTo(bytes);
            assertThat(r.stderr()).isEqualTo("err\0no newline".getBytes(StandardCharsets.ISO_8859_1));
            // output shaped like frames: a final record, an error, a hello
            byte[] fake = ByteBuffer.allocate(40).put((byte) 'x').putInt(1).putInt(6).putInt(0).put((byte) 0).put((byte) 0)
                    .put((byte) 'E').putInt(0).putInt(3).put("bad".getBytes()).put((byte) 'H').putInt(0).putInt(0).array();
            CommandResult f = c.run(Command.of("cat; exit 7").stdin(fake));
            assertThat(f.stdout()).isEqualTo(fake);
            assertThat(f.exitCode()).isEqualTo(7);
        }
    }

    @Test
    void stdinInlineAndStreamedCwdAndEnv() throws Exception {
        try (BriskClient c = client()) {
            assertThat(c.run(Command.of("wc -c")).stdoutText().strip()).isEqualTo("0");
            byte[] big = new byte[3 << 20];
            new Random(1).nextBytes(big);
            CommandResult r = c.run(Command.of("cat").stdin(big)); // over one frame: streamed
            assertThat(r.stdout()).isEqualTo(big);
            assertThatThrownBy(() -> c.run(Command.of("wc -c").stdin(new byte[17 << 20])))
                    .isInstanceOf(ShellException.class).hasMessageContaining("over the limit of 16777216 per connection");
            assertThat(c.run(Command.of("wc -c").stdin(new byte[15 << 20])).stdoutText().strip()).isEqualTo(Integer.toString(15 << 20));
            CommandResult e = c.run(Command.of("echo \"$PWD|$A|$B\"").cwd(Path.of("/usr")).env("A", "x y").env("B", "é'\n"));
            assertThat(e.stdoutText()).isEqualTo("/usr|x y|é'\n\n");
            CommandResult capped = c.run(Command.of("head -c 100000 /dev/zero; echo oops >&2").maxOutputBytes(10));
            assertThat(capped.stdout()).hasSize(10);
            assertThat(capped.truncated()).isTrue();
        }
    }

    @Test
    void timeoutKillsTheProcessGroupAndSaysSo() throws Exception {
        Path pidFile = server.dir.resolve("bg.pid");
        try (BriskClient c = client()) {
            CommandResult r = c.run(Command.of("sleep 60 & echo $! > " + pidFile + "; wait").timeout(Duration.ofMillis(300)));
            assertThat(r.timedOut()).isTrue();
            assertThat(r.exitCode()).isIn(137, 143);
            long bg = Long.parseLong(Files.readString(pidFile).strip());
            assertThat(ServeServer.awaitGone(List.of(bg), 5)).isEmpty();
        }
    }

    @Test
    void sessionsKeepStateAndAreIsolated() throws Exception {
        try (BriskClient c = client(); BriskClient.Session a = c.session(); BriskClient.Session b = c.session()) {
            a.run(Command.of("cd /tmp; x=1; f() { echo fa; }"));
            b.run(Command.of("cd /usr; x=2"));
            assertThat(a.run(Command.of("echo $PWD $x; f")).stdoutText()).isEqualTo("/tmp 1\nfa\n");
            assertThat(b.run(Command.of("echo $PWD $x; type f >/dev/null 2>&1 || echo nof")).stdoutText()).isEqualTo("/usr 2\nnof\n");
            assertThat(c.run(Command.of("echo \"[$x]\"")).stdoutText()).isEqualTo("[]\n");
        }
    }

    @Test
    void hundredClientsTimesFiftyCommandsAtOnce() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(100);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                int client = i;
                done.add(threads.submit(() -> {
                    int ok = 0;
                    try (BriskClient c = client()) {
                        for (int j = 0; j < 50; j++) {
                            String cmd = j % 10 == 0 ? "echo o" + client + "-" + j + "; echo e" + j + " >&2; exit " + (j % 7)
                                    : "echo o" + client + "-" + j;
                            CommandResult r = c.run(Command.of(cmd));
                            boolean good = r.stdoutText().equals("o" + client + "-" + j + "\n")
                                    && (j % 10 != 0 ? r.exitCode() == 0 && r.stderr().length == 0
                                            : r.exitCode() == j % 7 && r.stderrText().equals("e" + j + "\n"));
                            ok += good ? 1 : 0;
                        }
                    }
                    return ok;
                }));
            }
            int total = 0;
            for (Future<Integer> f : done) {
                total += f.get(100, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(5000);
        } finally {
            threads.shutdownNow();
        }
        // one connection shared by many threads: requests multiplexed by id
        try (BriskClient c = client()) {
            List<CompletableFuture<String>> rs = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                String want = "r" + i;
                rs.add(CompletableFuture.supplyAsync(() -> c.run(Command.of("sleep 0.0$((RANDOM % 5)); echo " + want)).stdoutText()));
            }
            for (int i = 0; i < 30; i++) {
                assertThat(rs.get(i).get(60, TimeUnit.SECONDS)).isEqualTo("r" + i + "\n");
            }
        }
    }

    @Test
    void interruptCancelsTheCommand() throws Exception {
        Path pidFile = server.dir.resolve("cancel.pid");
        try (BriskClient c = client()) {
            Thread t = Thread.currentThread();
            CompletableFuture<Void> later = CompletableFuture.runAsync(() -> {
                try {
                    while (!Files.exists(pidFile) || Files.size(pidFile) == 0) {
                        Thread.sleep(10);
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
                t.interrupt();
            });
            assertThatThrownBy(() -> c.run(Command.of("echo $$ > " + pidFile + "; exec sleep 60")))
                    .isInstanceOf(ShellException.class);
            Thread.interrupted();
            later.join();
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            assertThat(ServeServer.awaitGone(List.of(pid), 5)).isEmpty();
            assertThat(c.run(Command.of("echo still")).stdoutText()).isEqualTo("still\n");
        }
    }

    @Test
    void interruptsOfOneCallerLeaveTheConnectionToTheOthers() throws Exception {
        Path running = server.dir.resolve("other.running");
        try (BriskClient c = client()) {
            CompletableFuture<String> other = CompletableFuture.supplyAsync(
                    () -> c.run(Command.of(": > " + running + "; sleep 2; echo survived")).stdoutText());
            while (!Files.exists(running) && !other.isDone()) {
                Thread.sleep(10);
            }
            List<Throwable> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
            int[] cancelled = {0};
            Thread caller = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 300; i++) {
                    try {
                        c.run(Command.of("echo " + i).stdin(new byte[40_000]));
                    } catch (ShellException e) {
                        cancelled[0]++;
                    } catch (Throwable e) {
                        unexpected.add(e);
                    }
                    Thread.interrupted();
                }
            });
            // interrupts land anywhere: in the request's queueing, in the wait, in the cancel
            while (caller.isAlive()) {
                caller.interrupt();
                Thread.sleep(0, 20_000);
            }
            caller.join();
            assertThat(unexpected).isEmpty();
            assertThat(cancelled[0]).isPositive();
            assertThat(other.get(60, TimeUnit.SECONDS)).isEqualTo("survived\n");
            // the cancelled requests count against the connection's 32 in flight until their
            // runners have ended: wait for room rather than assume it
            String still = null;
            for (long end = System.nanoTime() + 30_000_000_000L; still == null; ) {
                try {
                    still = c.run(Command.of("echo still")).stdoutText();
                } catch (ShellException e) {
                    if (!e.getMessage().contains("too many requests in flight") || System.nanoTime() > end) {
                        throw e;
                    }
                    Thread.sleep(50);
                }
            }
            assertThat(still).isEqualTo("still\n");
        }
    }

    @Test
    void aServerThatNeverSaysHelloFailsTheConnectAtItsTimeout() throws Exception {
        Path silent = server.dir.resolve("silent.sock");
        try (java.nio.channels.ServerSocketChannel listener =
                java.nio.channels.ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            listener.bind(UnixDomainSocketAddress.of(silent));
            CompletableFuture<SocketChannel> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return listener.accept();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            assertThatThrownBy(() -> BriskClient.connect(silent, Duration.ofMillis(700))).isInstanceOf(IOException.class)
                    .hasMessage("cannot connect to brisk serve at " + silent + ": read: no progress within 700 ms");
            assertThatThrownBy(() -> BriskClient.connect(silent, Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class);
            accepted.get(10, TimeUnit.SECONDS).close();
        } finally {
            Files.deleteIfExists(silent);
        }
    }

    // ---- bad input from a raw socket ----

    private static SocketChannel raw() throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(server.socket));
        Frame hello = readFrame(ch);
        assertThat(hello.type).isEqualTo((byte) 'H');
        assertThat(new String(hello.payload)).isEqualTo("brisk-serve 1");
        return ch;
    }

    record Frame(byte type, int id, byte[] payload) {}

    private static Frame readFrame(SocketChannel ch) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(9);
        while (h.hasRemaining()) {
            if (ch.read(h) < 0) {
                return null;
            }
        }
        h.flip();
        byte type = h.get();
        int id = h.getInt();
        ByteBuffer p = ByteBuffer.allocate(h.getInt());
        while (p.hasRemaining()) {
            if (ch.read(p) < 0) {
                return null;
            }
        }
        return new Frame(type, id, p.array());
    }

    private static void send(SocketChannel ch, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static byte[] frame(char type, int id, byte[] payload) {
        return ByteBuffer.allocate(9 + payload.length).put((byte) type).putInt(id).putInt(payload.length).put(payload).array();
    }

    private static byte[] field(char tag, String value) {
        byte[] v = value.getBytes(StandardCharsets.ISO_8859_1);
        return ByteBuffer.allocate(5 + v.length).put((byte) tag).putInt(v.length).put(v).array();
    }

    /** Reads until end of stream; returns the frames read. */
    private static List<Frame> untilClosed(SocketChannel ch) throws IOException {
        List<Frame> got = new ArrayList<>();
        try {
            for (Frame f; (f = readFrame(ch)) != null; ) {
                got.add(f);
            }
        } catch (java.net.SocketException e) {
            // reset: the server closed with our junk unread in its buffer
        }
        return got;
    }

    @Test
    void badFramesLeaveTheServerServing() throws Exception {
        try (BriskClient bystander = client()) {
            CompletableFuture<CommandResult> running = CompletableFuture.supplyAsync(
                    () -> bystander.run(Command.of("sleep 1; echo survived")));
            // unknown frame type: error frame, connection closed
            try (SocketChannel ch = raw()) {
                send(ch, frame('Z', 1, new byte[3]));
                List<Frame> got = untilClosed(ch);
                assertThat(got).hasSize(1);
                assertThat(got.get(0).type).isEqualTo((byte) 'E');
                assertThat(new String(got.get(0).payload)).contains("unknown frame type 'Z'");
            }
            // oversized length
            try (SocketChannel ch = raw()) {
                send(ch, ByteBuffer.allocate(9).put((byte) 'R').putInt(1).putInt(0x7fffffff).array());
                List<Frame> got = untilClosed(ch);
                assertThat(new String(got.get(0).payload)).contains("over the limit of 1048576");
            }
            // truncated frame, then the client goes away
            try (SocketChannel ch = raw()) {
                send(ch, new byte[] {'R', 0, 0, 0, 1, 0, 0, 0, 50, 'c', 0});
                ch.shutdownOutput();
                List<Frame> got = untilClosed(ch);
                assertThat(new String(got.get(0).payload)).contains("truncated frame");
            }
            // random bytes
            Random rnd = new Random(42);
            for (int i = 0; i < 20; i++) {
                try (SocketChannel ch = raw()) {
                    byte[] junk = new byte[1 + rnd.nextInt(3000)];
                    rnd.nextBytes(junk);
                    send(ch, junk);
                    ch.shutdownOutput();
                    untilClosed(ch);
                }
            }
            // errors that leave the connection usable: bad fields, invalid UTF-8, unknown session
            try (SocketChannel ch = raw()) {
                send(ch, frame('R', 5, field('q', "x")));
                Frame f = readFrame(ch);
                assertThat(f.type).isEqualTo((byte) 'E');
                assertThat(f.id).isEqualTo(5);
                send(ch, frame('R', 6, concat(field('c', "echo $X"), field('e', "X=\u00ff\u00fe"))));
                f = readFrame(ch);
                assertThat(new String(f.payload)).contains("not valid UTF-8");
                send(ch, frame('R', 7, concat(field('c', "true"), field('S', "99"))));
                assertThat(new String(readFrame(ch).payload)).contains("no open session 99");
                send(ch, frame('R', 8, field('c', "printf ok")));
                f = readFrame(ch);
                assertThat(f.type).isEqualTo((byte) 'o');
                assertThat(new String(f.payload)).isEqualTo("ok");
                assertThat(readFrame(ch).type).isEqualTo((byte) 'x');
                // an id reused while its request runs: the stream cannot be trusted any more
                send(ch, frame('R', 9, field('c', "sleep 30")));
                send(ch, frame('R', 9, field('c', "true")));
                List<Frame> got = untilClosed(ch);
                assertThat(new String(got.get(got.size() - 1).payload)).contains("already in use");
            }
            assertThat(running.get(30, TimeUnit.SECONDS).stdoutText()).isEqualTo("survived\n");
        }
        try (BriskClient next = client()) {
            assertThat(next.run(Command.of("echo next")).stdoutText()).isEqualTo("next\n");
        }
    }

    @Test
    void inFlightLimitAndCancelFrames() throws Exception {
        try (SocketChannel ch = raw()) {
            for (int id = 1; id <= 32; id++) {
                send(ch, frame('R', id, field('c', "sleep 30")));
            }
            send(ch, frame('R', 33, field('c', "true")));
            Frame refused = readFrame(ch);
            assertThat(refused.id).isEqualTo(33);
            assertThat(new String(refused.payload)).contains("too many requests in flight on this connection (limit 32)");
            for (int id = 1; id <= 32; id++) {
                send(ch, frame('C', id, new byte[0]));
            }
            java.util.Set<Integer> cancelled = new java.util.HashSet<>();
            for (int i = 0; i < 32; i++) {
                Frame f = readFrame(ch);
                assertThat(f.type).isEqualTo((byte) 'E');
                assertThat(new String(f.payload)).isEqualTo("cancelled");
                cancelled.add(f.id);
            }
            assertThat(cancelled).hasSize(32);
            send(ch, frame('C', 12345, new byte[0])); // not live: ignored
            send(ch, frame('R', 1, field('c', "printf again")));
            assertThat(new String(readFrame(ch).payload)).isEqualTo("again");
            assertThat(readFrame(ch).type).isEqualTo((byte) 'x');
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        return ByteBuffer.allocate(a.length + b.length).put(a).put(b).array();
    }

    @Test
    void anotherUidIsRefused() throws Exception {
        // The directory check (0700, ours) keeps other users off the socket at start-up. To prove
        // the second line of defence, the peer-uid check, the test opens the door afterwards:
        // directory 0711 (traversable) and socket 0666, then connects as uid 65534.
        Files.setPosixFilePermissions(server.dir, PosixFilePermissions.fromString("rwx--x--x"));
        Files.setPosixFilePermissions(server.socket, PosixFilePermissions.fromString("rw-rw-rw-"));
        try {
            String script = """
                    import socket, struct, sys
                    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
                    data = b''
                    while True:
                        d = s.recv(4096)
                        if not d: break
                        data += d
                    t, i, n = struct.unpack('>cII', data[:9])
                    print(t.decode(), i, data[9:9 + n].decode(), len(data) - 9 - n)
                    """;
            Process p = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                    "/usr/bin/python3", "-c", script, server.socket.toString()).redirectErrorStream(true).start();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(out).startsWith("E 0 permission denied").endsWith(" 0\n");
            assertThat(p.exitValue()).isZero();
            // the Python client, as that user, gets the refusal as its error
            Path pub = Files.createDirectories(server.dir.resolve("pub")); // listable: Python's import lists it
            Files.setPosixFilePermissions(pub, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path copy = Files.createDirectories(pub.resolve("brisk_client"));
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
            try (var sources = Files.list(CLIENTS.resolve("python/brisk_client"))) {
                for (Path source : sources.filter(f -> f.toString().endsWith(".py")).toList()) {
                    Path file = copy.resolve(source.getFileName());
                    Files.copy(source, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
                }
            }
            Process q = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                    "/usr/bin/python3", "-c", "import sys; sys.path.insert(0, sys.argv[1]); import brisk_client as b\n"
                            + "try:\n b.Client(sys.argv[2])\nexcept b.BriskError as e:\n print(e)",
                    pub.toString(), server.socket.toString()).redirectErrorStream(true).start();
            assertThat(q.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .startsWith("the server refused the connection: permission denied");
        } finally {
            Files.setPosixFilePermissions(server.dir, PosixFilePermissions.fromString("rwx------"));
            Files.setPosixFilePermissions(server.socket, PosixFilePermissions.fromString("rw-------"));
        }
        try (BriskClient c = client()) {
            assertThat(c.run(Command.of("echo own")).stdoutText()).isEqualTo("own\n");
        }
    }

    @Test
    void killingAClientKillsItsCommands() throws Exception {
        Path pidFile = server.dir.resolve("client-kill.pid");
        Path sessionPid = server.dir.resolve("client-kill-session.pid");
        String script = "import sys; sys.path.insert(0, sys.argv[1]); import brisk_client as b; "
                + "c = b.Client(sys.argv[2]); s = c.session(); s.run('echo $$ > " + sessionPid + "; x=1'); "
                + "c.run('echo $$ > " + pidFile + "; exec sleep 60')";
        Process p = new ProcessBuilder("python3", "-c", script, CLIENTS.resolve("python").toString(), server.socket.toString())
                .redirectErrorStream(true).start();
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(pidFile) || Files.size(pidFile) == 0) {
                assertThat(System.nanoTime()).isLessThan(until);
                Thread.sleep(10);
            }
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            long session = Long.parseLong(Files.readString(sessionPid).strip());
            assertThat(ServeServer.alive(pid)).isTrue();
            assertThat(ServeServer.alive(session)).isTrue();
            p.destroyForcibly().waitFor();
            // its command and its session's shell both go with it
            assertThat(ServeServer.awaitGone(List.of(pid, session), 5)).isEmpty();
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    private static String runScript(List<String> cmd) throws Exception {
        return runScript(cmd, java.util.Map.of());
    }

    private static String runScript(List<String> cmd, java.util.Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("BRISK_SOCKET", server.socket.toString());
        pb.environment().putAll(env);
        return ProcessOutput.of(pb, 100);
    }

    @Test
    void lispClient() throws Exception {
        String out = runScript(List.of("sbcl", "--script", CLIENTS.resolve("lisp/test-brisk.lisp").toString()));
        assertThat(out).contains("all passed");
    }

    /**
     * The ASDF system from a clean home: found through ~/common-lisp/ (a link to clients/lisp),
     * compiled into that home's cache, and its tests ({@code brisk/test}: run-program beside
     * uiop:run-program) passed; then found through {@code asdf:*central-registry*} alone.
     */
    @Test
    void lispAsdfSystem() throws Exception {
        Path home = Files.createDirectory(server.dir.resolve("lisp-home"));
        Files.createSymbolicLink(Files.createDirectory(home.resolve("common-lisp")).resolve("brisk"), CLIENTS.resolve("lisp"));
        java.util.Map<String, String> clean = java.util.Map.of("HOME", home.toString(), "XDG_CACHE_HOME", home.resolve(".cache").toString(),
                "XDG_CONFIG_HOME", home.resolve(".config").toString(), "XDG_DATA_HOME", home.resolve(".local/share").toString(),
                "XDG_DATA_DIRS", "/nonexistent", "XDG_CONFIG_DIRS", "/nonexistent");
        String out = runScript(List.of("sbcl", "--non-interactive", "--no-userinit", "--no-sysinit",
                "--eval", "(require :asdf)", "--eval", "(asdf:test-system \"brisk\")"), clean);
        assertThat(out).contains("brisk/test: all passed");
        Files.delete(home.resolve("common-lisp").resolve("brisk"));
        String again = runScript(List.of("sbcl", "--non-interactive", "--no-userinit", "--no-sysinit",
                "--eval", "(require :asdf)",
                "--eval", "(push #p\"" + CLIENTS.resolve("lisp") + "/\" asdf:*central-registry*)",
                "--eval", "(asdf:load-system \"brisk\")",
                "--eval", "(format t \"[~a]~%\" (brisk:run-program '(\"echo\" \"it's\") :output '(:string :stripped t)))"), clean);
        assertThat(again).contains("[it's]");
    }
}
