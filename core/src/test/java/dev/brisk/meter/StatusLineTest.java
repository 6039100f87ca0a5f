// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.meter.StatusLine.Field;
import dev.brisk.meter.StatusLine.Units;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expected strings were captured from pv 1.6.20 ({@code pv -f -b FILE 2>&1 >/dev/null | cat -A}),
 * but for plain bytes in binary units, which pv 1.11 pads to the width of {@code KiB}.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class StatusLineTest {
    private static final Clock NOON = Clock.fixed(Instant.parse("2026-01-02T12:00:00Z"), ZoneOffset.UTC);
    private static final byte[] NONE = new byte[0];

    @ParameterizedTest
    @CsvSource(delimiter = '|', ignoreLeadingAndTrailingWhitespace = false, value = {"0|0.00  B", "1|1.00  B", "999| 999  B", "1000|1000  B", "1023|1023  B",
            "1024|1.00KiB", "10000|9.77KiB", "100000|97.7KiB", "1048575|1023KiB", "1048576|1.00MiB",
            "5000000|4.77MiB", "123456789| 117MiB", "5368709120|5.00GiB"})
    void byteAmountsMatchPv(long bytes, String expected) {
        assertThat(line("%b", false, Units.BINARY).render(done(bytes, -1), 80)).isEqualTo(expected);
    }

    @Test
    void previousLineShowsItsStartOrFillsTheRoom() {
        byte[] line = "one\ttwo \u00e9".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Progress p = new Progress(10, 10, -1, 0, 0, 0, -1, false, false, NONE, line);
        assertThat(line("[%6L]", false, Units.BINARY).render(p, 80)).isEqualTo("[one tw]"); // unprintable: space
        assertThat(line("[%{previous-line}]", false, Units.BINARY).render(p, 16)).isEqualTo("[one two       ]");
        Progress spliced = new Progress(10, 10, -1, 0, 0, 0, -1, false, true, NONE, NONE);
        assertThat(line("%4L|", false, Units.BINARY).render(spliced, 80)).isEqualTo("    |");
    }

    @Test
    void linesUseDecimalPrefixesWithoutUnit() {
        assertThat(line("%b", true, Units.BINARY).render(done(1000, -1), 80)).isEqualTo("1.00k");
    }

    @Test
    void decimalAndBitUnits() {
        assertThat(line("%b", false, Units.DECIMAL).render(done(1_500_000, -1), 80)).isEqualTo("1.50MB");
        assertThat(line("%b", false, Units.BITS).render(done(1000, -1), 80)).isEqualTo("8.00kb");
    }

    @Test
    void defaultLineAtTheEndOfAKnownSize() {
        String fmt = StatusLine.formatOf(EnumSet.of(Field.PROGRESS, Field.TIMER, Field.ETA, Field.RATE, Field.BYTES), 1);
        assertThat(fmt).isEqualTo("%b %t %r %p %e");
        Progress p = new Progress(999_424, 999_424, 999_424, 0, 3.77 * (1 << 30), 0, 0, true, true, NONE);
        assertThat(line(fmt, false, Units.BINARY).render(p, 80)).isEqualTo(
                " 976KiB 0:00:00 [3.77GiB/s] [" + "=".repeat(32) + ">] 100%            ");
    }

    @Test
    void progressBarFillsTheWidth() {
        Progress p = new Progress(123_456_789, 123_456_789, 123_456_789, 0, 0, 0, 0, true, false, NONE);
        assertThat(line("%p", false, Units.BINARY).render(p, 80)).isEqualTo("[" + "=".repeat(72) + ">] 100%");
    }

    @Test
    void progressBarIsDroppedWhenItDoesNotFit() {
        Progress p = new Progress(50, 50, 100, 0, 1, 1, 1, false, false, NONE);
        assertThat(line("%b %b %b %p", false, Units.BINARY).render(p, 23)).isEqualTo("50.0  B 50.0  B 50.0  B");
    }

    @Test
    void unknownSizeBouncesAnIndicator() {
        StatusLine l = line("%p", false, Units.BINARY);
        Progress moving = new Progress(10, 10, -1, 0, 5, 5, -1, false, false, NONE);
        assertThat(l.render(moving, 105)).isEqualTo("[  <=>" + " ".repeat(98) + "]");
        assertThat(l.render(moving, 105)).isEqualTo("[    <=>" + " ".repeat(96) + "]");
    }

    @Test
    void nameIsPaddedToNineAndEtaBlankedAtTheEnd() {
        StatusLine l = new StatusLine("%N %b %e", "name", false, Units.BINARY, false, NOON);
        assertThat(l.render(done(123_456_789, 123_456_789), 80)).isEqualTo("     name:  117MiB            ");
    }

    @Test
    void etaWhileRunningAndArrivalTime() {
        Progress p = new Progress(100, 100, 1100, 5_000_000_000L, 100, 100, 10_000_000_000L, false, false, NONE);
        assertThat(line("%e", false, Units.BINARY).render(p, 80)).isEqualTo("ETA 0:00:10");
        assertThat(line("%I", false, Units.BINARY).render(p, 80)).isEqualTo("ETA 12:00:10");
    }

    @Test
    void timerShowsDaysPastOne() {
        Progress p = new Progress(0, 0, -1, (2 * 86400L + 3 * 3600 + 4 * 60 + 5) * 1_000_000_000L, 0, 0, -1, false, false, NONE);
        assertThat(line("%t", false, Units.BINARY).render(p, 80)).isEqualTo("2:03:04:05");
    }

    @Test
    void literalsAndUnknownEscapesPassThrough() {
        assertThat(line("X%bY%tZ%%%q", false, Units.BINARY).render(done(123_456_789, -1), 80))
                .isEqualTo("X 117MiBY0:00:00Z%%q");
    }

    @Test
    void bufferPercentAndLastWritten() {
        Progress p = new Progress(5, 5, -1, 0, 0, 0, -1, true, false, "ab\ncd".getBytes());
        assertThat(line("%T %7A", false, Units.BINARY).render(p, 80)).isEqualTo("{  0%} ..ab.cd");
        Progress s = new Progress(5, 5, -1, 0, 0, 0, -1, true, true, NONE);
        assertThat(line("%T", false, Units.BINARY).render(s, 80)).isEqualTo("{----}");
    }

    @Test
    void rateKeepsItsWidthAcrossMagnitudes() {
        StatusLine l = line("%r", false, Units.BINARY);
        int width = -1;
        for (double rate : new double[] {0, 3, 999, 1000, 1023, 1024, 1030, 999_999, 1 << 20}) {
            String text = l.render(new Progress(1, 1, -1, 1, rate, rate, -1, false, false, NONE), 80).stripTrailing();
            width = width < 0 ? text.length() : width;
            assertThat(text).as("rate %s", rate).hasSize(width);
        }
        assertThat(l.render(new Progress(1, 1, -1, 1, 999, 999, -1, false, false, NONE), 80)).isEqualTo("[ 999  B/s]");
    }

    @Test
    void shrinkingLineIsPaddedOverTheOldOne() {
        StatusLine l = line("%t", false, Units.BINARY);
        Progress long_ = new Progress(1, 1, -1, 36_000_000_000_000L, 0, 0, -1, true, false, NONE);
        assertThat(l.render(long_, 80)).isEqualTo("10:00:00");
        assertThat(l.render(done(0, -1), 80)).isEqualTo("0:00:00 ");
    }

    @Test
    void numericMode() {
        String percent = StatusLine.numericFormatOf(false, false, false);
        assertThat(percent).isEqualTo("%{progress-amount-only}");
        StatusLine pct = new StatusLine(percent, null, false, Units.BINARY, true, NOON);
        assertThat(pct.render(done(500, 1000), 80)).isEqualTo("50\n");
        assertThat(StatusLine.numericFormatOf(true, true, true)).isEqualTo("%t %b %r");
        StatusLine bytes = new StatusLine(StatusLine.numericFormatOf(true, true, false), null, false, Units.BINARY, true, NOON);
        Progress p = new Progress(1000, 1000, -1, 1_500_000_000L, 1, 1, -1, true, false, NONE);
        assertThat(bytes.render(p, 80)).isEqualTo("1.5000 1000\n");
        StatusLine unknown = new StatusLine(percent, null, false, Units.BINARY, true, NOON);
        assertThat(unknown.render(done(10, -1), 80)).isEqualTo("2\n");
        StatusLine json = new StatusLine("{\"b\":%{bytes},\"r\":%r,\"p\":%{progress-amount-only}}", null, false,
                Units.BITS, true, NOON);
        assertThat(json.render(new Progress(1000, 1000, 2000, 1, 250, 1, -1, false, false, NONE), 80))
                .isEqualTo("{\"b\":8000,\"r\":2000.0000,\"p\":50}\n");
    }

    @Test
    void barStylesAndSequences() {
        StatusLine.Look utf8 = new StatusLine.Look(BarStyle.BLOCK, false, true, true);
        StatusLine block = new StatusLine("%p", null, false, Units.BINARY, false, NOON, utf8);
        assertThat(block.render(done(500, 1000), 20)).isEqualTo("[" + "█".repeat(6) + " ".repeat(7) + "]  50%");
        StatusLine noUtf8 = new StatusLine("%p", null, false, Units.BINARY, false, NOON,
                new StatusLine.Look(BarStyle.BLOCK, false, false, false));
        assertThat(noUtf8.render(done(500, 1000), 20)).isEqualTo(line("%p", false, Units.BINARY).render(done(500, 1000), 20));
        StatusLine parts = new StatusLine("%{sgr:bold,fg-red,7}%10{bar-shaded}%{sgr:reset}|%{progress-amount-only}|%{nope}",
                null, false, Units.BINARY, false, NOON, utf8);
        assertThat(parts.render(done(250, 1000), 80))
                .isEqualTo("\033[1;31;7m██▒░░░░░░░\033[0m| 25%|%{nope}");
        assertThat(BarStyle.GRANULAR.filled(12.5, 4)).isEqualTo("▌   ");
        assertThat(BarStyle.PLAIN.filled(100, 4)).isEqualTo("===>"); // pv draws the tip at 100% too
        assertThat(BarStyle.SHADED.moving(0, 6)).isEqualTo("▒▓▒░░░");
        assertThat(BarStyle.named("Granular")).isEqualTo(BarStyle.GRANULAR);
        assertThat(BarStyle.named("nonsense")).isNull();
    }

    @Test
    void gaugeFillsToTheRateAgainstTheHighest() {
        StatusLine g = new StatusLine("%p", null, false, Units.BINARY, false, NOON, new StatusLine.Look(BarStyle.PLAIN, true, false, false));
        g.render(new Progress(100, 100, -1, 1, 2048, 1, -1, false, false, NONE), 30);
        assertThat(g.render(new Progress(200, 200, -1, 2, 1024, 1, -1, false, false, NONE), 30))
                .isEqualTo("[========>         ]/2.00KiB/s");
    }

    private static StatusLine line(String format, boolean lines, Units units) {
        return new StatusLine(format, null, lines, units, false, NOON);
    }

    private static Progress done(long count, long size) {
        return new Progress(count, count, size, 0, count, count, size > 0 ? 0 : -1, true, false, NONE);
    }
}
