// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class GlobTest {
    private static boolean m(String pattern, String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return new Glob(pattern.getBytes(StandardCharsets.ISO_8859_1), false).matches(b, 0, b.length);
    }

    @Test
    void shellPatterns() {
        assertThat(m("*.txt", "a.txt")).isTrue();
        assertThat(m("*.txt", ".txt")).isTrue();
        assertThat(m("*.txt", "a.txt.gz")).isFalse();
        assertThat(m("a*b*c", "aXbYbZc")).isTrue();
        assertThat(m("?", "")).isFalse();
        assertThat(m("[a-c]x", "bx")).isTrue();
        assertThat(m("[!a-c]x", "bx")).isFalse();
        assertThat(m("[]]", "]")).isTrue();
        assertThat(m("[[:digit:]]*", "7up")).isTrue();
        assertThat(m("\\*", "*")).isTrue();
        assertThat(m("\\*", "a")).isFalse();
        assertThat(m("[", "[")).isTrue();
        assertThat(m("*/x", "a/b/x")).isTrue();
    }

    @Test
    void caseFolding() {
        byte[] b = "README.TXT".getBytes(StandardCharsets.US_ASCII);
        assertThat(new Glob("*.txt".getBytes(StandardCharsets.US_ASCII), true).matches(b, 0, b.length)).isTrue();
        assertThat(new Glob("[a-z]*".getBytes(StandardCharsets.US_ASCII), true).matches(b, 0, b.length)).isTrue();
    }
}
