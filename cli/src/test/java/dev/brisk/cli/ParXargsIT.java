// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * xargs's options of GNU parallel ({@code -E}, {@code -e}, {@code -i}, {@code -L}, {@code -l},
 * {@code -r}, {@code -x}, {@code -t}, {@code -N}, {@code -s}, {@code -m}, {@code -X},
 * {@code --show-limits}, {@code --number-of-cores}, {@code -0}, repeated flags): each command line
 * run by GNU parallel 20221122 ({@code parallel --will-cite}) and by {@code brisk par}, with the
 * same stdout, stderr (GNU's {@code parallel: Error:} read as {@code brisk par:}) and status.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParXargsIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void inputs() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        StringBuilder twenty = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            twenty.append(i).append('\n');
        }
        Files.writeString(dir.resolve("twenty"), twenty);
        Files.writeString(dir.resolve("pairs"), "a b\nc d\ne f\n");
        Files.writeString(dir.resolve("continued"), "a \nb\nc\t\n\nd\n");
        Files.writeString(dir.resolve("blank"), "a\n\n \t\nb\n");
        Files.writeString(dir.resolve("eof"), "a\nEOF\nc\n");
        Files.write(dir.resolve("nul"), "a \0b\0\0c\0EOF\0d\0".getBytes(StandardCharsets.US_ASCII));
    }

    /** GNU parallel's run of {@code gnu} and brisk's of {@code ours} (bash scripts in {@code dir}) at once: the reference first. */
    static Out[] both(String gnu, String ours) throws IOException, InterruptedException {
        return GnuRuns.both(dir, brisk, gnu, ours);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "-k -E 3 echo < twenty",
        "-k -e EOF echo ::: 1 :::: - < eof",
        "-k -iR echo xRy ::: a b",
        "-k --replace -j1 echo x{}y ::: a",
        // another -I token: positional {N} is no replacement string any more, the others stay
        "-k -I [] echo {1} [] [1] {.} {/} ::: a/b.c",
        "-k -I {{}} echo {{1}} {{}} {1} ::: a",
        "-k --replace=QQ echo {1} QQ {.} ::: a.b",
        "-k -L 2 echo x{}y < pairs",
        "-k -l echo x{}y < continued",
        "-k -l2k echo x{}y < pairs",
        "-k -r echo x{}y < blank",
        "--pipe -r -E EOF cat < eof",
        "-k -x echo ::: a",
        "-k -j1 -t echo 'a b' ::: \"it's\" 'x y'",
        "-k -j3 -t echo ::: a b c d e f",
        "-k -t --retries 2 'echo {}; exit 1' ::: a",
        "-k -vv echo ::: a b",
        "-k -0 -0 -k echo ::: a",
        "-k -N0 echo foo {}x ::: a b c",
        "-k -N2 echo {1}-{2} ::: a b c",
        "-k -N 2 -j1 echo {-1} x{}y ::: a b c d e",
        "-k -j1 -X echo {1}-{2} x{}y ::: a b ::: 1 2",
        "-k -j2 -X echo {1}-{2} ::: a b ::: 1 2",
        "-k -j2 -X -s19 echo < twenty",
        "-k -j3 -m -n 2 echo ::: 1 2 3 4 5 6 7",
        "-k -j2 -X -s 10 echo ::: aaaaaaaaaaaaaaaa",
        "-0 -L1 -k echo x{}y < nul",
        "-0 -r -E EOF -k echo x{}y < nul",
        "-k -l -0 echo x{}y < nul",
        "-0 -k -X -j1 echo x{}y < nul",
        "--number-of-cores",
        "--tollef echo ::: a",
        "-k -q perl -e 'print \"@ARGV\\n\"' x{}y 'a;b' '' {.} ::: 'p q' \"r's.t\"",
        "-k -q -X echo x{}y ::: 'a b' c",
        "-k --shellquote --shellquote ::: 'a b' \"it's\" \"'q'\" '' plain",
        "-k -v echo ::: \"'a b'\" \"x'\"",
        "-k --arg-sep ,, --arg-file-sep // echo ::: ,, a b ,,+ 1 2 // pairs",
        "-kH 1 echo ::: a",
        "--number-of-threads",
    })
    void matchesGnuParallel(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }

    /** GNU's report of the limits, then the run, with GNU's numbers (the longest command as its search finds it). */
    @Test
    void showLimitsReportsThenRuns() throws Exception {
        String args = "--show-limits -k echo ::: a b";
        Out[] runs = both("parallel --will-cite " + args, "\"$B\" par " + args);
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout());
        assertThat(runs[1].stdout()).contains("Maximal size of command: 130329\nMaximal usable size of command: 63664\n").endsWith("a\nb\n");
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isZero();
    }

    /** {@code $PARALLEL}: its options first, its other words before the command; {@code --plain} leaves it out. */
    @Test
    void parallelVariableComesFirst() throws Exception {
        for (String args : new String[] {"-j1 echo ::: a b", "--plain -j1 echo ::: b a"}) {
            String env = "PARALLEL=\"-k --tag 'nice' -n 0\" ";
            Out[] runs = both(env + "parallel --will-cite " + args, env + "\"$B\" par " + args);
            assertThat(runs[1].stdout()).as(args).isEqualTo(runs[0].stdout()).isNotEmpty();
            assertThat(runs[1].status()).isEqualTo(runs[0].status());
        }
    }

    /** The profiles: {@code config} in {@code $PARALLEL_HOME} by default, {@code -J NAME} instead, and a missing one left out. */
    @Test
    void profilesComeBeforeTheCommandLine() throws Exception {
        Path home = Files.createDirectories(dir.resolve("ph"));
        Files.writeString(home.resolve("config"), "# options for every run\n-k --tag\n");
        Files.writeString(home.resolve("prof"), "-j1\n# a command word too\nnice\n");
        for (String args : new String[] {"echo ::: b a", "-J prof -J nope echo ::: b a"}) {
            String env = "PARALLEL_HOME=ph ";
            Out[] runs = both(env + "parallel --will-cite " + args, env + "\"$B\" par " + args);
            assertThat(runs[1].stdout()).as(args).isEqualTo(runs[0].stdout()).isNotEmpty();
            assertThat(runs[1].status()).isEqualTo(runs[0].status());
        }
    }

    /** {@code --version}: brisk's own, with GNU parallel's status. */
    @Test
    void versionIsBrisks() throws Exception {
        Out[] runs = both("parallel --will-cite --version", "\"$B\" par --version");
        assertThat(runs[1].stdout()).startsWith("brisk ").contains("\nbuilt from git revision ");
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isZero();
    }

    /** An option neither knows: GNU's status, and one line that names it. */
    @Test
    void unknownOptionsAreNamed() throws Exception {
        Out[] runs = both("parallel --will-cite --no-such-option echo ::: a", "\"$B\" par --no-such-option echo ::: a");
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isEqualTo(255);
        assertThat(runs[1].stderr()).isEqualTo("brisk par: Unknown option: '--no-such-option'\n");
        assertThat(runs[1].stdout()).isEmpty();
    }
}
