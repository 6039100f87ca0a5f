// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

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
        "-j1 -kX echo a{}b < gifs | wc",
        "-j1 -km echo {} {} < ten-thousand | wc",
        // a command too long stops the run after the jobs before it have run and printed
        "-j1 -s 30 -k --seqreplace I echo IIIIIIIIII \\|wc < three-thousand",
        // --results -.json: the start time with three decimals, as GNU's (digits read as 0)
        "-k --results -.json echo ::: 1 2 3 4 5 6 7 8 9 10 11 12 | tr 0-9 0",
    })
    void matchesGnuParallel(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }
}
