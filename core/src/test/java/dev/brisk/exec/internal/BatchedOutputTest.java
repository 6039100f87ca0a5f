// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link BatchedOutput} on real files and a real FIFO: what reaches the descriptor, and when. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BatchedOutputTest {
    @TempDir
    Path dir;

    private static String read(Path f) throws IOException {
        return Files.readString(f, StandardCharsets.ISO_8859_1);
    }

    /** Polls until {@code f} holds {@code want} (the flusher's deferred write), for at most 10 s. */
    private static void awaitContent(Path f, String want) throws Exception {
        for (int i = 0; i < 1000 && !read(f).equals(want); i++) {
            Thread.sleep(10);
        }
        assertThat(read(f)).isEqualTo(want);
    }

    @Test
    void smallOutputsWaitInMemoryUntilAFlushThenGoOutTogether() throws Exception {
        Path f = dir.resolve("out");
        try (FileOutputStream raw = new FileOutputStream(f.toFile())) {
            BatchedOutput b = new BatchedOutput(raw);
            b.write("one\n".getBytes(StandardCharsets.US_ASCII));
            b.write('2');
            b.write("\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(Files.size(f)).as("no write before a job's end").isZero();
            b.flush();
            awaitContent(f, "one\n2\n");
            Thread.sleep(5); // idle for longer than the delay: the next job's end writes at once
            b.write("three\n".getBytes(StandardCharsets.US_ASCII));
            b.flush();
            assertThat(read(f)).isEqualTo("one\n2\nthree\n");
            b.write("four\n".getBytes(StandardCharsets.US_ASCII));
            b.flush(); // right after a write: within the delay (or at once on a slow machine)
            awaitContent(f, "one\n2\nthree\nfour\n");
            b.close();
            assertThat(read(f)).isEqualTo("one\n2\nthree\nfour\n");
        }
    }

    /** A burst of job ends (each within 0.25 ms of the last): the later ones wait for the flusher, which writes them. */
    @Test
    void aBurstOfJobEndsIsWrittenByTheFlusher() throws Exception {
        Path f = dir.resolve("out");
        StringBuilder want = new StringBuilder();
        try (FileOutputStream raw = new FileOutputStream(f.toFile())) {
            BatchedOutput b = new BatchedOutput(raw);
            for (int i = 0; i < 200; i++) {
                byte[] line = ("job " + i + "\n").getBytes(StandardCharsets.US_ASCII);
                b.write(line);
                b.flush();
                b.flush(); // a printer's second flush of the same job counts once
                want.append("job ").append(i).append('\n');
            }
            awaitContent(f, want.toString()); // with no close: the flusher thread wrote the last ones
            b.close();
        }
        assertThat(read(f)).isEqualTo(want.toString());
    }

    @Test
    void aFlushWithMuchWaitingWritesAtOnceAndCloseWritesTheRest() throws Exception {
        Path f = dir.resolve("out");
        byte[] big = new byte[BatchedOutput.FLUSH_AT];
        Arrays.fill(big, (byte) 'x');
        try (FileOutputStream raw = new FileOutputStream(f.toFile())) {
            BatchedOutput b = new BatchedOutput(raw);
            b.write(big);
            b.flush();
            assertThat(Files.size(f)).isEqualTo(big.length);
            b.write("tail".getBytes(StandardCharsets.US_ASCII));
            b.close();
            assertThat(Files.size(f)).isEqualTo(big.length + 4);
            b.close(); // twice: nothing more, no error
        }
        assertThat(read(f)).endsWith("xtail");
    }

    @Test
    void largeWritesAndStderrComeAfterWhatWaits() throws Exception {
        Path f = dir.resolve("both");
        byte[] big = new byte[BatchedOutput.CAPACITY];
        Arrays.fill(big, (byte) 'y');
        try (FileOutputStream raw = new FileOutputStream(f.toFile())) {
            BatchedOutput b = new BatchedOutput(raw);
            java.io.OutputStream err = b.follower(raw);
            b.write("o1 ".getBytes(StandardCharsets.US_ASCII));
            err.write("e1 ".getBytes(StandardCharsets.US_ASCII));
            b.write("o2 ".getBytes(StandardCharsets.US_ASCII));
            err.write(new byte[0]); // an empty stderr does not make stdout wait less
            b.write(big);
            b.write("o3 ".getBytes(StandardCharsets.US_ASCII));
            err.write('!');
            b.write("o4".getBytes(StandardCharsets.US_ASCII));
            b.close();
            err.close();
        }
        assertThat(read(f)).isEqualTo("o1 e1 o2 " + "y".repeat(big.length) + "o3 !o4");
    }

    /** A write too large to gather but that would fit beside what waits (half the buffer and more) still comes after it. */
    @Test
    void aWriteOfHalfTheBufferComesAfterWhatWaits() throws Exception {
        Path f = dir.resolve("out");
        try (FileOutputStream raw = new FileOutputStream(f.toFile())) {
            BatchedOutput b = new BatchedOutput(raw);
            for (int size : new int[] {BatchedOutput.CAPACITY / 2, 40_000, BatchedOutput.CAPACITY - 10}) {
                b.write("w".getBytes(StandardCharsets.US_ASCII));
                byte[] big = new byte[size];
                Arrays.fill(big, (byte) 'b');
                b.write(big);
                b.write("\n".getBytes(StandardCharsets.US_ASCII));
            }
            b.close();
        }
        String want = "w" + "b".repeat(BatchedOutput.CAPACITY / 2) + "\n" + "w" + "b".repeat(40_000) + "\n"
                + "w" + "b".repeat(BatchedOutput.CAPACITY - 10) + "\n";
        assertThat(read(f)).isEqualTo(want);
    }

    /** A big output copied by {@code sendfile} on the descriptor's channel comes after the bytes that wait. */
    @Test
    void aCopyOnTheChannelComesAfterWhatWaits() throws Exception {
        Path src = dir.resolve("src");
        Files.writeString(src, "z".repeat(200_000));
        Path f = dir.resolve("out");
        try (FileOutputStream raw = new FileOutputStream(f.toFile()); FileChannel ch = FileChannel.open(src, StandardOpenOption.READ)) {
            BatchedOutput b = new BatchedOutput(raw);
            b.write("head ".getBytes(StandardCharsets.US_ASCII));
            HeldOutput.copy(ch, 200_000, b);
            b.write(" end".getBytes(StandardCharsets.US_ASCII));
            b.close();
        }
        assertThat(read(f)).isEqualTo("head " + "z".repeat(200_000) + " end");
    }

    /**
     * A write that fails (the pipe's reader gone) is thrown by the next call, never lost in
     * silence: made at once in the flush, or (every job end waiting: {@code burst} 0) on the
     * flusher thread.
     */
    @ParameterizedTest
    @ValueSource(ints = {BatchedOutput.STREAK, 0})
    void aFailedWriteIsThrownByTheNextCall(int burst) throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        CompletableFuture<FileInputStream> reader = CompletableFuture.supplyAsync(() -> {
            try {
                return new FileInputStream(fifo.toFile());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        FileOutputStream raw = new FileOutputStream(fifo.toFile());
        try {
            BatchedOutput b = new BatchedOutput(raw, burst);
            FileInputStream in = reader.get(10, TimeUnit.SECONDS);
            b.write("first\n".getBytes(StandardCharsets.US_ASCII));
            b.flush(); // written at once, or by the flusher: into the FIFO's buffer
            assertThat(in.readNBytes(6)).isEqualTo("first\n".getBytes(StandardCharsets.US_ASCII));
            in.close(); // the reader goes away: writes fail with EPIPE
            b.write("lost?\n".getBytes(StandardCharsets.US_ASCII));
            assertThatThrownBy(() -> {
                // the write fails in this flush, or on the flusher thread and then in a later call
                for (int i = 0; i < 1000; i++) {
                    b.flush();
                    Thread.sleep(10);
                }
            }).isInstanceOf(IOException.class);
            assertThatThrownBy(b::close).isInstanceOf(IOException.class);
            // stderr beside it still writes: stdout's failure is stdout's to report
            Path errFile = dir.resolve("err");
            try (FileOutputStream errRaw = new FileOutputStream(errFile.toFile())) {
                b.follower(errRaw).write("still said\n".getBytes(StandardCharsets.US_ASCII));
            }
            assertThat(read(errFile)).isEqualTo("still said\n");
        } finally {
            try {
                raw.close();
            } catch (IOException ignored) {
                // closing a FIFO's write end: nothing to report
            }
        }
    }
}
