// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ColorLinesTest {
    private static String text(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    /** GNU parallel 20221122's colours of jobs 1 and 2 ({@code parallel --color}), and its table going round. */
    @Test
    void gnuTable() {
        assertThat(text(ColorLines.ofSequence(1))).isEqualTo("\033[48;5;134;38;5;231m\033[K");
        assertThat(text(ColorLines.ofSequence(2))).isEqualTo("\033[48;5;021;38;5;231m\033[K");
        assertThat(text(ColorLines.ofSequence(0))).isNotEqualTo(text(ColorLines.ofSequence(1)));
    }

    @Test
    void linesAreColouredAndEnded() throws IOException {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ColorLines c = new ColorLines(o, "C".getBytes(StandardCharsets.US_ASCII), "T\t".getBytes(StandardCharsets.US_ASCII));
        c.write("a\nx\ry".getBytes(StandardCharsets.US_ASCII));
        c.end();
        assertThat(o.toString(StandardCharsets.US_ASCII)).isEqualTo("CT\ta\033[m\nCT\tx\033[m\rCT\ty\033[m\n");
    }

    @Test
    void noColourMeansNoReset() throws IOException {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ColorLines c = new ColorLines(o, new byte[0], new byte[0]);
        c.write("a".getBytes(StandardCharsets.US_ASCII));
        c.end();
        c.end();
        assertThat(o.toString(StandardCharsets.US_ASCII)).isEqualTo("a\n");
    }
}
