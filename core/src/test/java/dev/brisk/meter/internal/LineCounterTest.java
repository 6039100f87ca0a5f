// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LineCounterTest {
    @Test
    void countsExactlyAtEveryLengthAndOffset() {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            byte[] data = new byte[random.nextInt(200)];
            for (int i = 0; i < data.length; i++) {
                // bytes near the delimiters catch carries in the word-at-a-time test
                data[i] = (byte) switch (random.nextInt(6)) {
                    case 0 -> '\n';
                    case 1 -> 0;
                    case 2 -> 0x0b;
                    case 3 -> 0x80;
                    case 4 -> 0xff;
                    default -> random.nextInt(256);
                };
            }
            int from = data.length == 0 ? 0 : random.nextInt(data.length);
            MemorySegment seg = MemorySegment.ofArray(data).asSlice(from);
            for (byte d : new byte[] {'\n', 0}) {
                long expected = 0;
                for (int i = from; i < data.length; i++) {
                    if (data[i] == d) {
                        expected++;
                    }
                }
                assertThat(LineCounter.count(seg, seg.byteSize(), d)).isEqualTo(expected);
            }
        }
    }

    @Test
    void prefixEndsAtTheNthDelimiter() {
        MemorySegment seg = MemorySegment.ofArray("a\nbb\nccc\n".getBytes());
        assertThat(LineCounter.prefixWith(seg, seg.byteSize(), (byte) '\n', 2)).isEqualTo(5);
        assertThat(LineCounter.prefixWith(seg, seg.byteSize(), (byte) '\n', 4)).isEqualTo(-1);
    }
}
