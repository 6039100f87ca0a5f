// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.meter.Progress;
import dev.brisk.meter.Ticker;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The last complete line ({@code %L}) whatever the chunks the data arrives in. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CounterTest {
    @Test
    void previousLineIsTheLastCompleteOneForEverySplit() {
        String text = "alpha\nbeta beta\n\ngamma " + "x".repeat(2000) + "\ndelta\nunfinished";
        byte[] data = text.getBytes(StandardCharsets.US_ASCII);
        Random random = new Random(5);
        for (int round = 0; round < 200; round++) {
            Counter c = new Counter(Ticker.system(), 0, true);
            int at = 0;
            while (at < data.length) {
                int n = Math.min(data.length - at, 1 + random.nextInt(round % 2 == 0 ? 7 : 3000));
                c.tail(MemorySegment.ofArray(data).asSlice(at, n), n);
                at += n;
                String expected = expectedAt(text.substring(0, at));
                assertThat(new String(c.previousLine(), StandardCharsets.US_ASCII)).as("after %d bytes", at).isEqualTo(expected);
            }
        }
    }

    /** The start (up to what a copy keeps) of the last line that has its newline in {@code written}. */
    private static String expectedAt(String written) {
        int last = written.lastIndexOf('\n');
        if (last < 0) {
            return "";
        }
        String line = written.substring(written.lastIndexOf('\n', last - 1) + 1, last);
        return line.substring(0, Math.min(line.length(), Progress.LINE_KEPT));
    }
}
