// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.shell;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Spawn;
import dev.brisk.internal.posix.WaitStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ShellQuote}'s two styles: the exact text of each (the callers' output must not change),
 * and the round trip that makes quoting safe: random byte strings (every byte but NUL: quotes,
 * newlines, backslashes, bytes that are not UTF-8), quoted, read back by real {@code sh},
 * {@code dash} and {@code bash} ({@code -c 'printf %s QUOTED'}) as exactly the same bytes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShellQuoteTest {
    private static final List<String> SHELLS = List.of("/bin/sh", "/usr/bin/dash", "/usr/bin/bash");

    @TempDir
    Path dir;

    @Test
    void alwaysSingleQuotedWithEachQuoteAsBackslashQuote() {
        assertThat(text(ShellQuote.quote(b("")))).isEqualTo("''");
        assertThat(text(ShellQuote.quote(b("abc")))).isEqualTo("'abc'");
        assertThat(text(ShellQuote.quote(b("it's")))).isEqualTo("'it'\\''s'");
        assertThat(text(ShellQuote.quote(b("'")))).isEqualTo("''\\'''");
        assertThat(text(ShellQuote.quote(b("a b\n$x`y`\\")))).isEqualTo("'a b\n$x`y`\\'");
        assertThat(ShellQuote.quote("é'x")).isEqualTo("'é'\\''x'");
        assertThat(ShellQuote.quoteLatin1(new byte[] {(byte) 0xff, '\''})).isEqualTo("'\u00ff'\\'''");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write('>');
        ShellQuote.append(out, b("x'"));
        assertThat(text(out.toByteArray())).isEqualTo(">'x'\\'''");
    }

    @Test
    void asParallelPlainValuesBareAndQuotesAsDoubleQuotedWithNoEmptyEnds() {
        assertThat(text(ShellQuote.quoteAsParallel(b("a-Z_0.9+/")))).isEqualTo("a-Z_0.9+/");
        assertThat(text(ShellQuote.quoteAsParallel(b("")))).isEqualTo("''");
        assertThat(text(ShellQuote.quoteAsParallel(b("a b")))).isEqualTo("'a b'");
        assertThat(text(ShellQuote.quoteAsParallel(b("'")))).isEqualTo("\"'\"");
        assertThat(text(ShellQuote.quoteAsParallel(b("''")))).isEqualTo("\"'\"''\"'\"");
        assertThat(text(ShellQuote.quoteAsParallel(b("'a")))).isEqualTo("\"'\"'a'");
        assertThat(text(ShellQuote.quoteAsParallel(b("a'")))).isEqualTo("'a'\"'\"");
        assertThat(text(ShellQuote.quoteAsParallel(b("a'b")))).isEqualTo("'a'\"'\"'b'");
        assertThat(text(ShellQuote.quoteAsParallel(b("é")))).isEqualTo("'é'");
        assertThat(ShellQuote.plain((byte) '~')).isFalse();
        assertThat(ShellQuote.plain((byte) 'q')).isTrue();
    }

    /**
     * Values a random draw may miss: every byte alone and all of them in one value, quotes alone,
     * trailing newlines, the empty value, a plain word with one awkward byte.
     */
    @Test
    void awkwardValuesComeBackFromEveryShell() throws IOException {
        List<byte[]> values = new ArrayList<>();
        byte[] all = new byte[255];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) (i + 1);
            values.add(new byte[] {all[i]});
            values.add(new byte[] {'a', all[i], 'b'});
        }
        values.add(all);
        values.addAll(List.of(b(""), b("''"), b("\n\n"), b("a\n\n"), b("'\\''"), b("-n"), b("%s%%"),
                b("$(echo x)`echo y`${z}"), b("\"'\""), new byte[] {(byte) 0x80, (byte) 0xff, '\''}));
        roundTrip(values);
    }

    /**
     * The property: 1,000 random byte strings of 0 to 32 bytes in 1..255 (a seeded
     * {@link Random}, the seed in the failure's description; half of them from alphabets of one
     * to three bytes, so that a plain word with one awkward byte comes up), each in both styles,
     * through each shell: the same bytes back.
     */
    @Test
    void randomBytesComeBackFromEveryShell() throws IOException {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        int[] awkward = {'a', '-', '/', '\'', '\\', '"', ' ', '\n', '$', '`', '*', '~', '=', '%', 0x80, 0xff};
        List<byte[]> values = new ArrayList<>();
        for (int n = 0; n < 1000; n++) {
            int[] alphabet = null;
            if (random.nextBoolean()) {
                alphabet = new int[1 + random.nextInt(3)];
                for (int i = 0; i < alphabet.length; i++) {
                    alphabet[i] = random.nextBoolean() ? 1 + random.nextInt(255) : awkward[random.nextInt(awkward.length)];
                }
            }
            byte[] v = new byte[random.nextInt(alphabet == null ? 33 : 13)];
            for (int i = 0; i < v.length; i++) {
                v[i] = (byte) (alphabet == null ? 1 + random.nextInt(255) : alphabet[random.nextInt(alphabet.length)]);
            }
            values.add(v);
        }
        try {
            roundTrip(values);
        } catch (AssertionError e) {
            throw new AssertionError("random values from seed " + seed + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code values} in both styles through each shell: one script per shell and style,
     * {@code printf %s QUOTED; printf '\0'} for each value, writes back exactly the values.
     */
    private void roundTrip(List<byte[]> values) throws IOException {
        for (String shell : SHELLS) {
            assertPrinted(shell, "always", values, ShellQuote::quote);
            assertPrinted(shell, "as parallel", values, ShellQuote::quoteAsParallel);
        }
    }

    private void assertPrinted(String shell, String style, List<byte[]> values, UnaryOperator<byte[]> quoting)
            throws IOException {
        ByteArrayOutputStream script = new ByteArrayOutputStream();
        for (byte[] v : values) {
            script.writeBytes(b("printf %s "));
            script.writeBytes(quoting.apply(v));
            script.writeBytes(b("; printf '\\0'\n"));
        }
        List<byte[]> printed = split(printed(shell, script.toByteArray()));
        for (int i = 0; i < values.size(); i++) {
            String value = HexFormat.of().formatHex(values.get(i));
            assertThat(printed).as("%s, %s: output for value %d of %d", shell, style, i, values.size()).hasSizeGreaterThan(i);
            assertThat(printed.get(i)).as("%s, %s, value %s", shell, style, value).isEqualTo(values.get(i));
        }
        assertThat(printed).hasSameSizeAs(values);
    }

    /** What {@code shell -c SCRIPT} writes, under timeout(1) so that no shell can hang the test. */
    private byte[] printed(String shell, byte[] script) throws IOException {
        assertThat(script.length).as("one argument's limit").isLessThan(128 * 1024);
        Path out = dir.resolve("out");
        List<byte[]> argv = List.of(b("timeout"), b("20"), b(shell), b("-c"), script);
        try (Spawn s = new Spawn().open(0, b("/dev/null"), Flags.O_RDONLY)
                .open(1, b(out.toString()), Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC)) {
            int pid = s.start(b("/usr/bin/timeout"), argv, null);
            assertThat(pid).isPositive();
            assertThat(WaitStatus.shellStatus(WaitStatus.waitFor(pid))).as("%s's status", shell).isZero();
        }
        return Files.readAllBytes(out);
    }

    /** {@code out} cut after each NUL. */
    private static List<byte[]> split(byte[] out) {
        List<byte[]> parts = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == 0) {
                parts.add(Arrays.copyOfRange(out, from, i));
                from = i + 1;
            }
        }
        return parts;
    }

    private static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, UTF_8);
    }
}
