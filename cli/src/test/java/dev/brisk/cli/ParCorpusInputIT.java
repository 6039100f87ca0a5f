// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Input sources, separators and counting as GNU parallel's own test scripts showed them
 * (bench/parallel-suite.sh, docs/PAR.md "GNU parallel's test scripts as a corpus"): each command
 * line run by GNU parallel 20221122 and by {@code brisk par}, with the same stdout, stderr (GNU's
 * {@code parallel:} read as {@code brisk par:}) and status.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ParCorpusInputIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void launcher() throws Exception {
        brisk = BriskProcess.launcher(dir, "rwx------");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // ::: values are read back at -d's delimiter (GNU writes them to a file, each ended by it)
        "-k -d ' ' echo ::: '1 done'",
        "-k -d : echo ::: a:b:c d ::: x:",
        "-k echo X{}X ::: 'a\nb' c",
        // -d of several bytes, with GNU's \n and octal
        "-k -d '\\n\\n' echo x{}x ::: 'a\n\nb\nc'",
        "-k -j1 -d '\\n\\n' echo x{}x :::: <(seq 3; echo; seq 4)",
        "-k -d '\\101\\n' echo ::: 'xA\nyAzA\n'",
        // a source without items gives one empty value, unless every source is empty
        "-k echo :::: /dev/null ::: a b",
        "-k -E 3 echo ::: 1 2 3 4 ::: 3 4 ::: 7 8",
        "-k -E 3 echo ::: 3 4 ::: 3 4",
        // a NUL in an argument: GNU's three warnings and \0 in its place
        "-k 'printf \"%s.\"' :::: <(printf 'a\\0b\\nc\\n')",
        // {##} and total_jobs(): -N's jobs, $Global::JobQueue->total_jobs()
        "-k -N7 --plus echo {#} {##} ::: {1..15}",
        "-k 'echo {= $::G++ > 2 and ($_=$Global::JobQueue->total_jobs());=}' ::: {1..5}",
        // a Perl expression runs once per job, in the jobs' order, however many slots take them
        "-k -j8 'echo {= $_ = ++$::G =}' ::: {1..300}",
        "-k -j3 'echo {= $_ = ++$::G =} | cat' ::: {1..300}",
        // exit in a Perl expression: GNU parallel exits at once with its status, the running jobs unprinted
        "-j1 'echo {= $_==2 and exit 3 =}' ::: 1 2 3",
        "-j2 -k 'sleep 0.{}; echo {= $_==1 and exit =}' ::: 3 1 2",
        // ... and when the job is taken ahead, behind a running one (a short composed job): at its turn
        "-j1 'echo {= $_==50 and exit 3 =} | cat' ::: {1..100}",
    })
    void matchesGnuParallel(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }

    /**
     * {@code --retry-failed}: GNU's warning when a failed logged command holds a newline; with a
     * log it cannot open ({@code --joblog -}, the log on stdout) it runs the input.
     */
    @Test
    void retryFailedOfCommandsWithNewlines() throws Exception {
        String script = "rm -f L; P -j1 --joblog L 'echo {}\nexit {}' ::: 0 1 2 2>&1; P -j1 --retry-failed --joblog L 'echo {}\nexit {}' ::: 0 1 2 2>&1;"
                + " P -j1 --retry-failed --joblog - 'echo {}\nexit {}' ::: 3 4 | cut -f 7-; echo $?";
        Out[] runs = withLog(script, "R");
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout().replace("parallel: ", "brisk par: "))
                .contains("Forcing --null.");
        assertThat(runs[1].status()).isEqualTo(runs[0].status());
    }

    /** {@code $Global::total_completed}: the jobs done so far, those a resumed job log holds included. */
    @Test
    void totalCompletedCountsTheResumedLog() throws Exception {
        String script = "rm -f L; P -j1 --joblog L --halt now,fail=1 echo '{= $_=$Global::total_completed =};exit {}' ::: 0 0 1 0 0;"
                + " P -j1 --joblog L --resume echo '{= $_=$Global::total_completed =};exit {}' ::: 0 0 1 0 0; echo $?";
        Out[] runs = withLog(script, "L");
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout()).isEqualTo("0\n1\n2\n3\n4\n0\n");
        assertThat(runs[1].stderr()).isEqualTo(runs[0].stderr().replace("parallel: ", "brisk: "));
    }

    /** {@code script} run with P as GNU parallel, then as brisk par, and L naming a log of each: g{@code name}, b{@code name}. */
    private static Out[] withLog(String script, String name) throws Exception {
        return GnuRuns.both(dir, brisk, script.replace("P ", "parallel --will-cite ").replaceAll("\\bL\\b", "g" + name),
                script.replace("P ", "\"$B\" par ").replaceAll("\\bL\\b", "b" + name));
    }
}
