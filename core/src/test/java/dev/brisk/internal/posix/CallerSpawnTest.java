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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child started while a warm server's client is the thread's {@link Caller} gets that client's
 * process state, read at each start: its stdin, stdout and stderr (unless the spawn's own steps
 * replace them), its environment, its resource limits and its ignored signals; on a
 * {@link Caller#SELF} thread the same spawn gives ours. Real children (sh reading its own
 * /proc entries) write into pipes that stand for the client's descriptors. With brisk's own
 * start ({@link NativeSpawn}) where it runs; {@link PosixCallerSpawnTest} runs them all again
 * with glibc's posix_spawn, which gives the descriptors and environment but neither the limits
 * nor a signal to ignore.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CallerSpawnTest {
    private static final byte[] SH = "/bin/sh".getBytes(UTF_8);
    private static final int RLIMIT_STACK = 3, RLIMIT_CORE = 4, RLIMIT_NOFILE = 7;
    private static final long INT_QUIT = bit(Signals.SIGINT) | bit(Signals.SIGQUIT);
    /** A variable no test environment has. */
    private static final String VAR = "BRISK_CALLER_SPAWN_TEST";

    @TempDir
    Path dir;

    /** A new spawn: brisk's own start where it runs ({@link PosixCallerSpawnTest}: glibc's posix_spawn). */
    Spawn spawn() {
        return new Spawn();
    }

    /** Whether this test's spawns can give a child a client's limits and ignore a signal (brisk's own start can). */
    private boolean full() {
        try (Spawn s = spawn()) {
            return s.startsNatively();
        }
    }

    @Test
    void theChildGetsTheClientsDescriptorsEnvironmentLimitsAndIgnoredSignals() throws IOException {
        try (Pipe in = Pipe.open(); Pipe out = Pipe.open()) {
            long[][] limits = new long[Caller.RLIMITS][];
            limits[RLIMIT_NOFILE] = new long[] {64, 64};
            limits[RLIMIT_CORE] = new long[] {0, 0};
            Caller c = client(in.r, out.w, out.w, limits, INT_QUIT);
            // the child's stdin is named, not read: a broken start would read the test JVM's
            String script = "readlink /proc/$$/fd/0; echo $" + VAR + "; ulimit -n; ulimit -Hn; ulimit -c; grep SigIgn /proc/self/status;"
                    + " echo to stderr >&2";
            String expected = full()
                    ? in.name() + "\n1\n64\n64\n0\nSigIgn:\t0000000000000006\nto stderr\n"
                    : in.name() + "\n1\n" + ourLimit(RLIMIT_NOFILE, 0) + "\n" + ourLimit(RLIMIT_NOFILE, 1) + "\n"
                            + ourLimit(RLIMIT_CORE, 0) + "\n" + sigIgn(INT_QUIT & Signals.ignored()) + "\nto stderr\n";
            assertThat(run(c, spawn().defaultSignals(Spawn.CALLER_IGNORED), script, out)).isEqualTo(expected);
        }
    }

    /**
     * A client's hard limit above ours is lowered to ours (raising one needs CAP_SYS_RESOURCE)
     * and its soft one kept; a limit it does not send is ours.
     */
    @Test
    void aHardLimitAboveOursIsOurs() throws IOException {
        try (Pipe out = Pipe.open()) {
            long[][] limits = new long[Caller.RLIMITS][];
            limits[RLIMIT_NOFILE] = new long[] {64, -1}; // RLIM_INFINITY
            String expected = full() ? "64 " + ourLimit(RLIMIT_NOFILE, 1)
                    : ourLimit(RLIMIT_NOFILE, 0) + " " + ourLimit(RLIMIT_NOFILE, 1);
            expected += " " + ourLimit(RLIMIT_CORE, 0) + "\n";
            assertThat(run(client(devNull(), out.w, out.w, limits, 0), spawn(), "echo $(ulimit -n) $(ulimit -Hn) $(ulimit -c)", out))
                    .isEqualTo(expected);
        }
    }

    /**
     * The room for a command line is reckoned with the stack limit the child gets, the client's:
     * what glibc's {@code sysconf(_SC_ARG_MAX)} says in the child (posix_spawn: ours).
     */
    @Test
    void argMaxIsTheChildsAsTheClientsStackLimitMakesIt() throws IOException {
        long[][] limits = new long[Caller.RLIMITS][];
        limits[RLIMIT_STACK] = new long[] {4L << 20, 4L << 20};
        Assumptions.assumeTrue(Long.compareUnsigned(Long.parseLong(ourLimit(RLIMIT_STACK, 1).replace("unlimited", "-1")),
                4L << 20) >= 0, "our hard stack limit is below 4 MiB");
        try (Pipe out = Pipe.open()) {
            Caller c = client(devNull(), out.w, out.w, limits, 0);
            Caller.set(c);
            long argMax;
            try {
                argMax = Environ.argMax();
            } finally {
                Caller.set(Caller.SELF);
            }
            assertThat(argMax).isEqualTo(1L << 20);
            long childs = Long.parseLong(run(c, spawn(), "getconf ARG_MAX", out).strip());
            assertThat(childs).isEqualTo(full() ? argMax : Environ.argMax());
        }
    }

    /**
     * One spawn, shared as find's is, reads the caller at each start: the client's state on a
     * client's thread, ours (unchanged) on a SELF thread, then the client's again.
     */
    @Test
    void aSharedSpawnReadsTheCallerAtEachStart() throws IOException {
        String script = "echo \"${" + VAR + "-unset} $(ulimit -n) $(grep SigIgn /proc/self/status)\"";
        Path file = dir.resolve("self");
        try (Spawn shared = spawn().defaultSignals(Spawn.CALLER_IGNORED); Pipe first = Pipe.open(); Pipe again = Pipe.open()) {
            long[][] limits = new long[Caller.RLIMITS][];
            limits[RLIMIT_NOFILE] = new long[] {64, 64};
            String client = "1 " + (full() ? "64 " + sigIgn(INT_QUIT) : ourLimit(RLIMIT_NOFILE, 0) + " "
                    + sigIgn(INT_QUIT & Signals.ignored())) + "\n";
            assertThat(start(client(devNull(), first.w, first.w, limits, INT_QUIT), shared, script, first)).isEqualTo(client);
            // on SELF the child's stdout is ours (the test's), so the script sends it to a file
            assertThat(start(Caller.SELF, shared, "exec >'" + file + "'; " + script, null)).isEmpty();
            assertThat(Files.readString(file))
                    .isEqualTo("unset " + ourLimit(RLIMIT_NOFILE, 0) + " " + sigIgn(Signals.ignored() & Spawn.CALLER_IGNORED) + "\n");
            assertThat(start(client(devNull(), again.w, again.w, limits, INT_QUIT), shared, script, again)).isEqualTo(client);
        }
    }

    /**
     * The client's descriptors come first: the spawn's own steps win, with their meaning (a
     * {@code dup2(1, 2)} makes the child's 2 the client's stdout), and a descriptor they replace
     * is not the client's at all.
     */
    @Test
    void theSpawnsOwnStepsWin() throws IOException {
        try (Pipe in = Pipe.open(); Pipe out = Pipe.open(); Pipe err = Pipe.open(); Pipe ours = Pipe.open()) {
            Spawn s = spawn().open(0, "/dev/null".getBytes(UTF_8), Flags.O_RDONLY).dup2(ours.w, 1).dup2(1, 2);
            assertThat(run(client(in.r, out.w, err.w, null, 0), s, "readlink /proc/$$/fd/0; echo err >&2", ours))
                    .isEqualTo("/dev/null\nerr\n");
            assertThat(out.readAll()).isEmpty();
            assertThat(err.readAll()).isEmpty();
        }
        try (Pipe out = Pipe.open(); Pipe err = Pipe.open()) {
            assertThat(run(client(devNull(), out.w, err.w, null, 0), spawn().dup2(1, 2), "echo out; echo err >&2", out))
                    .isEqualTo("out\nerr\n");
            assertThat(err.readAll()).isEmpty();
        }
    }

    /**
     * What stays ignored follows {@link Spawn#defaultSignals}'s set: glibc's internal 32 and 33
     * at their default unless the set holds them, whatever the client has; without the call,
     * the client's ignored signals and glibc's two, as posix_spawn leaves them.
     */
    @Test
    void theSetKeptIgnoredIsTheClients() throws IOException {
        long client = INT_QUIT | bit(Signals.SIGHUP) | Signals.GLIBC_INTERNAL;
        long visible = full() ? client & ~Signals.GLIBC_INTERNAL : client & Signals.ignored() & ~Signals.GLIBC_INTERNAL;
        String status = "grep SigIgn /proc/self/status";
        try (Pipe out = Pipe.open()) {
            assertThat(run(client(devNull(), out.w, out.w, null, client), spawn().defaultSignals(Spawn.CALLER_IGNORED), status, out))
                    .isEqualTo(sigIgn(visible) + "\n");
        }
        try (Pipe out = Pipe.open()) {
            Spawn kept = spawn().defaultSignals(bit(Signals.SIGINT) | Signals.GLIBC_INTERNAL);
            long keptVisible = (full() ? bit(Signals.SIGINT) : bit(Signals.SIGINT) & Signals.ignored()) | Signals.GLIBC_INTERNAL;
            assertThat(run(client(devNull(), out.w, out.w, null, client), kept, status, out)).isEqualTo(sigIgn(keptVisible) + "\n");
        }
        try (Pipe out = Pipe.open()) {
            assertThat(run(client(devNull(), out.w, out.w, null, client), spawn(), status, out))
                    .isEqualTo(sigIgn(visible | Signals.GLIBC_INTERNAL) + "\n");
        }
    }

    /**
     * The other way round, which this JVM cannot show in itself: a JVM started with SIGHUP
     * ignored (the server, say, under nohup) serves a client that ignores SIGINT only; its child
     * has SIGHUP at its default and SIGINT ignored, while a SELF child keeps SIGHUP ignored.
     */
    @Test
    void aSignalTheServerIgnoresAndTheClientDoesNotIsAtItsDefault() throws Exception {
        String cp = System.getProperty("java.class.path");
        String java = ProcessHandle.current().info().command().orElse("java");
        boolean posix = !full();
        Process child = new ProcessBuilder("sh", "-c", "trap '' HUP; exec \"$0\" \"$@\"", java, "--enable-native-access=ALL-UNNAMED",
                "-cp", cp, CallerSignalsChild.class.getName(), posix ? "posix" : "own").redirectErrorStream(true).start();
        child.getOutputStream().close();
        String text = new String(child.getInputStream().readAllBytes(), UTF_8);
        assertThat(child.waitFor()).as(text).isZero();
        // the helper also ignores what this JVM ignores (ProcessBuilder's children inherit it);
        // posix_spawn cannot ignore SIGINT where the server does not ignore it
        long server = (Signals.ignored() | bit(Signals.SIGHUP)) & Spawn.CALLER_IGNORED;
        String client = sigIgn(posix ? bit(Signals.SIGINT) & server : bit(Signals.SIGINT));
        assertThat(text).isEqualTo("client " + client + "\nself " + sigIgn(server) + "\n");
    }

    /** A client with {@code stdin}, {@code stdout}, {@code stderr}, {@link #VAR}=1 and PATH, {@code limits} and {@code ignored}. */
    private static Caller client(int stdin, int stdout, int stderr, long[][] limits, long ignored) {
        List<byte[]> env = new ArrayList<>();
        env.add((VAR + "=1").getBytes(UTF_8));
        env.add(("PATH=" + System.getenv("PATH")).getBytes(UTF_8));
        return new Caller(-1, stdin, stdout, stderr, env, limits, -1, ignored, 0, 0);
    }

    /** Runs {@code script} with {@code s} (then closed) as {@code c}; returns what reached {@code out}. */
    private static String run(Caller c, Spawn s, String script, Pipe out) throws IOException {
        try (s) {
            return start(c, s, script, out);
        }
    }

    /** Starts {@code script} with {@code s} as {@code c} and waits; returns what reached {@code out} ("" for null). */
    private static String start(Caller c, Spawn s, String script, Pipe out) throws IOException {
        Caller.set(c);
        try {
            int pid = s.start(SH, List.of("sh".getBytes(UTF_8), "-c".getBytes(UTF_8), script.getBytes(UTF_8)), null);
            assertThat(pid).isPositive();
            assertThat(WaitStatus.shellStatus(waitAtMost20s(pid))).isZero();
        } finally {
            Caller.set(Caller.SELF);
            c.close();
        }
        return out == null ? "" : out.readAll();
    }

    /**
     * Waits for {@code pid}, killing it after 20 s: a child waited for in wait4 does not see the
     * test's timeout, and a broken start may leave one reading the test JVM's stdin.
     */
    private static int waitAtMost20s(int pid) throws PosixException {
        int fd = Spawn.pidfd(pid);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fds = a.allocate(8, 4);
            Libc.pollfd(fds, 0, fd, (short) 1); // POLLIN: the child has ended
            if (Libc.poll(fds, 1, 20_000) == 0) {
                Libc.signal(pid, Signals.SIGKILL);
                WaitStatus.waitFor(pid);
                throw new AssertionError("the child still ran after 20 s");
            }
        } finally {
            Libc.close(fd);
        }
        return WaitStatus.waitFor(pid);
    }

    private static long bit(int sig) {
        return 1L << (sig - 1);
    }

    /** /proc/PID/status's SigIgn line for {@code mask}. */
    private static String sigIgn(long mask) {
        return String.format("SigIgn:\t%016x", mask);
    }

    /** Our soft ({@code which} 0) or hard (1) limit {@code resource} as sh's ulimit prints it (in KiB for the core size). */
    private static String ourLimit(int resource, int which) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment lim = a.allocate(16, 8);
            assertThat(Syscall.call(Syscall.PRLIMIT64, 0, resource, 0, lim.address())).isZero();
            long v = lim.get(ValueLayout.JAVA_LONG, 8L * which);
            return v == -1 ? "unlimited" : Long.toString(resource == RLIMIT_CORE ? v / 512 : v);
        }
    }

    /** A descriptor of /dev/null (close-on-exec) that lives as long as this test JVM. */
    private static int devNull() {
        return DevNull.FD;
    }

    private static final class DevNull {
        static final int FD = Libc.openOrErrno("/dev/null".getBytes(UTF_8), Flags.O_RDWR | Flags.O_CLOEXEC, 0);
    }

    /** A pipe, both ends close-on-exec, that stands for a client's descriptor. */
    static final class Pipe implements AutoCloseable {
        final int r;
        int w;

        private Pipe(int r, int w) {
            this.r = r;
            this.w = w;
        }

        static Pipe open() {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment fds = a.allocate(ValueLayout.JAVA_INT, 2);
                assertThat(Libc.pipe2(fds, Flags.O_CLOEXEC)).isZero();
                return new Pipe(fds.getAtIndex(ValueLayout.JAVA_INT, 0), fds.getAtIndex(ValueLayout.JAVA_INT, 1));
            }
        }

        /** The name /proc gives the read end ({@code pipe:[inode]}). */
        String name() throws IOException {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + r)).toString();
        }

        void closeWrite() {
            Libc.close(w);
            w = -1;
        }

        /** Closes the write end and reads to its end of file. */
        String readAll() throws PosixException {
            closeWrite();
            StringBuilder sb = new StringBuilder();
            try (Arena a = Arena.ofConfined()) {
                MemorySegment buf = a.allocate(4096);
                for (long n; (n = Libc.read(r, buf, 4096)) > 0; ) {
                    sb.append(new String(buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), UTF_8));
                }
            }
            return sb.toString();
        }

        @Override
        public void close() {
            Libc.close(r);
            if (w >= 0) {
                Libc.close(w);
            }
        }
    }
}
