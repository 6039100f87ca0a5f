// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EnvTextTest {
    @Test
    void validTextIsPlainUtf8() {
        assertThat(EnvText.decode("PATH=/usr/bin:/é".getBytes(StandardCharsets.UTF_8))).isEqualTo("PATH=/usr/bin:/é");
        assertThat(EnvText.encode("a=é€😀")).isEqualTo("a=é€😀".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void invalidBytesComeBackUnchanged() {
        byte[] v = {'V', '=', 'a', (byte) 0xff, (byte) 0xfe, 'b', (byte) 0xc3, (byte) 0xe2, (byte) 0x82};
        String s = EnvText.decode(v);
        assertThat(s).startsWith("V=a").contains("b");
        assertThat(EnvText.encode(s)).isEqualTo(v);
    }

    /** Any bytes, decoded and encoded again, are the same bytes (seeded, reproducible). */
    @Test
    void roundTripsRandomBytes() {
        Random r = new Random(36);
        for (int i = 0; i < 20_000; i++) {
            byte[] b = new byte[r.nextInt(12)];
            for (int k = 0; k < b.length; k++) {
                // mostly bytes around UTF-8's lead and continuation bytes, where decoding can go wrong
                b[k] = (byte) (r.nextBoolean() ? 0x80 + r.nextInt(0x80) : r.nextInt(256));
            }
            assertThat(EnvText.encode(EnvText.decode(b))).as("round trip %d", i).isEqualTo(b);
        }
    }
}
