// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.Syscall;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ParCommand#call} as a warm server runs it: on a thread of its own whose working
 * directory is the client's ({@code unshare(CLONE_FS)} and {@code fchdir}), for a {@link Caller}
 * with pipes as its standard output and error and an environment of its own, several at once,
 * compared with GNU parallel run in the same directory with the same variables; and stopped by
 * a relayed signal and the exit hooks, as the server stops it.
 */
class ParCallTest {
    private static final long CLONE_FS = 0x200;

    /** A client: its directory, environment and pipes, and the call run for it on a thread of its own. */
    private static final class Client implements AutoCloseable {
        final Path dir;
        final Caller caller;
        final int stdinFd;
        final int[] out = pipe();
        final int[] err = pipe();
        final Drain stdout = new Drain(out[0]);
        final Drain stderr = new Drain(err[0]);
        volatile int status = -1;
        Thread thread;

        Client(Path dir, Map<String, String> extraEnv, int stdinFd) {
            this(dir, extraEnv, stdinFd, null);
        }

        Client(Path dir, Map<String, String> extraEnv, int stdinFd, long[][] limits) {
            this.dir = dir;
            this.stdinFd = stdinFd;
            List<byte[]> env = new ArrayList<>();
            Map<String, String> all = new java.util.TreeMap<>(System.getenv());
            all.putAll(extraEnv);
            all.forEach((k, v) -> env.add((k + "=" + v).getBytes(StandardCharsets.UTF_8)));
            caller = new Caller(-1, stdinFd, out[1], err[1], env, limits, -1, 0, 0, 0);
        }

        /** Starts the call of {@code args} once {@code go} opens. */
        Client start(CountDownLatch go, String... args) {
            return start(go, () -> ParCommand.call(args));
        }

        /** Starts {@code call} once {@code go} opens, as the server runs a call. */
        Client start(CountDownLatch go, java.util.function.IntSupplier call) {
            thread = Thread.ofPlatform().name("call-" + dir.getFileName()).start(() -> {
                try {
                    go.await();
                    inDirectory(dir);
                    Caller.set(caller);
                    status = call.getAsInt();
                } catch (Exception e) {
                    throw new AssertionError(e);
                } finally {
                    // the server closes the descriptors it received once the call has ended
                    Libc.close(out[1]);
                    Libc.close(err[1]);
                }
            });
            return this;
        }

        /** Waits for the call; true when it ended within {@code millis}. */
        boolean join(long millis) throws InterruptedException {
            thread.join(millis);
            return !thread.isAlive();
        }

        @Override
        public void close() {
            try {
                if (thread != null && !join(30_000)) {
                    caller.signalled(9); // a failed test's run: stop it as the server would
                    caller.runExitHooks(5_000);
                }
                join(60_000);
                stdout.join();
                stderr.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            caller.close();
        }
    }

    /** Reads a pipe to its end on a thread of its own. */
    private static final class Drain {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final Thread thread;

        Drain(int fd) {
            thread = Thread.ofPlatform().daemon().start(() -> {
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment buf = a.allocate(1 << 16);
                    for (long n; (n = Libc.read(fd, buf, buf.byteSize())) > 0; ) {
                        synchronized (bytes) {
                            bytes.write(buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), 0, (int) n);
                        }
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } finally {
                    Libc.close(fd);
                }
            });
        }

        void join() throws InterruptedException {
            thread.join(60_000);
        }

        String text() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }

