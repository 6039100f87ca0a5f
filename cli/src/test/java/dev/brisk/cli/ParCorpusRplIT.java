// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Replacement strings, command-line lengths and message formats where GNU parallel's own test
 * scripts showed a difference (bench/parallel-suite.sh, docs/PAR.md "GNU parallel's test scripts
 * as a corpus"): each command line run by GNU parallel 20221122 and by {@code brisk par}, with
 * the same stdout, stderr (GNU's {@code parallel: Error:} read as {@code brisk par:}) and status.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ParCorpusRplIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void inputs() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        StringBuilder lines = new StringBuilder();
        StringBuilder gifs = new StringBuilder();
        for (int i = 1; i <= 10000; i++) {
            lines.append(i).append('\n');
            gifs.append(i).append(".gif\n");
            if (i == 3000) {
                Files.writeString(dir.resolve("three-thousand"), lines);
            }
        }
        Files.writeString(dir.resolve("ten-thousand"), lines);
        Files.writeString(dir.resolve("gifs"), gifs);
        Files.writeString(dir.resolve("tmpl"), "All:{} Arg[-1]:{-1} Perl:{=$_+=4=} Job:{#}\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // GNU's limits: its measure of the longest command (130329) and its usable length (63664)
        "--max-line-length-allowed",
        "-k --show-limits echo {}ar ::: b c f",
        "-j1 -kX --show-limits -s 100 echo {}ar ::: b c f",
        // -X packs up to GNU's usable length: the same jobs
        "-Xj1 'echo {} {} {} {} {} {} {} {} {} {} {} {} {} {} | wc' < three-thousand",
        "-j1 -I '<>' -X echo 'a<>b<>c<>' < ten-thousand | wc",
        "-j1 -kX echo a{}b{.}c{.}{.}{} < gifs | wc",
        "-j1 -km echo {} {} < ten-thousand | wc",
        // a command too long stops the run after the jobs before it have run and printed
        "-j1 -s 30 -k --seqreplace I echo IIIIIIIIII \\|wc < three-thousand",
        // --results -.json: the start time with three decimals, as GNU's (digits read as 0)
        "-k --results -.json echo ::: 1 2 3 4 5 6 7 8 9 10 11 12 | tr 0-9 0",
        // --tmpl: a replacement string's several values (and -X's copies) joined with nothing
        "-k -j1 --cleanup --tmpl tmpl=t.{#} 'cat t.{#}' ::: 1 2 ::: a b",
        "-k -j1 --colsep , --cleanup --tmpl tmpl=t.{#} 'cat t.{#}' ::: 1,a 2,b",
        "-k -j1 -X --cleanup --tmpl tmpl=t.{#} 'cat t.{#}' ::: 1 2 3",
        // GNU's own Perl helpers in expressions: ::shell_quote and File::Basename's ::dirname...
        "--rpl '{+.} s:.*\\.::' --rpl '%' --rpl '%D $_=::shell_quote(::dirname($_));' --rpl '%B s:.*/::;s:\\.[^/.]+$::;'"
            + " --rpl '%E s:.*\\.::' 'echo {}=%;echo %D={//};echo %B={/.};echo %E={+.};echo %D/%B.%E={}' ::: a.b/c.d/e.f",
        "-k echo '{= $_=::basename($_) =}' '{= $_=join(\",\", ::shell_quote(\"a b\", $_)) =}' '{= $_=::shell_quote($_, \"x y\") =}'"
            + " '{= my @p=::fileparse($_, qr/\\.[^.]*/); $_=\"@p\" =}' ::: /x/y.z",
    })
    void matchesGnuParallel(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }

    /** {@code --retries} with replacement strings: each job's own number of tries (every try appends to a file of its own run). */
    @ParameterizedTest
    @ValueSource(strings = {
        "--retries {//} 'echo {/} >>$t; exit {/}' ::: 1/11 2/22 3/33",
        "-k --retries {2} 'echo {} >>$t; exit 1' ::: a b ::: 1 2",
        "--retries '{= $_ = $_ * 2 =}' 'echo {} >>$t; exit 1' ::: 1 2",
        "-k --retries {} 'echo x{} >>$t; exit 1' ::: 2 3x ' 2'",
    })
    void retriesPerJob(String args) throws Exception {
        String run = "t=$(mktemp -p .); %s " + args.replace("$t", "'\"$t\"'") + "; sort \"$t\"; rm \"$t\"";
        Out[] runs = GnuRuns.both(dir, brisk, run.formatted("parallel --will-cite"), run.formatted("\"$B\" par"));
        assertThat(runs[1]).as(args).isEqualTo(runs[0]);
        assertThat(runs[1].stdout()).as(args).contains("\n");
    }
}
