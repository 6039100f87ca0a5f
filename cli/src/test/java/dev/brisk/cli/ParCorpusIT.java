// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.io.IOException;
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
 * Differences that GNU parallel's own test scripts showed (bench/parallel-suite.sh, docs/PAR.md
 * "GNU parallel's test scripts as a corpus"): each command line run by GNU parallel 20221122 and
 * by {@code brisk par}, with the same stdout, stderr (GNU's {@code parallel: Error:} read as
 * {@code brisk par:}, its messages about jobs' {@code parallel:} as {@code brisk:}) and status.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ParCorpusIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void inputs() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 3000; i++) {
            lines.append(i).append('\n');
        }
        Files.writeString(dir.resolve("three-thousand"), lines);
        Files.writeString(dir.resolve("four-values"), "1\n0\n2\n3\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // --nonall and --onall without -S run on this machine (:), as GNU's do
        "-q --nonall perl -le 'print scalar @ARGV' a b ''",
        "--nonall --tag echo hi",
        "--nonall 'exit 3'",
        "-k --onall --tag echo ::: a b",
        // time units: --delay and --timeout take d h m s; --timeout's check in GNU's words
        "-k --delay 0.1s echo ::: a b",
        "--delay 0.01m echo ::: c",
        "--timeout 1m echo ::: t",
        "-k --timeout 1h2m3s echo ::: t",
        "--timeout 1x echo ::: t",
        "--timeout 5%x echo ::: t",
        // -N and -n take GNU's k, M... suffixes
        "-k -N 1k 'echo {} | wc -w' < three-thousand",
        "-k -n 2k 'echo {} | wc -w' < three-thousand",
        "-k -N 1K -j1 echo {1} {1024} < three-thousand",
        // --load: N% of the cores, +N, -N (here so high that no job waits)
        "-k --load 100000% echo ::: a b",
        "-k --load +1000 echo ::: a",
        // --halt: GNU's short forms and its messages for a bad value
        "--halt error echo ::: x",
        "--halt soon echo ::: x",
        "--halt now echo ::: x",
        "--halt now,fail echo ::: x",
        "--halt now,fail=x echo ::: x",
        "--halt soon,done=y% echo ::: x",
    })
    void matchesGnuParallel(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }

    /**
     * {@code --halt}'s messages and statuses as GNU's (prefixed {@code brisk:}): every job that
     * counts towards the halt is named, not only the one that halts; the number of jobs waited
     * for; with a count above one the status is the number of failed jobs; {@code -2}
     * (now,success=1) and {@code -1} (soon,success=1).
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "-j1 -k --halt -2 'echo {}; exit {}' ::: 1 0 1",
        "-j1 -k --halt -1 echo ::: a b",
        "-j1 --halt soon,fail=2 'echo {#}; exit {}' ::: 0 1 0 2 0 3",
        "-j1 --halt now,fail=2 'echo {#}; exit {}' ::: 0 1 0 2 0 3",
        "-j1 --halt soon,success=2 'echo {#}; exit {}' ::: 0 1 0 2 0 3",
        "-j1 --halt soon,done=3 'echo {#}; exit {}' ::: 3 1 0 2 0 3",
        "-j2 --halt soon,fail=1 'sleep {}; exit 1' ::: 0.1 2",
        "-j1 --halt now,fail=1 'echo {#}; exit {}' ::: 0 4 0",
        // a percentage is a share of all the jobs (the input read first), its status the share that failed
        "-j1 --halt soon,fail=20% 'echo {}; exit {}' ::: 0 1 2 3 4 5 6 7 8 9",
        "-j1 --halt now,fail=30% 'echo {}; exit {}' ::: 0 1 0 2 0 0 3 4",
        "-j1 --halt soon,done=50% 'echo {}; exit {}' ::: 0 1 0 2",
        "-j1 --halt soon,success=50% 'echo {}; exit {}' ::: 0 1 0 2",
        "-j1 --halt 25% 'echo {}; exit {}' < four-values",
        // a job waiting for its --delay when the run halts soon is not started
        "--delay 1 -j2 --halt soon,fail=1 'sleep 0.{}; echo {}; exit {}' ::: 0 1 2 3",
    })
    void haltSaysWhatGnuSays(String args) throws Exception {
        Out[] runs = GnuRuns.both(dir, brisk, "parallel --will-cite " + args, "\"$B\" par " + args);
        assertThat(runs[1].stdout()).as(args).isEqualTo(runs[0].stdout());
        assertThat(runs[1].stderr()).as(args).isEqualTo(runs[0].stderr().replace("parallel: ", "brisk: "))
                .contains("This job ");
        assertThat(runs[1].status()).as(args).isEqualTo(runs[0].status());
    }

    /** A command with newlines is one line of the joblog, its newlines written as NUL bytes (as GNU's), and read back so by --resume-failed. */
    @Test
    void joblogCommandWithNewlines() throws Exception {
        String script = "rm -f L; P --joblog L 'echo {}\nexit {}' ::: 0 1; P --resume-failed --joblog L 'echo {}\nexit {}' ::: 0 1 2; "
                + "cut -f 1,7,8,9 L | tr '\\0' @";
        Out[] runs = GnuRuns.both(dir, brisk, script.replace("P ", "parallel --will-cite -k ").replaceAll("\\bL\\b", "gN"),
                script.replace("P ", "\"$B\" par -k ").replaceAll("\\bL\\b", "bN"));
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout()).contains("\techo 1@exit 1\n");
        assertThat(runs[1].status()).isEqualTo(runs[0].status());
    }

    /** {@code --joblog +FILE} appends to FILE without a second header, as GNU's does (and makes FILE if need be). */
    @Test
    void joblogPlusAppends() throws Exception {
        String script = "rm -f L M; P --joblog L echo ::: 1; P --joblog +L echo ::: 2; P --joblog +M echo ::: 3; "
                + "cut -f 1,7,8,9 L M; echo $?";
        Out[] runs = GnuRuns.both(dir, brisk, script.replace("P ", "parallel --will-cite ").replaceAll("\\b([LM])\\b", "g$1"),
                script.replace("P ", "\"$B\" par ").replaceAll("\\b([LM])\\b", "b$1"));
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout());
        assertThat(runs[1].stdout()).isEqualTo("1\n2\n3\nSeq\tExitval\tSignal\tCommand\n1\t0\t0\techo 1\n1\t0\t0\techo 2\n"
                + "1\t0\t0\techo 3\n0\n");
        assertThat(runs[1].stderr()).isEqualTo(runs[0].stderr()).isEmpty();
    }

    /**
     * {@code --files} and {@code --cat} keep their files in {@code --tmpdir}'s directory, as GNU's
     * do (the tutorial's {@code parallel --tmpdir /var/tmp --files echo ::: A B C}); brisk used
     * {@code $TMPDIR} there.
     */
    @Test
    void filesGoToTmpdir() throws Exception {
        String script = "rm -rf T; mkdir T; P -k --tmpdir T --files echo ::: A B | xargs cat; ls T | wc -l; "
                + "echo x | P --pipe --tmpdir T --cat 'dirname {}'";
        Out[] runs = GnuRuns.both(dir, brisk, script.replace("P ", "parallel --will-cite ").replaceAll("\\bT\\b", "gT"),
                script.replace("P ", "\"$B\" par ").replaceAll("\\bT\\b", "bT"));
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout().replace("gT", "bT")).isEqualTo("A\nB\n2\nbT\n");
        assertThat(runs[1].stderr()).isEqualTo(runs[0].stderr()).isEmpty();
        assertThat(runs[1].status()).isEqualTo(runs[0].status());
    }

    /**
     * {@code --timeout P%}: P% of the median runtime of the jobs that succeeded so far, from the
     * first that ends, held against the jobs already running (the tutorial's
     * {@code --timeout 200%} example: brisk waited for three jobs and let the long one run).
     */
    @Test
    void timeoutPercentFollowsTheMedian() throws Exception {
        String args = "-k -j2 --timeout 200% 'sleep {}; echo {}' ::: 0.3 0.4 0.4 3 0.4";
        Out[] runs = GnuRuns.both(dir, brisk, "parallel --will-cite " + args, "\"$B\" par " + args);
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout()).isEqualTo("0.3\n0.4\n0.4\n0.4\n");
        assertThat(runs[1].stderr()).isEqualTo(runs[0].stderr().replace("parallel: ", "brisk: ")).contains("timed out");
        assertThat(runs[1].status()).isEqualTo(runs[0].status());
    }

    /**
     * {@code --results DIR} names a value's directory by {@code --header}'s name for its column,
     * or by the input file's name where GNU's table of names by number has one (GNU's
     * {@code par_result}: {@code testB/a/I/b/III}, where brisk made {@code testB/1/I/2/III}), the
     * levels in the order of their names (numerically, then as text), as GNU sorts them.
     */
    @Test
    void resultsDirectoriesTakeTheHeadersNames() throws Exception {
        String script = "printf 'x,y\\n1,2\\n' > hc.csv; for a in \"--header : -k --results R echo {1} {2} ::: a I II ::: b III\" "
                + "\"--header : --colsep , --results R echo {x} :::: hc.csv\" \"--header 0 --results R echo {1} :::: hc.csv\" "
                + "\"--header : --results R echo {a} {b} ::: b III ::: a I\"; do "
                + "rm -rf R; eval \"P $a\"; (cd R && find . | LC_ALL=C sort); done";
        Out[] runs = GnuRuns.both(dir, brisk, script.replace("P ", "parallel --will-cite ").replace(" R", " gR").replace("hc.csv", "g.csv"),
                script.replace("P ", "\"$B\" par ").replace(" R", " bR").replace("hc.csv", "b.csv"));
        assertThat(runs[1].stdout().replace("b.csv", "X")).isEqualTo(runs[0].stdout().replace("g.csv", "X"))
                .contains("./a/I/b/III/stdout\n").contains("./X/1/y/2/seq\n");
        assertThat(runs[1].stderr()).isEqualTo(runs[0].stderr());
        assertThat(runs[1].status()).isEqualTo(runs[0].status());
    }
}
