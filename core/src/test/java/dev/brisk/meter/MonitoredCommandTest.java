// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.meter.CopyResult.Outcome;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link MonitoredCommand} and the descriptor inputs and outputs under it, on real pipes and processes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MonitoredCommandTest {
    @TempDir
    Path dir;

    @Test
    void aCopyIntoAPipeEndsWhenItsReaderGoesEvenWhileTheInputIsIdle() throws Exception {
        int[] idle = pipe();
        int[] out = pipe();
        try {
            CompletableFuture<CopyResult> copy = CompletableFuture.supplyAsync(() -> {
                try {
                    return new Meter(MeterOptions.builder().build(), null)
                            .copy(List.of(Input.descriptor(idle[0])), Output.descriptor(out[1]));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, r -> Thread.ofPlatform().daemon().start(r));
            Libc.close(out[0]); // the reader goes; nothing was ever written to the input
            CopyResult r = copy.get(20, TimeUnit.SECONDS);
            assertThat(r.outcome()).isEqualTo(Outcome.OUTPUT_CLOSED);
            assertThat(r.problems()).isEmpty();
        } finally {
            Libc.close(idle[0]);
            Libc.close(idle[1]);
            Libc.close(out[1]);
        }
    }

    @Test
    void bothSidesThroughCatAreByteExact() throws Exception {
        byte[] data = new byte[2_500_000];
        new Random(5).nextBytes(data);
        Path in = Files.write(dir.resolve("in"), data);
        Path out = dir.resolve("out");
        Meter meter = new Meter(MeterOptions.builder().build(), null);
        try (MonitoredCommand cat = MonitoredCommand.start(List.of(bytes("cat")), MonitoredCommand.Side.BOTH)) {
            MonitoredCommand.Result r = cat.run(meter, List.of(Input.file(in)), meter, Output.file(bytes(out.toString())));
            assertThat(r.status()).isZero();
            assertThat(r.input().bytes()).isEqualTo(data.length);
            assertThat(r.output().bytes()).isEqualTo(data.length);
        }
        assertThat(Files.readAllBytes(out)).isEqualTo(data);
    }

    @Test
    void aSignalReachesTheCommandUntilItIsReaped() throws Exception {
        MonitoredCommand sleep = MonitoredCommand.start(List.of(bytes("sleep"), bytes("30")), MonitoredCommand.Side.OUT);
        assertThat(sleep.signal(15)).isTrue();
        assertThat(sleep.waitFor()).isEqualTo(143);
        assertThat(sleep.signal(15)).as("reaped: its pid may be another's now").isFalse();
        sleep.close();
        assertThatThrownBy(() -> MonitoredCommand.start(List.of(bytes("/nonexistent/cmd")), MonitoredCommand.Side.IN))
                .isInstanceOfSatisfying(MonitoredCommand.StartException.class, e -> {
                    assertThat(e.status()).isEqualTo(127);
                    assertThat(e.getMessage()).isEqualTo("/nonexistent/cmd: No such file or directory");
                });
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static int[] pipe() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(ValueLayout.JAVA_INT, 2);
            assertThat(Libc.pipe2(fds, Flags.O_CLOEXEC)).isZero();
            return new int[] {fds.getAtIndex(ValueLayout.JAVA_INT, 0), fds.getAtIndex(ValueLayout.JAVA_INT, 1)};
        }
    }
}
