// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link LineKey}: each expectation the job GNU parallel 20221122's binner picks for the line. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class LineKeyTest {
    private static final Pattern COMMA = Pattern.compile(",");

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void binsByTheColumnsNumberModuloTheJobsZeroTheLast() {
        try (LineKey k = new LineKey("1", COMMA, LineKey.Pick.NUMBER)) {
            assertThat(k.job(b("1,a\n"), 3)).isZero();
            assertThat(k.job(b("2,b\n"), 3)).isEqualTo(1);
            assertThat(k.job(b("3,c\n"), 3)).isEqualTo(2);
            assertThat(k.job(b("x,c\n"), 3)).isEqualTo(2); // not a number: 0
            assertThat(k.job(b("-1,c\n"), 3)).isEqualTo(1); // Perl's %: -1 % 3 is 2
        }
        try (LineKey k = new LineKey("2", COMMA, LineKey.Pick.NUMBER)) {
            assertThat(k.job(b("a,4,5\n"), 3)).isZero();
            assertThat(k.job(b("a,5\n"), 3)).isEqualTo(1); // the last column keeps its newline: "5\n" is 5
        }
    }

    @Test
    void perlCodeRunsOnTheColumn() {
        try (LineKey k = new LineKey("1 $_ *= 2", COMMA, LineKey.Pick.NUMBER)) {
            assertThat(k.job(b("1,a\n"), 3)).isEqualTo(1);
            assertThat(k.job(b("2,a\n"), 3)).isZero();
        }
    }

    @Test
    void aNamedColumnIsFoundInTheHeader() {
        try (LineKey k = new LineKey("v", COMMA, LineKey.Pick.VALUE)) {
            assertThat(k.needsHeader()).isTrue();
            k.header(b("v,w\n"));
            assertThat(new String(k.key(b("1,2\n")), StandardCharsets.ISO_8859_1)).isEqualTo("1");
        }
        try (LineKey k = new LineKey("w", COMMA, LineKey.Pick.VALUE)) {
            // as GNU parallel: the last name keeps the header's newline, so it is not found
            assertThatThrownBy(() -> k.header(b("v,w\n"))).hasMessage("Column 'w' , not found in header");
        }
    }

    @Test
    void theSameValueHashesToTheSameJob() {
        try (LineKey k = new LineKey("1", COMMA, LineKey.Pick.HASH)) {
            int first = k.job(b("key,a\n"), 7);
            assertThat(k.job(b("key,b\n"), 7)).isEqualTo(first);
            assertThat(first).isBetween(0, 6);
        }
    }
}
