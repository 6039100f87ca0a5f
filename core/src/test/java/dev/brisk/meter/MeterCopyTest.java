// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.posix.Libc;
import dev.brisk.meter.CopyResult.Outcome;
import dev.brisk.meter.CopyResult.Problem;
import dev.brisk.meter.MeterOptions.Counting;
import dev.brisk.meter.MeterOptions.Transfer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real copies through real files, FIFOs and /dev/null, every pairing, both transfer paths: the
 * output must be byte-identical to the input.
 */
// FIFO opens block in native code, which no interrupt reaches: run each test on its own thread
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MeterCopyTest {
    /** One fresh daemon thread per helper task: a helper stuck in a FIFO open blocks nothing else. */
    private static final Executor THREADS = r -> Thread.ofPlatform().daemon().start(r);

    enum Kind { FILE, PIPE, DEV_NULL }

    @TempDir
    Path dir;

    static Stream<Arguments> pairs() {
        List<Arguments> all = new ArrayList<>();
        for (Kind in : Kind.values()) {
            for (Kind out : Kind.values()) {
                for (Transfer t : Transfer.values()) {
                    all.add(Arguments.of(in, out, t));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} -> {1} ({2})")
    @MethodSource("pairs")
    void outputIsIdenticalToInput(Kind inKind, Kind outKind, Transfer transfer) throws Exception {
        byte[] data = random(3 * (1 << 20) + 12_345, inKind.ordinal() * 10 + outKind.ordinal());
        byte[] expected = inKind == Kind.DEV_NULL ? new byte[0] : data;
        List<Progress> seen = new CopyOnWriteArrayList<>();
        Meter meter = new Meter(MeterOptions.builder().transfer(transfer).build(), seen::add);

        Input input = switch (inKind) {
            case FILE -> Input.file(write("in", data));
            case PIPE -> Input.file(fifo("in"));
            case DEV_NULL -> Input.file(Path.of("/dev/null"));
        };
        CompletableFuture<Void> writer = inKind == Kind.PIPE
                ? CompletableFuture.runAsync(() -> feed(dir.resolve("in"), data, false), THREADS) : CompletableFuture.completedFuture(null);
        Path outPath = switch (outKind) {
            case FILE -> dir.resolve("out");
            case PIPE -> fifo("out");
            case DEV_NULL -> Path.of("/dev/null");
        };
        CompletableFuture<byte[]> reader = outKind == Kind.PIPE
                ? CompletableFuture.supplyAsync(() -> drain(outPath), THREADS) : null;

        CopyResult r = meter.copy(List.of(input), Output.file(bytes(outPath)));
        writer.get(30, TimeUnit.SECONDS);

        assertThat(r.outcome()).isEqualTo(Outcome.END_OF_INPUT);
        assertThat(r.problems()).isEmpty();
        assertThat(r.bytes()).isEqualTo(expected.length);
        byte[] got = switch (outKind) {
            case FILE -> Files.readAllBytes(outPath);
            case PIPE -> reader.get(30, TimeUnit.SECONDS);
            case DEV_NULL -> expected;
        };
        assertThat(Arrays.equals(got, expected)).as("output identical to input").isTrue();
        Progress last = seen.getLast();
        assertThat(last.finished()).isTrue();
        assertThat(last.bytes()).isEqualTo(expected.length);
        assertThat(last.size()).isEqualTo(inKind == Kind.FILE ? data.length : -1);
    }

    @Test
    void burstySourceThroughPipesArrivesWhole() throws Exception {
        byte[] data = random(5 * (1 << 20) + 7, 99);
        Path in = fifo("in");
        Path out = fifo("out");
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> feed(in, data, true), THREADS);
        CompletableFuture<byte[]> reader = CompletableFuture.supplyAsync(() -> drain(out), THREADS);
        CopyResult r = new Meter(MeterOptions.builder().build(), null).copy(List.of(Input.file(in)), Output.file(bytes(out)));
        writer.get(30, TimeUnit.SECONDS);
        assertThat(r.bytes()).isEqualTo(data.length);
        assertThat(Arrays.equals(reader.get(30, TimeUnit.SECONDS), data)).isTrue();
    }

    @Test
    void severalInputsAreConcatenatedAndMissingOnesSkipped() throws Exception {
        byte[] a = random(100_000, 1);
        byte[] b = random(70_001, 2);
        List<String> problems = new CopyOnWriteArrayList<>();
        ProgressListener l = new ProgressListener() {
            @Override
            public void onProgress(Progress p) {}

            @Override
            public void onProblem(String message) {
                problems.add(message);
            }
        };
        Path out = dir.resolve("out");
        CopyResult r = new Meter(MeterOptions.builder().build(), l).copy(
                List.of(Input.file(write("a", a)), Input.file(dir.resolve("missing")), Input.file(write("b", b))),
                Output.file(bytes(out)));
        assertThat(r.problems()).containsExactly(Problem.INPUT_UNREADABLE);
        assertThat(problems).singleElement().asString().endsWith("missing: No such file or directory");
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        assertThat(Arrays.equals(Files.readAllBytes(out), both)).isTrue();
    }

    @Test
    void inputThatIsTheOutputIsSkipped() throws Exception {
        Path f = write("same", random(1000, 3));
        CopyResult r = new Meter(MeterOptions.builder().build(), null).copy(List.of(Input.file(f)), Output.file(bytes(f)));
        assertThat(r.problems()).contains(Problem.INPUT_IS_OUTPUT);
    }

    @Test
    void readErrorIsReportedAndTheRestCopied() throws Exception {
        byte[] b = random(5000, 4);
        Path out = dir.resolve("out");
        CopyResult r = new Meter(MeterOptions.builder().build(), null).copy(
                List.of(Input.file(dir), Input.file(write("b", b))), Output.file(bytes(out)));
        assertThat(r.problems()).containsExactly(Problem.TRANSFER_ERROR);
        assertThat(Files.readAllBytes(out)).isEqualTo(b);
    }

    @Test
    void bytesStillUnreadInTheOutputPipeAreNotCountedAsDelivered() throws Exception {
        byte[] data = random(200_000, 12);
        Path in = fifo("in");
        Path out = fifo("out");
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try (OutputStream o = new FileOutputStream(in.toFile())) {
                o.write(data);
                o.flush();
                Thread.sleep(700); // the copy stays open while its output pipe sits unread
            } catch (IOException | InterruptedException e) {
                throw new RuntimeException(e);
            }
        }, THREADS);
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            try (InputStream i = new FileInputStream(out.toFile())) {
                writer.join();
                i.readAllBytes();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }, THREADS);
        List<Progress> seen = new CopyOnWriteArrayList<>();
        CopyResult r = new Meter(MeterOptions.builder().interval(java.time.Duration.ofMillis(100)).build(), seen::add)
                .copy(List.of(Input.file(in)), Output.file(bytes(out)));
        reader.get(30, TimeUnit.SECONDS);
        assertThat(r.bytes()).isEqualTo(data.length);
        List<Progress> running = seen.stream().filter(p -> !p.finished()).toList();
        assertThat(running).isNotEmpty();
        // while the output pipe sat unread, FIONREAD was subtracted: without it every sample of
        // those 700 ms would say 200,000 (the 256 KiB pipe took all of it). Which sample is last
        // races with the reader draining the pipe, so ask for one, not the last.
        assertThat(running).anyMatch(p -> p.bytes() < data.length);
        assertThat(seen.getLast().bytes()).isEqualTo(data.length);
    }

    @Test
    void stopAtSizeCutsBytesExactly() throws Exception {
        Path in = write("in", random(1 << 20, 5));
        for (Transfer t : Transfer.values()) {
            Path out = dir.resolve("out-" + t);
            CopyResult r = new Meter(MeterOptions.builder().size(12_345).stopAtSize(true).transfer(t).build(), null)
                    .copy(List.of(Input.file(in)), Output.file(bytes(out)));
            assertThat(r.outcome()).isEqualTo(Outcome.SIZE_REACHED);
            assertThat(Files.size(out)).isEqualTo(12_345);
        }
    }

    @Test
    void linesAreCountedExactlyAndStopAtSizeCutsAtALine() throws Exception {
        StringBuilder text = new StringBuilder();
        Random random = new Random(6);
        for (int i = 0; i < 100_000; i++) {
            text.append("x".repeat(random.nextInt(40))).append('\n');
        }
        text.append("no newline at the end");
        Path in = write("in", text.toString().getBytes(StandardCharsets.US_ASCII));
        CopyResult all = new Meter(MeterOptions.builder().counting(Counting.LINES).build(), null)
                .copy(List.of(Input.file(in)), Output.discard());
        assertThat(all.lines()).isEqualTo(100_000);
        assertThat(all.bytes()).isEqualTo(text.length());

        Path out = dir.resolve("out");
        CopyResult some = new Meter(MeterOptions.builder().counting(Counting.LINES).size(777).stopAtSize(true).build(), null)
                .copy(List.of(Input.file(in)), Output.file(bytes(out)));
        assertThat(some.lines()).isEqualTo(777);
        assertThat(Files.readAllLines(out)).hasSize(777);
        assertThat(Files.readString(out)).endsWith("\n");
    }

    @Test
    void nulTerminatedLines() throws Exception {
        Path in = write("in", "a\0b\0c\nd\0".getBytes(StandardCharsets.US_ASCII));
        CopyResult r = new Meter(MeterOptions.builder().counting(Counting.NUL_LINES).build(), null)
                .copy(List.of(Input.file(in)), Output.discard());
        assertThat(r.lines()).isEqualTo(3);
    }

    @Test
    void closedReaderEndsTheCopyQuickly() throws Exception {
        Path in = dir.resolve("sparse");
        try (RandomAccessFile f = new RandomAccessFile(in.toFile(), "rw")) {
            f.setLength(1L << 30);
        }
        Path out = fifo("out");
        for (Transfer t : Transfer.values()) {
            CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
                try (InputStream s = new FileInputStream(out.toFile())) {
                    s.readNBytes(100_000);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, THREADS);
            CopyResult r = new Meter(MeterOptions.builder().transfer(t).build(), null)
                    .copy(List.of(Input.file(in)), Output.file(bytes(out)));
            assertThat(r.outcome()).isEqualTo(Outcome.OUTPUT_CLOSED);
            assertThat(r.problems()).isEmpty();
            assertThat(r.bytes()).isLessThan(1L << 30);
            reader.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void moreThanFourGibibytesThroughAPipe() throws Exception {
        long size = (4L << 30) + 4097;
        Path out = fifo("out");
        CompletableFuture<Long> reader = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = new FileInputStream(out.toFile())) {
                byte[] buf = new byte[1 << 20];
                long total = 0;
                for (int n; (n = in.read(buf)) > 0; ) {
                    total += n;
                }
                return total;
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }, THREADS);
        List<Progress> seen = new CopyOnWriteArrayList<>();
        CopyResult r = new Meter(MeterOptions.builder().size(size).stopAtSize(true).build(), seen::add)
                .copy(List.of(Input.file(Path.of("/dev/zero"))), Output.file(bytes(out)));
        assertThat(r.outcome()).isEqualTo(Outcome.SIZE_REACHED);
        assertThat(r.bytes()).isEqualTo(size);
        assertThat(reader.get(60, TimeUnit.SECONDS)).isEqualTo(size);
        assertThat(seen.getLast().percent()).isEqualTo(100);
    }

    @Test
    void rateLimitHoldsInRealTime() throws Exception {
        int rate = 200 << 10;
        Path in = write("in", random(300 << 10, 7));
        long start = System.nanoTime();
        CopyResult r = new Meter(MeterOptions.builder().rateLimiter(new RateLimiter(rate)).build(), null)
                .copy(List.of(Input.file(in)), Output.discard());
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(r.bytes()).isEqualTo(300 << 10);
        // the limiter cannot run early; late only by scheduling noise
        assertThat(seconds).isBetween(1.5 * 0.97, 1.5 * 1.5);
    }

    @Test
    void streamsAndChannelsAreMeteredToo() throws Exception {
        byte[] data = random(1_000_003, 8);
        List<Progress> seen = new CopyOnWriteArrayList<>();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        CopyResult r = new Meter(MeterOptions.builder().size(data.length).build(), seen::add)
                .copy(new ByteArrayInputStream(data), sink);
        assertThat(sink.toByteArray()).isEqualTo(data);
        assertThat(r.bytes()).isEqualTo(data.length);
        assertThat(seen.getLast().percent()).isEqualTo(100);

        Path in = write("in", data);
        Path out = dir.resolve("out");
        try (FileChannel src = FileChannel.open(in);
                FileChannel dst = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            CopyResult c = new Meter(MeterOptions.builder().build(), null).copy(src, dst);
            assertThat(c.bytes()).isEqualTo(data.length);
        }
        assertThat(Files.readAllBytes(out)).isEqualTo(data);
    }

    private byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private Path write(String name, byte[] data) throws IOException {
        return Files.write(dir.resolve(name), data);
    }

    private Path fifo(String name) throws IOException {
        Path p = dir.resolve(name);
        Libc.mkfifo(bytes(p), 0600);
        return p;
    }

    private static byte[] bytes(Path p) {
        return p.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void feed(Path fifo, byte[] data, boolean bursty) {
        Random random = new Random(11);
        try (OutputStream out = new FileOutputStream(fifo.toFile())) {
            int at = 0;
            while (at < data.length) {
                int n = bursty ? Math.min(data.length - at, 1 + random.nextInt(200_000)) : data.length - at;
                out.write(data, at, n);
                at += n;
                if (bursty && random.nextInt(4) == 0) {
                    Thread.sleep(random.nextInt(5));
                }
            }
        } catch (IOException | InterruptedException e) {
            throw new RuntimeException(e);
        }
    }

    private static byte[] drain(Path fifo) {
        try (InputStream in = new FileInputStream(fifo.toFile())) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }
}