        byte[] bytes() {
            synchronized (bytes) {
                return bytes.toByteArray();
            }
        }
    }

    private static int[] pipe() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fds = a.allocate(ValueLayout.JAVA_INT, 2);
            assertThat(Libc.pipe2(fds, Flags.O_CLOEXEC)).isZero();
            return new int[] {fds.getAtIndex(ValueLayout.JAVA_INT, 0), fds.getAtIndex(ValueLayout.JAVA_INT, 1)};
        }
    }

    /** What a server's call thread does first: a working directory of its own, then the client's. */
    private static void inDirectory(Path dir) throws IOException {
        assertThat(Syscall.call(Syscall.UNSHARE, CLONE_FS, 0, 0, 0)).isZero();
        int fd = Libc.open(dir.toString().getBytes(StandardCharsets.UTF_8), Flags.O_RDONLY | Flags.O_DIRECTORY | Flags.O_CLOEXEC, 0);
        try {
            assertThat(Syscall.call(Syscall.FCHDIR, fd, 0, 0, 0)).isZero();
        } finally {
            Libc.close(fd);
        }
    }

    private static int devNull() throws IOException {
        return Libc.open("/dev/null".getBytes(StandardCharsets.US_ASCII), Flags.O_RDONLY | Flags.O_CLOEXEC, 0);
    }

    /** GNU parallel's run of {@code args} in {@code dir} with {@code env} added: stdout, stderr. */
    private static String[] gnu(Path dir, Map<String, String> env, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("parallel", "--will-cite"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().putAll(env);
        Path err = Files.createTempFile("gnu", ".err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String e = Files.readString(err);
        Files.delete(err);
        return new String[] {new String(out, StandardCharsets.UTF_8), e};
    }

    @Test
    @Timeout(180)
    void concurrentCallsSeeOnlyTheirOwnDirectoryEnvironmentAndOutput(@TempDir Path tmp) throws Exception {
        List<String> items = IntStream.rangeClosed(1, 30).mapToObj(Integer::toString).toList();
        List<String> shellJobs = new ArrayList<>(List.of("-k", "-j", "3", "--joblog", "log",
                "echo $FOO {} $(pwd); echo err-$FOO-{} >&2", ":::"));
        shellJobs.addAll(items);
        // printenv FOO: a simple command, spawned without a shell
        List<String> spawned = List.of("-k", "printenv", ":::", "FOO", "PARALLEL_SEQ");
        // -u: the jobs run on a ShellPool's workers and their output streams through
        List<String> ungrouped = List.of("-u", "-j1", "echo $FOO {} $(pwd)", ":::", "x", "y");
        List<List<String>> cases = List.of(shellJobs, spawned, ungrouped);
        for (int k = 0; k < cases.size(); k++) {
            List<String> args = cases.get(k);
            Path a = Files.createDirectories(tmp.resolve("a" + k));
            Path b = Files.createDirectories(tmp.resolve("b" + k));
            CountDownLatch go = new CountDownLatch(1);
            try (Client ca = new Client(a, Map.of("FOO", "alpha"), devNull());
                 Client cb = new Client(b, Map.of("FOO", "beta"), devNull())) {
                ca.start(go, args.toArray(String[]::new));
                cb.start(go, args.toArray(String[]::new));
                go.countDown();
                assertThat(ca.join(60_000) && cb.join(60_000)).isTrue();
                ca.stdout.join();
                cb.stdout.join();
                ca.stderr.join();
                cb.stderr.join();
                assertThat(ca.status).isZero();
                assertThat(cb.status).isZero();
                Path ga = Files.createDirectories(tmp.resolve("gnu-a" + k));
                Path gb = Files.createDirectories(tmp.resolve("gnu-b" + k));
                String[] gnuA = gnu(ga, Map.of("FOO", "alpha"), args);
                String[] gnuB = gnu(gb, Map.of("FOO", "beta"), args);
                assertThat(ca.stdout.text()).isEqualTo(gnuA[0].replace(ga.toString(), a.toString())).contains("alpha");
                assertThat(cb.stdout.text()).isEqualTo(gnuB[0].replace(gb.toString(), b.toString())).contains("beta");
                assertThat(ca.stderr.text()).isEqualTo(gnuA[1]);
                assertThat(cb.stderr.text()).isEqualTo(gnuB[1]);
                if (k == 0) {
                    // the joblog in each caller's directory: a header and a line per job
                    assertThat(Files.readAllLines(a.resolve("log"))).hasSize(items.size() + 1);
                    assertThat(Files.readAllLines(b.resolve("log"))).hasSize(items.size() + 1);
                    assertThat(Path.of("log")).doesNotExist();
                }
            }
        }
    }

    /**
     * Output beyond a pipe's capacity into a caller's non-blocking pipe: written whole, waiting
     * with poll (a job's large output goes by sendfile, a held one by write).
     */
    @ParameterizedTest
    @ValueSource(strings = {"-j1", "-k"})
    @Timeout(120)
    void largeOutputIntoANonBlockingPipeIsWhole(String mode, @TempDir Path tmp) throws Exception {
        List<String> args = List.of(mode, "seq 1 {}", ":::", "150000", "3", "70000");
        CountDownLatch go = new CountDownLatch(1);
        try (Client c = new Client(tmp, Map.of(), devNull())) {
            Libc.fcntl(c.out[1], Flags.F_SETFL, Libc.fcntl(c.out[1], Flags.F_GETFL, 0) | Flags.O_NONBLOCK);
            c.start(go, args.toArray(String[]::new));
            go.countDown();
            assertThat(c.join(60_000)).isTrue();
            c.stdout.join();
            assertThat(c.status).isZero();
            assertThat(c.stdout.bytes()).isEqualTo(gnu(tmp, Map.of(), args)[0].getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * A client's signal, as the server handles it (the signal recorded, the exit hooks run),
     * ends the call promptly: its jobs' process groups killed, nothing more written.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sleep 100", "sleep 100 {}; true"})
    @Timeout(120)
    void aSignalAndTheExitHooksStopTheRunAndKillItsJobs(String command, @TempDir Path tmp) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        try (Client c = new Client(tmp, Map.of(), devNull())) {
            c.start(go, "-j", "3", command, ":::", "1", "2", "3");
            go.countDown();
            List<ProcessHandle> sleeps = List.of();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (sleeps.size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
                sleeps = ProcessHandle.current().descendants()
                        .filter(p -> p.info().commandLine().orElse("").matches(".*sleep 100 [123]")).toList();
            }
            assertThat(sleeps).hasSize(3);
            List<Integer> groups = sleeps.stream().map(p -> processGroup(p.pid())).toList();
            long t0 = System.nanoTime();
            c.caller.signalled(2);
            c.caller.runExitHooks(5_000);
            assertThat(c.join(5_000)).as("the call ends after the hooks").isTrue();
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(5));
            for (ProcessHandle p : sleeps) {
                p.onExit().get(5, TimeUnit.SECONDS);
            }
            for (int g : groups) {
                awaitGone(g);
            }
            c.stdout.join();
            assertThat(c.stdout.text()).isEmpty();
        }
    }

    /** A call reading the client's standard input (no :::) stops reading at its signal: the rest is its shell's. */
    @Test
    @Timeout(60)
    void aSignalEndsAReadOfTheCallersStdin(@TempDir Path tmp) throws Exception {
        int[] in = pipe();
        CountDownLatch go = new CountDownLatch(1);
        try (Client c = new Client(tmp, Map.of(), in[0])) {
            c.start(go, "-k", "echo");
            go.countDown();
            try (Arena a = Arena.ofConfined()) {
                MemorySegment line = a.allocateFrom("x\n", StandardCharsets.US_ASCII).asSlice(0, 2);
                Libc.write(in[1], line, 2);
            }
            Thread.sleep(300);
            assertThat(c.thread.isAlive()).as("reading on").isTrue();
            c.caller.signalled(15);
            c.caller.runExitHooks(5_000);
            assertThat(c.join(5_000)).isTrue();
        } finally {
            Libc.close(in[0]);
            Libc.close(in[1]);
        }
    }

    /** The client's resource limits reach the jobs of the warm shells (-k) and of the pool's (-u). */
    @ParameterizedTest
    @ValueSource(strings = {"-k", "-u"})
    @Timeout(60)
    void theCallersLimitsReachItsJobs(String mode, @TempDir Path tmp) throws Exception {
        long[][] limits = new long[Caller.RLIMITS][];
        limits[7] = new long[] {99, 99}; // RLIMIT_NOFILE
        CountDownLatch go = new CountDownLatch(1);
        try (Client c = new Client(tmp, Map.of(), devNull(), limits)) {
            c.start(go, mode, "-j1", "ulimit -n; echo {}", ":::", "a", "b");
            go.countDown();
            assertThat(c.join(30_000)).isTrue();
            c.stdout.join();
            assertThat(c.status).isZero();
            assertThat(c.stdout.text()).isEqualTo("99\na\n99\nb\n");
        }
    }

    /** The client's arguments as bytes: one that is not UTF-8 reaches the job as it was. */
    @Test
    @Timeout(60)
    void argumentsGivenAsBytesReachTheJobsAsTheyWere(@TempDir Path tmp) throws Exception {
        byte[] odd = {'a', (byte) 0xff, 'b'};
        String[] args = {"-k", "echo", ":::", new String(odd, StandardCharsets.UTF_8), "c"};
        List<byte[]> raw = List.of("-k".getBytes(StandardCharsets.UTF_8), "echo".getBytes(StandardCharsets.UTF_8),
                ":::".getBytes(StandardCharsets.UTF_8), odd, "c".getBytes(StandardCharsets.UTF_8));
        CountDownLatch go = new CountDownLatch(1);
        try (Client c = new Client(tmp, Map.of(), devNull())) {
            c.start(go, () -> ParCommand.call(args, raw));
            go.countDown();
            assertThat(c.join(30_000)).isTrue();
            c.stdout.join();
            assertThat(c.status).isZero();
            assertThat(c.stdout.bytes()).isEqualTo(new byte[] {'a', (byte) 0xff, 'b', '\n', 'c', '\n'});
        }
    }

    @Test
    @Timeout(10)
    void directReasonNamesTheOptionsThatNeedTheTerminal() {
        assertThat(ParCommand.directReason(new String[] {"--tty", "vi", ":::", "a"})).contains("--tty");
        assertThat(ParCommand.directReason(new String[] {"-j", "4", "--fg", "echo"})).contains("--fg");
        assertThat(ParCommand.directReason(new String[] {"-kp", "echo"})).isNotNull();
        assertThat(ParCommand.directReason(new String[] {"--interactive", "echo"})).isNotNull();
        assertThat(ParCommand.directReason(new String[] {"-j4", "-o", "echo"})).isNotNull();
        assertThat(ParCommand.directReason(new String[] {"--slurm-submit=-N2", "echo"})).contains("--slurm-submit");
        assertThat(ParCommand.directReason(new String[] {"-I", "-p", "echo", "-p"})).isNull(); // -I's value
        assertThat(ParCommand.directReason(new String[] {"echo", "--tty", ":::", "-p"})).isNull(); // the command's
        assertThat(ParCommand.directReason(new String[] {"--bar", "-k", "--joblog", "--tty", "gzip"})).isNull();
        assertThat(ParCommand.directReason(new String[] {"-u", "--progress", "echo", ":::", "a"})).isNull();
    }

    private static int processGroup(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void awaitGone(int group) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (Libc.signal(-group, 0) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(Libc.signal(-group, 0)).as("process group %d gone", group).isFalse();
    }
}
