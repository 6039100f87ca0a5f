// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A worker's FIFOs, written by this JVM and by real child processes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FifoChannelsTest {
    @TempDir
    Path dir;

    private FifoChannels channels;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void tearDown() {
        children.forEach(Process::destroyForcibly);
        if (channels != null) {
            channels.close();
        }
    }

    private static OutputSink sink(ByteArrayOutputStream to) {
        return new OutputSink(to, Long.MAX_VALUE, FifoChannels.CHUNK);
    }

    private static long ino(Path p) throws Exception {
        return ((Number) Files.getAttribute(p, "unix:ino")).longValue();
    }

    @Test
    void outputReachesItsSinkAndEndsOnlyOnceTheCommandHasEnded() throws Exception {
        channels = FifoChannels.create(dir);
        for (String name : new String[] {"s", "o", "e"}) {
            int mode = (Integer) Files.getAttribute(dir.resolve(name), "unix:mode");
            assertThat(mode & 0170777).as(name).isEqualTo(0010600); // a FIFO, private
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        channels.begin();
        // a real command writes both outputs and exits
        Process p = new ProcessBuilder("sh", "-c", "printf out-text; printf err-text >&2")
                .redirectOutput(dir.resolve("o").toFile()).redirectError(dir.resolve("e").toFile()).start();
        assertThat(p.waitFor()).isZero();
        channels.drain(0, sink(out), true);
        // the writer is gone, but the write end held here keeps end of file away
        assertThat(channels.outputFd(0)).isGreaterThanOrEqualTo(0);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("out-text");
        long now = System.nanoTime();
        assertThat(channels.drained(now)).isFalse();
        channels.endCommand(now + TimeUnit.SECONDS.toNanos(5), sink(out), sink(err), true);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("err-text");
        assertThat(channels.outputFd(0)).isEqualTo(-1);
        assertThat(channels.outputFd(1)).isEqualTo(-1);
        assertThat(channels.drained(now)).isTrue();
        long before = ino(dir.resolve("o"));
        channels.replaceHeld();
        assertThat(ino(dir.resolve("o"))).as("nothing held: no FIFO replaced").isEqualTo(before);
    }

    @Test
    void outputNotDeliveredIsStillReadToItsEnd() throws Exception {
        channels = FifoChannels.create(dir);
        channels.begin();
        Process p = new ProcessBuilder("head", "-c", "300000", "/dev/zero")
                .redirectOutput(dir.resolve("o").toFile()).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // more than a pipe holds: read while it writes, delivering nothing
        while (p.isAlive()) {
            channels.drain(0, sink(out), false);
            Thread.sleep(1);
        }
        assertThat(p.waitFor()).isZero();
        channels.endCommand(System.nanoTime() + TimeUnit.SECONDS.toNanos(5), sink(out), sink(out), false);
        assertThat(out.size()).isZero();
        assertThat(channels.drained(System.nanoTime())).isTrue();
    }

    @Test
    void aFifoABackgroundChildStillHoldsIsReplaced() throws Exception {
        channels = FifoChannels.create(dir);
        channels.begin();
        Path o = dir.resolve("o");
        long before = ino(o);
        // the command leaves a background child that holds stdout and writes once told to
        Process child = new ProcessBuilder("bash", "-c", "echo early; read -r line; echo late; echo wrote >&2")
                .redirectOutput(o.toFile()).start();
        children.add(child);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!out.toString(StandardCharsets.UTF_8).equals("early\n") && System.nanoTime() < deadline) {
            if (channels.poll(-1, 100)) {
                assertThat(channels.firstReady()).isFalse();
                channels.drainReady(sink(out), sink(new ByteArrayOutputStream()), true);
            }
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("early\n");
        long drainBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        channels.endCommand(drainBy, sink(out), sink(new ByteArrayOutputStream()), true);
        assertThat(channels.outputFd(0)).as("the child still holds o").isGreaterThanOrEqualTo(0);
        assertThat(channels.outputFd(1)).isEqualTo(-1);
        assertThat(channels.drained(drainBy - 1)).isFalse();
        assertThat(channels.drained(drainBy)).isTrue();
        channels.replaceHeld();
        assertThat(ino(o)).as("a fresh FIFO in its place").isNotEqualTo(before);
        assertThat(channels.outputFd(0)).isEqualTo(-1);

        // the next command reads the new FIFO; the child's late write goes nowhere near it
        channels.begin();
        try (OutputStream in = child.getOutputStream()) {
            in.write("go\n".getBytes(StandardCharsets.US_ASCII));
        }
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("its FIFO has no reader left: EPIPE").isNotZero();
        try (FileOutputStream w = new FileOutputStream(o.toFile())) {
            w.write("next\n".getBytes(StandardCharsets.US_ASCII));
        }
        ByteArrayOutputStream next = new ByteArrayOutputStream();
        channels.endCommand(System.nanoTime() + TimeUnit.SECONDS.toNanos(5), sink(next), sink(next), true);
        assertThat(next.toString(StandardCharsets.UTF_8)).isEqualTo("next\n");
    }

    @Test
    void statusLinesArriveAndEndOfFileMeansTheShellIsGone() throws Exception {
        channels = FifoChannels.create(dir);
        List<String> seen = new ArrayList<>();
        StatusLines.Listener l = StatusLinesTest.recorder(seen);
        // a real shell writes the status channel, as the worker's shell does, and waits to be told to exit
        Process shell = new ProcessBuilder("bash", "-c", "printf 'p 4242\\nx 7\\n'; read -r line")
                .redirectOutput(dir.resolve("s").toFile()).start();
        children.add(shell);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (seen.size() < 2 && System.nanoTime() < deadline) {
            if (channels.poll(channels.statusFd(), 100)) {
                assertThat(channels.firstReady()).isTrue();
                assertThat(channels.readStatus(l)).isFalse();
            }
        }
        assertThat(seen).containsExactly("p4242", "x7");
        shell.getOutputStream().close();
        assertThat(shell.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(channels.readStatus(l)).as("no writer left: the shell is gone").isTrue();
    }
}
