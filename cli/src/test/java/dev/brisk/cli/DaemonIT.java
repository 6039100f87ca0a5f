// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native client and the warm server together, as users call {@code brisk}: each call runs
 * in the server with the caller's own working directory, environment, umask, limits, ignored
 * signals and descriptors, concurrently with others; relayed signals, a killed server, a server
 * of another build, idle exit, other users and bad frames. Every server here is the test's own
 * child in a socket directory of its own, killed and reaped at the end.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DaemonIT {
    private static TestDaemon daemon;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() {
        daemon = TestDaemon.start(null, "--idle=0");
    }

    @AfterAll
    static void stopServer() {
        if (daemon != null) {
            daemon.stop();
        }
    }

    record Result(int status, String out, String err) {}

    /** Runs {@code sh -c script} with {@code brisk} meaning the client to {@code d}. */
    static Result sh(TestDaemon d, Path cwd, String script, byte[] stdin) throws Exception {
        List<String> cmd = new ArrayList<>(d.command().subList(0, d.command().size() - 1));
        String client = d.command().get(d.command().size() - 1);
        cmd.addAll(List.of("sh", "-c", "brisk() { \"$BRISK_CLIENT\" \"$@\"; }\n" + script));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        pb.environment().put("BRISK_CLIENT", client);
        pb.environment().put("LC_ALL", "C.UTF-8");
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin);
            }
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread drain = Thread.ofPlatform().start(() -> copy(p.getErrorStream(), err));
        byte[] out = p.getInputStream().readAllBytes();
        drain.join();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("did not finish: " + script);
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try {
            in.transferTo(out);
        } catch (IOException e) {
            // the process ended
        }
    }

    /** The same script with {@code brisk} meaning the JVM started directly. */
    static Result direct(Path cwd, String script, byte[] stdin) throws Exception {
        return sh(daemon, cwd, "export BRISK_DAEMON=0\n" + script, stdin);
    }

    @Test
    void callsRunInTheServerNotInAJvmOfTheirOwn() throws Exception {
        long before = served();
        Result r = sh(daemon, dir, "brisk --version", null);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("brisk ");
        assertThat(served()).isGreaterThan(before);
    }

    private static long served() throws Exception {
        Result s = sh(daemon, Path.of("/"), "brisk daemon status", null);
        assertThat(s.status()).as(s.err()).isZero();
        String line = s.out().lines().filter(l -> l.startsWith("calls served: ")).findFirst().orElseThrow();
        return Long.parseLong(line.substring("calls served: ".length()).split(" ")[0]);
    }

    @Test
    void twoDozenConcurrentCallsEachSeeOnlyTheirOwnState() throws Exception {
        int n = 24;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Result>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Path d = Files.createDirectories(dir.resolve("call" + i));
                Files.writeString(d.resolve("mine-" + i), "x");
                int mask = i % 2 == 0 ? 077 : 027;
                String script = "umask " + Integer.toOctalString(mask) + "; export WHO=" + i + "\n"
                        + "brisk pv -q\n"
                        + "brisk find . -name 'mine-*'\n"
                        + "brisk par -j1 'echo $WHO; umask #' ::: x\n"
                        + "brisk find . -maxdepth 0 -exec sh -c 'echo exec $WHO $(umask)' \\;\n";
                byte[] stdin = ("stdin of " + i + "\n").getBytes(StandardCharsets.UTF_8);
                results.add(pool.submit(() -> sh(daemon, d, script, stdin)));
            }
            for (int i = 0; i < n; i++) {
                Result r = results.get(i).get(90, TimeUnit.SECONDS);
                String mask = i % 2 == 0 ? "0077" : "0027";
                assertThat(r.status()).as(r.err()).isZero();
                assertThat(r.out()).isEqualTo("stdin of " + i + "\n./mine-" + i + "\n" + i + "\n" + mask + "\nexec " + i
                        + " " + mask + "\n");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Through the server and in a JVM of its own, the same command lines give the same output,
     * the same one-line errors and the same statuses: bad input, and a full disk (/dev/full) as
     * standard output, which must fail with a message, never exit 0.
     */
    @Test
    void theServerAndADirectRunAnswerAlike() throws Exception {
        Files.writeString(dir.resolve("data"), "some data\n");
        Files.createDirectories(dir.resolve("t/a"));
        Files.writeString(dir.resolve("t/a/f"), "x");
        List<String> lines = List.of("brisk find t -name f", "brisk pv -q data", "brisk par -k echo ::: b a",
                "brisk --version", "brisk daemon bogus", "brisk bogus", "brisk pv -q /nonexistent",
                "brisk par --bogus echo ::: a", "brisk find t -bogus", "brisk daemon run --idle=-3",
                "brisk --version >/dev/full", "brisk --help >/dev/full", "brisk pv -q data >/dev/full",
                "brisk par echo ::: a >/dev/full", "brisk daemon --help >/dev/full");
        for (String line : lines) {
            Result ours = sh(daemon, dir, line, null);
            Result plain = direct(dir, line, null);
            assertThat(ours).as(line).isEqualTo(plain);
            if (line.contains("/dev/full") || line.contains("bogus") || line.contains("nonexistent") || line.contains("-3")) {
                assertThat(ours.status()).as(line).isNotZero();
                assertThat(ours.err().lines().toList()).as(line).hasSize(1);
            }
        }
    }

    @Test
    void aRelativePathWorksAfterTheCallersDirectoryWasRenamed() throws Exception {
        Path d = Files.createDirectories(dir.resolve("before"));
        Files.writeString(d.resolve("f"), "x");
        String script = "cd before && mv ../before ../after && brisk find . -name f && brisk pv -q f";
        Result ours = sh(daemon, dir, script, null);
        assertThat(ours.status()).as(ours.err()).isZero();
        assertThat(ours.out()).isEqualTo("./f\nx");
    }

    @Test
    void aCallerInAnotherMountNamespaceSeesItsOwnFiles() throws Exception {
        Result can = sh(daemon, dir, "unshare -m true", null);
        assumeTrue(can.status() == 0, "unshare -m is not permitted here: " + can.err());
        Files.createDirectories(dir.resolve("mnt"));
        // the tmpfs and its file exist only in the caller's namespace: a server that walked its
        // own view of the absolute path would find an empty directory, and no tmpfs
        String script = "unshare -m --propagation private sh -c 'mount -t tmpfs brisk-test \"$1\" && touch \"$1/inside\""
                + " && \"$BRISK_CLIENT\" find \"$1\" -name inside -fstype tmpfs' sh " + dir.resolve("mnt");
        Result r = sh(daemon, dir, script, null);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(dir.resolve("mnt/inside") + "\n");
        assertThat(Files.exists(dir.resolve("mnt/inside"))).isFalse();
    }

    @Test
    void childrenGetTheCallersLimitsAndIgnoredSignals() throws Exception {
        // glibc's internal signals 32 and 33 start at their default in brisk's children (see
        // ChildLimitsIT), whatever a JVM parent left them: compare the other 62
        String show = "echo $(ulimit -Sn) $(ulimit -Sc) $(umask) $(( 0x$(grep SigIgn /proc/self/status | cut -f2) & ~0x180000000 )) #";
        String setup = "ulimit -Sn 77; ulimit -Sc 0; umask 026; trap '' INT QUIT\n";
        Result plain = sh(daemon, dir, setup + "sh -c '" + show + "'", null);
        Result find = sh(daemon, dir, setup + "brisk find . -maxdepth 0 -exec sh -c '" + show + "' \\;", null);
        Result par = sh(daemon, dir, setup + "brisk par -j1 '" + show + "' ::: x", null);
        assertThat(plain.out()).isEqualTo("77 0 0026 6\n"); // SIGINT and SIGQUIT
        assertThat(find.out()).as(find.err()).isEqualTo(plain.out());
        assertThat(par.out()).as(par.err()).isEqualTo(plain.out());
    }

    @Test
    void findIntoAPipeThatClosesEndsAtOnceWithTheDirectRunsStatus() throws Exception {
        String pipe = "exec bash -c '\"$BRISK_CLIENT\" find / 2>/dev/null | head -1 >/dev/null; echo ${PIPESTATUS[0]}'";
        Result ours = sh(daemon, dir, pipe, null);
        Result plain = direct(dir, pipe, null);
        assertThat(plain.out()).isNotBlank();
        assertThat(ours.out()).isEqualTo(plain.out());
    }

    @Test
    void sigintToAClientEndsItsJobsAndNotAnotherCall() throws Exception {
        Path pids = dir.resolve("pids");
        Path otherOut = dir.resolve("other");
        ProcessBuilder other = new ProcessBuilder(cmd(daemon, "par", "-j1", "sleep 2; echo done", ":::", "now"))
                .redirectOutput(otherOut.toFile());
        Process o = other.start();
        ProcessBuilder pb = new ProcessBuilder(cmd(daemon, "par", "-j3", "echo $$ >> " + pids + "; exec sleep 100", ":::", "1", "2", "3"));
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        for (int i = 0; i < 400 && (!Files.exists(pids) || Files.readAllLines(pids).size() < 3); i++) {
            Thread.sleep(25);
        }
        assertThat(Files.readAllLines(pids)).hasSize(3);
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(130);
        for (String pid : Files.readAllLines(pids)) {
            boolean gone = false;
            for (int i = 0; i < 200 && !gone; i++) {
                gone = !Files.exists(Path.of("/proc", pid.strip())) || Files.readString(Path.of("/proc", pid.strip(), "stat")).contains(") Z ");
                if (!gone) {
                    Thread.sleep(10);
                }
            }
            assertThat(gone).as("job %s ended", pid).isTrue();
        }
        assertThat(o.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(o.exitValue()).isZero();
        assertThat(Files.readString(otherOut)).isEqualTo("done now\n");
    }

    static List<String> cmd(TestDaemon d, String... args) {
        List<String> c = new ArrayList<>(d.command());
        c.addAll(List.of(args));
        return c;
    }

    /**
     * pv draws its progress on the caller's terminal (a real pty, through script(1)) when the
     * caller is in its foreground, and stays quiet when it is not (another session: setsid), as
     * pv itself does; the server cannot ask the terminal, so it reads the client's tpgid.
     */
    @Test
    void pvDrawsOnTheCallersTerminalOnlyInTheForeground() throws Exception {
        Files.write(dir.resolve("data"), new byte[4 << 20]);
        String pv = "brisk pv -s 4M -L 8M data >/dev/null";
        Result fg = sh(daemon, dir, "script -qec '" + pv.replace("brisk", "\"$BRISK_CLIENT\"") + "' /dev/null", null);
        assertThat(fg.out()).contains("100%").contains("4.00MiB");
        Result bg = sh(daemon, dir, "script -qec 'setsid -w " + pv.replace("brisk", "\"$BRISK_CLIENT\"") + "; echo done' /dev/null", null);
        Result plain = sh(daemon, dir, "script -qec 'setsid -w pv -s 4M -L 8M data >/dev/null; echo done' /dev/null", null);
        assertThat(plain.out()).isEqualTo("done\r\n");
        assertThat(bg.out()).isEqualTo(plain.out());
    }

    @Test
    void anotherUserIsRefused() throws Exception {
        TestDaemon own = TestDaemon.start(null, "--idle=0");
        try {
            // let the other user reach the socket (the 0700 directory would keep it out first),
            // so that the server's own uid check is what refuses it
            Path sock = own.directory().resolve("daemon.sock");
            for (Path p : List.of(own.directory().getParent(), own.directory())) {
                Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
            }
            Files.setPosixFilePermissions(sock, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
            ProcessBuilder pb = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                    "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\n"
                            // the server may close before the frame is sent (EPIPE) or after (reset, or end of file)
                            + "try:\n s.sendall(b'BRK1\\0\\0\\0\\4abcd')\n n = len(s.recv(100))\n"
                            + "except (ConnectionResetError, BrokenPipeError):\n n = 0\n"
                            + "print('answer', n)\n", sock.toString());
            pb.redirectErrorStream(true);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(out.strip()).isEqualTo("answer 0");
            assertThat(own.log()).contains("refused a client of another user");
        } finally {
            own.stop();
        }
    }

    @Test
    void aServerKilledMidCallMakesTheClientSaySoAndFail() throws Exception {
        TestDaemon own = TestDaemon.start(null, "--idle=0");
        try {
            Process p = new ProcessBuilder(cmd(own, "par", "sleep", ":::", "30")).redirectErrorStream(true).start();
            // mid-call: once the server runs the call's job
            for (int i = 0; i < 300 && own.process().descendants().noneMatch(h -> h.info().arguments().map(a -> List.of(a).equals(List.of("30")))
                    .orElse(false)); i++) {
                Thread.sleep(20);
            }
            own.process().destroyForcibly();
            own.process().waitFor(10, TimeUnit.SECONDS);
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.exitValue()).isNotZero();
            assertThat(out.lines().toList()).hasSize(1);
            assertThat(out).startsWith("brisk: ");
        } finally {
            own.stop();
        }
    }

    @Test
    void aServerOfAnotherBuildIsReplacedAndTheCallStillRuns() throws Exception {
        TestDaemon old = TestDaemon.start(List.of("-Dbrisk.build=another-build"), "--idle=0");
        try {
            Process p = new ProcessBuilder(cmd(old, "--version")).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
            assertThat(out).startsWith("brisk ");
            // the old server retires (no running call): it exits by itself
            assertThat(old.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(old.log()).contains("another-build").contains("retiring");
        } finally {
            old.stop();
            stopStarted(old);
        }
    }

    /** Stops a server a client's starter may have started in {@code d}'s directory. */
    private static void stopStarted(TestDaemon d) throws Exception {
        for (int i = 0; i < 100; i++) {
            Path pid = d.directory().resolve("daemon.pid");
            if (Files.exists(pid)) {
                long n = Long.parseLong(Files.readString(pid).strip());
                ProcessHandle.of(n).ifPresent(ProcessHandle::destroy);
                return;
            }
            Thread.sleep(50);
        }
    }

    @Test
    void anIdleServerExits() throws Exception {
        TestDaemon idle = TestDaemon.start(null, "--idle=1");
        try {
            assertThat(idle.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(idle.process().exitValue()).isZero();
            assertThat(idle.log()).contains("idle for 1 s");
            assertThat(Files.exists(idle.directory().resolve("daemon.sock"))).isFalse();
        } finally {
            idle.stop();
        }
    }

    @Test
    void badAndTruncatedRequestsNeverHarmOtherCalls() throws Exception {
        Process slow = new ProcessBuilder(cmd(daemon, "par", "sleep 1; echo fine", ":::", "now")).start();
        Path sock = daemon.directory().resolve("daemon.sock");
        List<byte[]> bad = List.of(new byte[0], "BRK1".getBytes(StandardCharsets.US_ASCII),
                "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                ByteBuffer.allocate(12).putInt(0x42524b31).putInt(Integer.MAX_VALUE).putInt(5).array(),
                ByteBuffer.allocate(16).putInt(0x42524b31).putInt(8).putInt(1000).putInt(1).array());
        for (byte[] b : bad) {
            try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                ch.connect(UnixDomainSocketAddress.of(sock));
                ch.write(ByteBuffer.wrap(b));
                ch.shutdownOutput();
                ByteBuffer answer = ByteBuffer.allocate(64);
                int n;
                try {
                    n = ch.read(answer);
                } catch (java.net.SocketException reset) {
                    n = -1; // closed with our bytes unread: a reset, which is a close too
                }
                assertThat(n).isEqualTo(-1); // closed without an answer
            }
        }
        String out = new String(slow.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(slow.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(slow.exitValue()).isZero();
        assertThat(out).isEqualTo("fine now\n");
        Result r = sh(daemon, dir, "brisk find . -maxdepth 0", null);
        assertThat(r.out()).isEqualTo(".\n");
    }
}
