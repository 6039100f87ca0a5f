// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorStream;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.Syscall;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brisk pv} as a warm server's call ({@link PvCommand#call(String[])} on a thread whose
 * {@link Caller} is a client's): several calls at once in this JVM, each on pipes this test made
 * as the client's standard input, output and error, see only their own data, options and rate
 * limits; a reader that goes away gives pv's status; a client's signal (the server's
 * {@link Caller#signalled} and {@link Caller#runExitHooks}) stops a call promptly.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PvCallerIT {
    @TempDir
    Path dir;

    private final List<Integer> open = java.util.Collections.synchronizedList(new ArrayList<>());

    /** A pipe: read end, write end. */
    record Pipe(int read, int write) {}

    /** What a call left: its status and what it wrote on its client's stdout and stderr. */
    record Result(int status, byte[] stdout, String stderr, long millis) {}

    @AfterEach
    void closeDescriptors() {
        open.forEach(Libc::close);
        open.clear();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentCallsCarryTheirOwnBytesOnTheirOwnDescriptors() throws Exception {
        byte[] a = random(3_000_001, 1);
        byte[] b = random(2_500_000, 2);
        byte[] c = random(1_000_003, 3);
        byte[] d = random(4_000_000, 4);
        Path file = Files.write(dir.resolve("d"), d);
        // quiet, zero-copy from a pipe; its descriptors non-blocking, as a client's may be
        CompletableFuture<Result> quiet = call(a, true, "-q");
        // numeric percentages on its own stderr, read/write path
        CompletableFuture<Result> numeric = call(b, true, "-n", "-i", "0.1", "-s", Integer.toString(b.length), "-C");
        // -n -b: the byte counts
        CompletableFuture<Result> bytes = call(c, false, "-n", "-b", "-i", "0.1");
        // a file argument (relative to nothing: absolute) into the client's pipe
        CompletableFuture<Result> fromFile = call(new byte[0], true, "-q", file.toString());
        Result rq = quiet.get(60, TimeUnit.SECONDS);
        Result rn = numeric.get(60, TimeUnit.SECONDS);
        Result rb = bytes.get(60, TimeUnit.SECONDS);
        Result rf = fromFile.get(60, TimeUnit.SECONDS);
        assertThat(rq.status).isZero();
        assertThat(rq.stdout).isEqualTo(a);
        assertThat(rq.stderr).isEmpty();
        assertThat(rn.status).isZero();
        assertThat(rn.stdout).isEqualTo(b);
        assertThat(rn.stderr).as("percentages, the last 100").matches("(\\d{1,3}\n)*100\n");
        assertThat(rb.status).isZero();
        assertThat(rb.stdout).isEqualTo(c);
        assertThat(rb.stderr).as("byte counts, the last the total").matches("(\\d+\n)*" + c.length + "\n");
        assertThat(rf.status).isZero();
        assertThat(rf.stdout).isEqualTo(d);
        assertThat(rf.stderr).isEmpty();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void eachCallHasItsOwnRateLimit() throws Exception {
        byte[] slowData = random(300_000, 5);
        byte[] fastData = random(20_000_000, 6);
        CompletableFuture<Result> slow = call(slowData, false, "-q", "-L", "100k");
        CompletableFuture<Result> fast = call(fastData, false, "-q");
        Result f = fast.get(60, TimeUnit.SECONDS);
        assertThat(slow).as("the limited call still runs after the unlimited one").isNotDone();
        Result s = slow.get(60, TimeUnit.SECONDS);
        assertThat(f.stdout).isEqualTo(fastData);
        assertThat(s.stdout).isEqualTo(slowData);
        assertThat(s.millis).as("300 kB at 100 kB/s").isGreaterThanOrEqualTo(1_500);
        assertThat(f.status).isZero();
        assertThat(s.status).isZero();
    }

    @Test
    void aReaderThatGoesAwayEndsTheCallAsPvDoes() throws Exception {
        // pv 1.6 (and a direct brisk pv) exits 0 when its reader goes: `yes | pv -q | head -c1`
        for (String[] args : new String[][] {{"-q"}, {"-q", "-C"}, {"-q", "-L", "10m"}}) {
            Pipe in = pipe();
            Pipe out = pipe();
            Pipe err = pipe();
            Thread writer = Thread.ofPlatform().daemon().start(() -> {
                OutputStream o = DescriptorStream.output(in.write);
                byte[] chunk = new byte[65536];
                try {
                    while (true) {
                        o.write(chunk);
                    }
                } catch (IOException e) {
                    // the test closed the read end after the call: done
                }
            });
            CompletableFuture<byte[]> errText = drain(err.read);
            Caller client = client(in.read, out.write, err.write);
            CompletableFuture<Integer> status = onCallThread(client, args);
            Libc.close(out.read); // the reader goes away at once
            open.remove((Integer) out.read);
            assertThat(status.get(20, TimeUnit.SECONDS)).as(String.join(" ", args)).isZero();
            closeWriteEnd(err);
            assertThat(new String(errText.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEmpty();
            closeReadEnd(in);
            writer.join(10_000);
        }
    }

    @Test
    void aClientsSignalStopsAnIdleOrASlowCallPromptly() throws Exception {
        for (String[] args : new String[][] {{"-f", "-i", "0.1"}, {"-f", "-C"}, {"-q", "-L", "2k"}, {"-n", "-C", "-L", "1k"}}) {
            Pipe in = pipe();
            Pipe out = pipe();
            Pipe err = pipe();
            // the client's descriptors non-blocking: an idle copy must wait, not spin
            for (int fd : new int[] {in.read, out.write, err.write}) {
                Libc.fcntl(fd, Flags.F_SETFL, Libc.fcntl(fd, Flags.F_GETFL, 0) | Flags.O_NONBLOCK);
            }
            // input that never ends: idle (the first two) or a trickle under a rate limit
            OutputStream feed = DescriptorStream.output(in.write);
            feed.write(new byte[50_000]); // less than a pipe holds: the call is not running yet
            CompletableFuture<byte[]> outText = drain(out.read);
            CompletableFuture<byte[]> errText = drain(err.read);
            Caller client = client(in.read, out.write, err.write);
            Thread[] thread = new Thread[1];
            CompletableFuture<Integer> status = onCallThread(client, thread, args);
            Thread.sleep(300);
            java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
            long cpuBefore = cpu.getThreadCpuTime(thread[0].threadId());
            Thread.sleep(1_000); // past the first update, so -f has drawn
            long cpuMillis = (cpu.getThreadCpuTime(thread[0].threadId()) - cpuBefore) / 1_000_000;
            assertThat(cpuMillis).as("CPU of an idle or slow copy in 1 s: " + String.join(" ", args)).isLessThan(200);
            assertThat(status).as(String.join(" ", args)).isNotDone();
            long start = System.nanoTime();
            // as the server does on a relayed SIGINT: record it, run the client's exit hooks
            client.signalled(2);
            client.runExitHooks(2_000);
            int code = status.get(5, TimeUnit.SECONDS);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(millis).as("stopped promptly: " + String.join(" ", args)).isLessThan(1_500);
            assertThat(code).isEqualTo(PvExit.SIGNAL.bit());
            closeWriteEnd(out);
            closeWriteEnd(err);
            String shown = new String(errText.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
            if (args[0].equals("-f")) {
                assertThat(shown).as("the status line ended with a newline, once").endsWith("\n").doesNotEndWith("\n\n");
            }
            assertThat(outText.get(10, TimeUnit.SECONDS).length).isLessThanOrEqualTo(50_000);
            feed.close();
            closeWriteEnd(in);
        }
    }

    @Test
    void aClientsSignalStopsACallReadingAnIdleTerminal() throws Exception {
        // splice from a terminal reads it as a blocking read whatever the flags: a server's copy
        // polls a terminal (socket, device) before each transfer, so that the signal is seen
        int master = Libc.open("/dev/ptmx".getBytes(StandardCharsets.US_ASCII), Flags.O_RDWR | Flags.O_NOCTTY | Flags.O_CLOEXEC, 0);
        open.add(master);
        int slave;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment n = arena.allocate(ValueLayout.JAVA_INT);
            assertThat(Syscall.call(Syscall.IOCTL, master, 0x40045431L /* TIOCSPTLCK */, n.address(), 0)).isZero();
            assertThat(Syscall.call(Syscall.IOCTL, master, 0x80045430L /* TIOCGPTN */, n.address(), 0)).isZero();
            slave = Libc.open(("/dev/pts/" + n.get(ValueLayout.JAVA_INT, 0)).getBytes(StandardCharsets.US_ASCII),
                    Flags.O_RDWR | Flags.O_NOCTTY | Flags.O_CLOEXEC, 0);
            open.add(slave);
        }
        Pipe out = pipe();
        Pipe err = pipe();
        CompletableFuture<byte[]> outText = drain(out.read);
        drain(err.read);
        Caller client = client(slave, out.write, err.write);
        CompletableFuture<Integer> status = onCallThread(client, "-q");
        byte[] line = "typed\n".getBytes(StandardCharsets.US_ASCII);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(line.length);
            MemorySegment.copy(line, 0, b, ValueLayout.JAVA_BYTE, 0, line.length);
            assertThat(Libc.write(master, b, line.length)).isEqualTo(line.length);
        }
        Thread.sleep(1_000);
        assertThat(status).isNotDone();
        long start = System.nanoTime();
        client.signalled(15);
        client.runExitHooks(2_000);
        assertThat(status.get(5, TimeUnit.SECONDS)).isEqualTo(PvExit.SIGNAL.bit());
        assertThat((System.nanoTime() - start) / 1_000_000).as("stopped promptly").isLessThan(1_500);
        closeWriteEnd(out);
        assertThat(new String(outText.get(10, TimeUnit.SECONDS), StandardCharsets.US_ASCII)).isEqualTo("typed\n");
    }

    @Test
    void aDirectRunIsAskedForWhatAServerCannotGive() {
        assertThat(PvCommand.directReason(new String[] {"-q", "-L", "1m", "file"})).isNull();
        assertThat(PvCommand.directReason(new String[] {"-x", "window", "file"})).isNull();
        assertThat(PvCommand.directReason(new String[] {"-M", "out", "ls"})).contains("-M");
        assertThat(PvCommand.directReason(new String[] {"-pM", "in", "cat"})).contains("-M");
        assertThat(PvCommand.directReason(new String[] {"--monitor=both", "cat"})).contains("-M");
        assertThat(PvCommand.directReason(new String[] {"-L10M", "-N", "M", "--", "-M"})).as("no -M option").isNull();
        assertThat(PvCommand.directReason(new String[] {"-x", "window,proctitle:%b"})).contains("process title");
        assertThat(PvCommand.directReason(new String[] {"--extra-display=processtitle"})).contains("process title");
        assertThat(PvCommand.directReason(new String[] {"-q", "-x", "proc"})).as("quiet: no titles").isNull();
        assertThat(PvCommand.directReason(new String[] {"--no-such-option"})).isNull();
    }

    @Test
    void pidFileAndUsageErrorsAreTheClients() throws Exception {
        Process client = new ProcessBuilder("sleep", "60").start();
        try {
            Pipe in = pipe();
            Pipe out = pipe();
            Pipe err = pipe();
            closeWriteEnd(in); // empty input
            CompletableFuture<byte[]> errText = drain(err.read);
            Path pidFile = dir.resolve("pid");
            Caller caller = new Caller((int) client.pid(), in.read, out.write, err.write, List.of(), null, -1, 0, 0, 0);
            CompletableFuture<Integer> ok = onCallThread(caller, "-q", "-P", pidFile.toString(), "-L", "1k");
            assertThat(ok.get(20, TimeUnit.SECONDS)).isZero();
            assertThat(Files.exists(pidFile)).as("removed at the end").isFalse();
            CompletableFuture<Integer> bad = onCallThread(caller, "-L", "fast");
            assertThat(bad.get(20, TimeUnit.SECONDS)).isEqualTo(64);
            CompletableFuture<Integer> unknown = onCallThread(caller, "--no-such-option");
            assertThat(unknown.get(20, TimeUnit.SECONDS)).isEqualTo(64);
            closeWriteEnd(err);
            String text = new String(errText.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
            assertThat(text).isEqualTo("brisk pv: -L: integer argument expected\n"
                    + "brisk pv: Unknown option: '--no-such-option'\n");
            // the pid file holds the client's pid while the call runs
            Pipe in2 = pipe();
            Pipe out2 = pipe();
            drain(out2.read);
            Caller caller2 = new Caller((int) client.pid(), in2.read, out2.write, out2.write, List.of(), null, -1, 0, 0, 0);
            CompletableFuture<Integer> running = onCallThread(caller2, "-q", "-P", pidFile.toString());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!Files.exists(pidFile) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(Files.readString(pidFile)).isEqualTo(client.pid() + "\n");
            closeWriteEnd(in2);
            assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
        } finally {
            client.destroyForcibly();
        }
    }

    @Test
    void remoteControlFindsACallByItsClientsPid() throws Exception {
        Process client = new ProcessBuilder("sleep", "60").start();
        try {
            Pipe in = pipe();
            Pipe out = pipe();
            Pipe err = pipe();
            OutputStream feed = DescriptorStream.output(in.write);
            byte[] data = random(400_000, 7);
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    feed.write(data);
                } catch (IOException e) {
                    // ended by the test's end
                }
                Libc.close(in.write); // the stream leaves its descriptor open
            });
            open.remove((Integer) in.write); // the feeder closes it
            CompletableFuture<byte[]> outText = drain(out.read);
            drain(err.read);
            List<byte[]> env = List.of(("HOME=" + dir).getBytes(StandardCharsets.UTF_8));
            Caller caller = new Caller((int) client.pid(), in.read, out.write, err.write, env, null, -1, 0, 0, 0);
            CompletableFuture<Integer> call = onCallThread(caller, "-q", "-L", "2k", "-i", "0.2");
            Thread.sleep(1_000); // its first update writes the marker
            ProcessBuilder send = new ProcessBuilder(PvIT.brisk("-R " + client.pid() + " -L 100m"))
                    .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            send.environment().put("HOME", dir.toString()); // the exchange directory: $HOME/.pv without /run/user/UID
            Process sender = send.start();
            String said = new String(sender.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(sender.waitFor()).as(said).isZero();
            assertThat(call.get(20, TimeUnit.SECONDS)).as("sped up by -R: 400 kB at 2k/s would take minutes").isZero();
            closeWriteEnd(out);
            assertThat(outText.get(10, TimeUnit.SECONDS)).isEqualTo(data);
        } finally {
            client.destroyForcibly();
        }
    }

    /** Runs pv ARGS as a client's call fed {@code input}; its descriptors non-blocking if asked. */
    private CompletableFuture<Result> call(byte[] input, boolean nonBlocking, String... args)
            throws IOException {
        Pipe in = pipe();
        Pipe out = pipe();
        Pipe err = pipe();
        if (nonBlocking) {
            for (int fd : new int[] {in.read, out.write}) {
                Libc.fcntl(fd, Flags.F_SETFL, Libc.fcntl(fd, Flags.F_GETFL, 0) | Flags.O_NONBLOCK);
            }
        }
        Thread.ofPlatform().daemon().start(() -> {
            try {
                OutputStream o = DescriptorStream.output(in.write);
                // awkward sizes, with pauses: the call meets an empty non-blocking pipe
                Random r = new Random(input.length);
                for (int at = 0; at < input.length;) {
                    int n = Math.min(input.length - at, 1 + r.nextInt(200_000));
                    o.write(input, at, n);
                    at += n;
                    if (r.nextInt(8) == 0) {
                        Thread.sleep(5);
                    }
                }
            } catch (IOException | InterruptedException e) {
                throw new AssertionError(e);
            } finally {
                Libc.close(in.write); // the stream leaves its descriptor open
            }
        });
        open.remove((Integer) in.write); // the feeder closes it
        CompletableFuture<byte[]> stdout = drain(out.read);
        CompletableFuture<byte[]> stderr = drain(err.read);
        Caller client = client(in.read, out.write, err.write);
        long start = System.nanoTime();
        CompletableFuture<Integer> status = onCallThread(client, args);
        return status.thenApply(code -> {
            long millis = (System.nanoTime() - start) / 1_000_000;
            closeWriteEnd(out);
            closeWriteEnd(err);
            return new Result(code, stdout.join(), new String(stderr.join(), StandardCharsets.UTF_8), millis);
        });
    }

    private Caller client(int in, int out, int err) {
        return new Caller((int) ProcessHandle.current().pid(), in, out, err, List.of(), null, -1, 0, 0, 0);
    }

    /** PvCommand.call(args) on a thread of its own whose caller is {@code client}, as a server's call thread. */
    private static CompletableFuture<Integer> onCallThread(Caller client, String... args) {
        return onCallThread(client, new Thread[1], args);
    }

    /** As {@link #onCallThread(Caller, String...)}, the thread in {@code thread[0]}. */
    private static CompletableFuture<Integer> onCallThread(Caller client, Thread[] thread, String... args) {
        CompletableFuture<Integer> status = new CompletableFuture<>();
        thread[0] = Thread.ofPlatform().name("call " + String.join(" ", args)).start(() -> {
            Caller.set(client);
            try {
                status.complete(PvCommand.call(args));
            } catch (Throwable t) {
                status.completeExceptionally(t);
            }
        });
        return status;
    }

    /** Reads {@code fd} to its end on a thread of its own. */
    private static CompletableFuture<byte[]> drain(int fd) {
        CompletableFuture<byte[]> all = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (InputStream in = DescriptorStream.input(fd)) {
                in.transferTo(b);
                all.complete(b.toByteArray());
            } catch (IOException e) {
                all.completeExceptionally(e);
            }
        });
        return all;
    }

    private Pipe pipe() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(ValueLayout.JAVA_INT, 2);
            assertThat(Libc.pipe2(fds, Flags.O_CLOEXEC)).isZero();
            Pipe p = new Pipe(fds.getAtIndex(ValueLayout.JAVA_INT, 0), fds.getAtIndex(ValueLayout.JAVA_INT, 1));
            open.add(p.read);
            open.add(p.write);
            return p;
        }
    }

    private void closeWriteEnd(Pipe p) {
        if (open.remove((Integer) p.write)) {
            Libc.close(p.write);
        }
    }

    private void closeReadEnd(Pipe p) {
        if (open.remove((Integer) p.read)) {
            Libc.close(p.read);
        }
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
