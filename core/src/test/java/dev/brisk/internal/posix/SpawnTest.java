// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each option of {@link Spawn}, seen from inside a real child (sh reading its own /proc entries),
 * with brisk's own start ({@link NativeSpawn}) where it runs; {@link PosixSpawnTest} runs them all
 * again with glibc's posix_spawn.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SpawnTest {
    private static final byte[] SH = "/bin/sh".getBytes(UTF_8);

    @TempDir
    Path dir;

    /** A new spawn: brisk's own start where it runs ({@link PosixSpawnTest}: glibc's posix_spawn). */
    Spawn spawn() {
        return new Spawn();
    }

    /**
     * On x86-64 Linux whose kernel answers clone3 (5.5 or later here; container runtimes' seccomp
     * filters may refuse it) the tests here run brisk's own start (NativeSpawn), not posix_spawn.
     */
    @Test
    void x86StartsWithBrisksOwnCode() throws IOException {
        Assumptions.assumeTrue(NativeSpawn.clone3Answers(), "the kernel does not answer clone3");
        String arch = System.getProperty("os.arch");
        Path out = dir.resolve("started");
        try (Spawn s = spawn().open(1, out.toString().getBytes(UTF_8), Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC)) {
            // a start first: a kernel before 5.5 refuses it, and every later start is posix_spawn's
            int pid = s.start(SH, sh("echo started"), null);
            assertThat(pid).isPositive();
            assertThat(WaitStatus.shellStatus(WaitStatus.waitFor(pid))).isZero();
            assertThat(s.startsNatively()).isEqualTo("amd64".equals(arch) || "x86_64".equals(arch));
        }
        assertThat(Files.readString(out)).isEqualTo("started\n");
    }

    /**
     * A program (grep) reads its signal mask and dispositions from /proc: the same under this
     * start as under posix_spawn, with and without a set to default, with signals kept ignored.
     */
    @Test
    void signalsAsPosixSpawnLeavesThem() throws IOException {
        byte[] grep = "/usr/bin/grep".getBytes(UTF_8);
        List<byte[]> argv = List.of("grep".getBytes(UTF_8), "-E".getBytes(UTF_8), "^Sig(Blk|Ign|Cgt)".getBytes(UTF_8),
                "/proc/self/status".getBytes(UTF_8));
        for (long keep : new long[] {-1, 0, Signals.GLIBC_INTERNAL, 1L << 31, 1L << 32, 1L << (Signals.SIGHUP - 1), Spawn.CALLER_IGNORED}) {
            Spawn ours = keep == -1 ? spawn() : spawn().defaultSignals(keep);
            Spawn glibc = keep == -1 ? new Spawn().posixSpawn() : new Spawn().posixSpawn().defaultSignals(keep);
            assertThat(run(ours, grep, argv)).as("keep %x", keep).isEqualTo(run(glibc, grep, argv)).contains("SigIgn:");
        }
    }

    private String run(Spawn spawn, byte[] program, List<byte[]> argv) throws IOException {
        Path out = dir.resolve("run");
        try (spawn) {
            spawn.open(1, out.toString().getBytes(UTF_8), Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC);
            int pid = spawn.start(program, argv, null);
            assertThat(pid).isPositive();
            assertThat(WaitStatus.shellStatus(WaitStatus.waitFor(pid))).isZero();
        }
        return Files.readString(out);
    }

    private static List<byte[]> sh(String script) {
        return List.of("sh".getBytes(UTF_8), "-c".getBytes(UTF_8), script.getBytes(UTF_8));
    }

    /** Runs {@code script} with {@code spawn}, stdout into a file; returns what it printed. */
    private String output(Spawn spawn, String script) throws IOException {
        Path out = dir.resolve("out");
        try (spawn) {
            spawn.open(1, out.toString().getBytes(UTF_8), Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC);
            int pid = spawn.start(SH, sh(script), null);
            assertThat(pid).isPositive();
            assertThat(WaitStatus.shellStatus(WaitStatus.waitFor(pid))).isZero();
        }
        return Files.readString(out).strip();
    }

    /** Fields 5 and 6 of the child's /proc/PID/stat: its process group and session, and its pid. */
    private long[] ids(Spawn spawn) throws IOException {
        String[] f = output(spawn, "echo $$ $(cut -d' ' -f5,6 /proc/$$/stat)").split(" ");
        return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])};
    }

    @Test
    void openGivesTheChildAFileAsADescriptor() throws IOException {
        Files.writeString(dir.resolve("in"), "from a file\n");
        assertThat(output(spawn().open(0, dir.resolve("in").toString().getBytes(UTF_8), Flags.O_RDONLY), "cat"))
                .isEqualTo("from a file");
    }

    @Test
    void dup2GivesTheChildOneOfOurDescriptors() throws IOException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fds = a.allocate(ValueLayout.JAVA_INT, 2);
            assertThat(Libc.pipe2(fds, Flags.O_CLOEXEC)).isZero();
            int r = fds.getAtIndex(ValueLayout.JAVA_INT, 0), w = fds.getAtIndex(ValueLayout.JAVA_INT, 1);
            try (Spawn s = spawn().dup2(w, 7)) {
                int pid = s.start(SH, sh("echo through seven >&7"), null);
                Libc.close(w);
                WaitStatus.waitFor(pid);
                MemorySegment buf = a.allocate(100);
                long n = Libc.read(r, buf, 100);
                assertThat(new String(buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), UTF_8)).isEqualTo("through seven\n");
            } finally {
                Libc.close(r);
            }
        }
    }

    @Test
    void descriptorsWithoutCloseOnExecAreInheritedUnlessClosedFrom() throws IOException {
        int fd = Libc.open("/dev/null".getBytes(UTF_8), Flags.O_RDONLY, 0); // no O_CLOEXEC: inherited
        try {
            String check = "[ -e /proc/$$/fd/" + fd + " ] && echo open || echo closed";
            assertThat(output(spawn(), check)).isEqualTo("open");
            assertThat(output(spawn().closeFrom(3), check)).isEqualTo("closed");
        } finally {
            Libc.close(fd);
        }
    }

    @Test
    void chdirMovesTheChild() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub dir"));
        assertThat(output(spawn().chdir(sub.toString().getBytes(UTF_8)), "pwd -P")).isEqualTo(sub.toRealPath().toString());
    }

    @Test
    void groupsAndSessions() throws IOException {
        long ourGroup = Long.parseLong(Files.readString(Path.of("/proc/self/stat")).split(" ")[4]);
        long ourSession = Long.parseLong(Files.readString(Path.of("/proc/self/stat")).split(" ")[5]);
        long[] inherit = ids(spawn());
        assertThat(inherit[1]).isEqualTo(ourGroup);
        assertThat(inherit[2]).isEqualTo(ourSession);
        long[] own = ids(spawn().ownGroup());
        assertThat(own[1]).isEqualTo(own[0]);
        assertThat(own[2]).isEqualTo(ourSession);
        long[] session = ids(spawn().newSession());
        assertThat(session[1]).isEqualTo(session[0]);
        assertThat(session[2]).isEqualTo(session[0]);

        int leader = spawn().ownGroup().start("/bin/sleep".getBytes(UTF_8),
                List.of("sleep".getBytes(UTF_8), "5".getBytes(UTF_8)), null);
        try {
            long[] joined = ids(spawn().joinGroup(leader));
            assertThat(joined[1]).isEqualTo(leader);
            try (Arena a = Arena.ofConfined(); Spawn s = spawn().ownGroup()) {
                // a pipeline's later command joins the first one's group, whatever the spawn says
                Path out = dir.resolve("joined");
                s.open(1, out.toString().getBytes(UTF_8), Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC);
                int pid = s.start(a, Libc.cString(a, SH), Spawn.vector(a, sh("cut -d' ' -f5 /proc/$$/stat")),
                        Environ.pointer(), leader);
                WaitStatus.waitFor(pid);
                assertThat(Files.readString(out).strip()).isEqualTo(Integer.toString(leader));
            }
        } finally {
            Libc.signal(leader, Signals.SIGKILL);
            WaitStatus.waitFor(leader);
        }
    }

    /**
     * A child of the JVM starts with an empty mask and default dispositions (ignored signals the
     * JVM was started with are kept when asked: SignalChild's pool test covers that). Without, it
     * inherits the calling thread's mask, in which HotSpot blocks SIGQUIT. glibc's two internal
     * signals (32 and 33) are at their default too, as after fork and exec: glibc's posix_spawn
     * would leave them ignored in the child, unless their bits are set in the set to default.
     */
    @Test
    void defaultSignalsGiveAnEmptyMaskAndNoIgnoredSignals() throws IOException {
        String status = "grep -E '^Sig(Blk|Ign)' /proc/$$/status | tr -s '\\t\\n' '  '";
        assertThat(output(spawn().defaultSignals(0), status)).isEqualTo("SigBlk: 0000000000000000 SigIgn: 0000000000000000");
        assertThat(output(spawn(), status)).doesNotStartWith("SigBlk: 0000000000000000");
        // kept ignored when asked, as the pool's and par's direct children keep them (their shells'
        // dispositions: ProcessBuilder's children have both ignored)
        assertThat(output(spawn().defaultSignals(Signals.GLIBC_INTERNAL), status))
                .isEqualTo("SigBlk: 0000000000000000 SigIgn: 0000000180000000");
    }

    @Test
    void errorsComeBackAsMinusErrnoAndNothingRuns() throws IOException {
        List<byte[]> argv = List.of("x".getBytes(UTF_8));
        assertThat(spawn().start("/nonexistent/x".getBytes(UTF_8), argv, null)).isEqualTo(-Errno.ENOENT);
        assertThat(spawn().start(dir.toString().getBytes(UTF_8), argv, null)).isEqualTo(-Errno.EACCES);
        Path plain = Files.writeString(dir.resolve("plain"), "echo hi\n");
        assertThat(spawn().start(plain.toString().getBytes(UTF_8), argv, null)).isEqualTo(-Errno.EACCES);
        assertThat(spawn().open(0, "/nonexistent/in".getBytes(UTF_8), Flags.O_RDONLY).start(SH, sh("true"), null))
                .isEqualTo(-Errno.ENOENT);
        assertThat(spawn().chdir("/nonexistent".getBytes(UTF_8)).start(SH, sh("true"), null)).isEqualTo(-Errno.ENOENT);
    }

    @Test
    void aScriptWithoutHashBangRunsWithShOnlyWhenAsked() throws IOException {
        Path script = Files.writeString(dir.resolve("script"), "echo script says $1\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        List<byte[]> argv = List.of("script".getBytes(UTF_8), "hello".getBytes(UTF_8));
        assertThat(spawn().start(script.toString().getBytes(UTF_8), argv, null)).isEqualTo(-Errno.ENOEXEC);
        Path out = dir.resolve("out");
        try (Spawn s = spawn().scriptsWithSh().open(1, out.toString().getBytes(UTF_8), Flags.O_WRONLY | Flags.O_CREAT)) {
            int pid = s.start(script.toString().getBytes(UTF_8), argv, null);
            assertThat(WaitStatus.shellStatus(WaitStatus.waitFor(pid))).isZero();
        }
        assertThat(Files.readString(out)).isEqualTo("script says hello\n");
    }

    @Test
    void theEnvironmentIsExactlyTheOneGivenOrOurs() throws IOException {
        List<byte[]> env = new ArrayList<>(List.of("A=1".getBytes(UTF_8), "B=\u00e9".getBytes(UTF_8)));
        Path out = dir.resolve("env");
        try (Spawn s = spawn().open(1, out.toString().getBytes(UTF_8), Flags.O_WRONLY | Flags.O_CREAT)) {
            WaitStatus.waitFor(s.start("/usr/bin/env".getBytes(UTF_8), List.of("env".getBytes(UTF_8)), env));
        }
        assertThat(Files.readString(out)).isEqualTo("A=1\nB=\u00e9\n");
        assertThat(output(spawn(), "echo \"$PATH\"")).isEqualTo(System.getenv("PATH"));
    }

    @Test
    void aStartedSpawnIsReadOnlyAndSharedByThreads() throws Exception {
        Spawn s = spawn().open(1, "/dev/null".getBytes(UTF_8), Flags.O_WRONLY);
        List<Thread> threads = new ArrayList<>();
        List<Integer> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 10; i++) {
                    statuses.add(WaitStatus.shellStatus(WaitStatus.waitFor(s.start(SH, sh("exit 3"), null))));
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(statuses).hasSize(40).containsOnly(3);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.chdir("/".getBytes(UTF_8)))
                .isInstanceOf(IllegalStateException.class);
        s.close();
    }
}
