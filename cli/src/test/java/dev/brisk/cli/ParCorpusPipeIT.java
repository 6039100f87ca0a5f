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
 * The {@code --pipe} family's differences that GNU parallel's own test scripts showed
 * (bench/parallel-suite.sh, docs/PAR.md "GNU parallel's test scripts as a corpus"): each command
 * line run by GNU parallel 20221122 and by {@code brisk par}, with the same stdout, stderr and
 * status ({@link GnuRuns#assertSame}).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ParCorpusPipeIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void inputs() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 1000; i++) {
            lines.append(i).append('\n');
        }
        Files.writeString(dir.resolve("thousand"), lines);
        Files.writeString(dir.resolve("ab"), "x\ny\n");
        Files.writeString(dir.resolve("records"), "Garbage\nA2, Start, 5\nA2, 00100, 5\nA2, 00200, 6\nA2, Start, 7\n"
                + "A2, 00100, 7\nA2, Start, 7\nA2, 00200, 8\n");
        StringBuilder headed = new StringBuilder("h1\nh2\n");
        for (int i = 1; i <= 22; i++) {
            headed.append(i).append("x".repeat(110)).append('\n');
        }
        Files.writeString(dir.resolve("headed"), headed);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // --pipepart's negative --block -N: N parts per job slot of all the files (default -10,
        // -1 with --round-robin); a :::: file is cut as an -a file
        "-j2 -a thousand --pipepart --block -0.01k -k md5sum",
        "-j2 -k --pipepart echo {#} :::: thousand",
        "-j2 -k --block -2 --pipepart 'echo {#}; wc -l' :::: thousand",
        "-j2 --pipepart -a thousand --block 14 --round-robin -k wc",
        // --round-robin -k: GNU's blocking writes give block K to job K mod -j, however slow a job
        "-j3 -k --round-robin --pipe --block 500 'if [ {#} = 1 ]; then sleep 0.2; fi; echo {#}; wc' < thousand",
        // --round-robin: past --skip-first-line's line, the header before each job's first block only
        "-j3 -k --round-robin --pipe --block 500 --header 2 --skip-first-line 'echo {#}; cat' < thousand",
        // --pipepart --header: the header (after --skip-first-line's line) before every part, the
        // parts cut from what follows it; several files' parts one file's after another's, ::: unread
        "-k --skip-first-line --pipepart -a headed --block 300 --header 1 'echo J; cat'",
        "-k --pipepart -a headed --block 500 --header : 'echo J; wc -c'",
        "-k --pipepart --block 400 --header 'h1\\n' 'echo {}; cat' :::: headed ::: a b :::: ab",
        // --tee: every job at once without -j; without a command each value is the command
        "-k --tee --pipe --tag 'echo {%}; wc -l' ::: 1 2 3 ::: a b < thousand",
        "-k --pipe --tee ::: 'wc -l' md5sum < thousand",
        "--pipepart --tee -a thousand -k 'echo {}; wc -l' ::: a b",
        // -v: the command is the job's first output line, tagged; with --files the file's
        "-v --pipe --tagstring foo cat < ab",
        "-v --tag -k echo ::: 1 2",
        "-v --pipe --files cat < ab | xargs cat",
        "--tmpdir . -j10 --pipe --block 1k --files wc < thousand | sed 's/par.*/par/'",
        // --regexp --recstart: a record's own start ends nothing
        "--pipe --regexp -k --recstart '.*, Start' -N1 'echo Record;cat' < records",
        "--pipe --regexp -k --recstart '.*, Start' -N2 'echo Record;cat' < records",
        // --header: the header before every block
        "-j1 --pipe -N2 -k --header '.*\\n.*\\n' echo Start\\;cat \\; echo Stop < records",
        "-j1 --pipe -k --block 1k --header 2 echo Start\\;cat \\; echo Stop < headed",
        // input sources under --pipe: the jobs' arguments; the blocks still from stdin
        "--pipe -a ab -k 'echo {}; cat' < thousand",
        "--pipe --block 2k -k 'echo {1}-{2}; wc -l' ::: a b ::: c < thousand",
        // --skip-first-line under --pipe: stdin's first line and the first source's first item
        "--pipe --skip-first-line -k -a ab 'echo {}; cat' ::: q r < ab",
        "-j2 --tee --pipe --skip-first-line -k 'echo {}; cat' ::: a b c < ab",
        // with -N N a block's job gets the next N tuples, fewer where they end, then one empty value
        "--pipe -L100 -N3 -k 'echo {} && wc -l' ::: a b c d e f g < thousand",
        "--pipe -N400 -k -v 'echo {1}-{2}-{3} && wc -l' ::: a b c ::: x y < thousand",
        "--pipe -N400 -k --header 2 'echo {1} && wc -l' ::: a b c < thousand",
    })
    void matchesGnuParallel(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }

    /** {@code --files}' files hold what GNU's hold: with {@code -v}, the command first. */
    @Test
    void filesHoldTheVerboseLine() throws Exception {
        String script = "seq 3 | P -v --pipe --tagstring foo --files cat | cut -f2 | xargs cat; P -v --files echo ::: a | xargs cat";
        Out[] runs = GnuRuns.both(dir, brisk, script.replace("P ", "parallel --will-cite "), script.replace("P ", "\"$B\" par "));
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout()).isEqualTo("cat\n1\n2\n3\necho a\na\n");
        assertThat(runs[1].status()).isEqualTo(runs[0].status());
    }
}
