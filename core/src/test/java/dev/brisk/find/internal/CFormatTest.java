// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** C printf conversions as glibc formats them (expected values from printf(1) on this machine's glibc). */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CFormatTest {
    private static String g(double v, String flags, int width, int precision) {
        return new String(CFormat.general(v, flags, width, precision), StandardCharsets.ISO_8859_1);
    }

    @Test
    void generalIsCsPercentG() {
        assertThat(g(4096, "", 0, -1)).isEqualTo("4096");
        assertThat(g(1.2288, "", 0, -1)).isEqualTo("1.2288");
        assertThat(g(4096, "", 0, 2)).isEqualTo("4.1e+03");
        assertThat(g(4096, "#", 0, -1)).isEqualTo("4096.00");
        assertThat(g(1234567, "", 0, -1)).isEqualTo("1.23457e+06");
        assertThat(g(0.0001, "", 0, -1)).isEqualTo("0.0001");
        assertThat(g(0.00001, "", 0, -1)).isEqualTo("1e-05");
        assertThat(g(0, "", 0, -1)).isEqualTo("0");
        assertThat(g(1, "+", 0, -1)).isEqualTo("+1");
        assertThat(g(1, "0", 6, -1)).isEqualTo("000001");
        assertThat(g(1, "-", 4, -1)).isEqualTo("1   ");
        assertThat(g(Double.POSITIVE_INFINITY, "0", 5, -1)).isEqualTo("  inf");
        assertThat(g(0.5, "", 0, 0)).isEqualTo("0.5");
    }

    @Test
    void integersAndStrings() {
        assertThat(new String(CFormat.decimal(1, "", 0, 5), StandardCharsets.US_ASCII)).isEqualTo("00001");
        assertThat(new String(CFormat.decimal(1, "+0", 5, -1), StandardCharsets.US_ASCII)).isEqualTo("+0001");
        assertThat(new String(CFormat.decimal(1, "0", 8, 4), StandardCharsets.US_ASCII)).isEqualTo("    0001");
        assertThat(new String(CFormat.decimal(0, "", 0, 0), StandardCharsets.US_ASCII)).isEmpty();
        assertThat(new String(CFormat.octal(0644, "#", 0, -1), StandardCharsets.US_ASCII)).isEqualTo("0644");
        assertThat(new String(CFormat.octal(0644, "#", 0, 5), StandardCharsets.US_ASCII)).isEqualTo("00644");
        assertThat(new String(CFormat.octal(0644, "+", 0, 4), StandardCharsets.US_ASCII)).isEqualTo("0644");
        assertThat(new String(CFormat.string("ext4".getBytes(StandardCharsets.US_ASCII), "0", 5, -1), StandardCharsets.US_ASCII))
                .isEqualTo(" ext4");
        assertThat(new String(CFormat.string("10000".getBytes(StandardCharsets.US_ASCII), "-", 8, 3), StandardCharsets.US_ASCII))
                .isEqualTo("100     ");
    }
}
