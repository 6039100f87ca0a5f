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
 * The rest of GNU parallel 20221122's {@code --pipe} family and its input options:
 * {@code --rrs}, {@code --block-timeout}, {@code --round-robin}, {@code --tee}, {@code --shard},
 * {@code --bin}, {@code --group-by}, {@code --csv}, {@code --filter}, and {@code --pipe} under
 * {@code --line-buffer} and {@code -u}: each command line run by GNU parallel and by
 * {@code brisk par}, with the same stdout, stderr (GNU's {@code parallel: Error: } and
 * {@code parallel: Warning: } read as brisk's) and status. Where GNU parallel's split differs
 * from run to run ({@code --round-robin}'s blocks, {@code --shard}'s hash) the command line
 * prints what does not: totals, the number of jobs, whether a key went to two jobs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParPipe2IT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void inputs() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 100_000; i++) {
            lines.append(i).append('\n');
        }
        Files.writeString(dir.resolve("hundredk"), lines);
        Files.writeString(dir.resolve("thirty"), lines.substring(0, lines.indexOf("\n31\n") + 1));
        Files.writeString(dir.resolve("three"), "1\n2\n3\n");
        Files.writeString(dir.resolve("abc"), "a\nb\nc\n");
        Files.writeString(dir.resolve("xrec"), "Xa\nXb\nXc\n");
        Files.writeString(dir.resolve("semis"), "a;b;c;dd;eee;f");
        Files.writeString(dir.resolve("numbered"), "a1Xb22Xc333Xd");
        Files.writeString(dir.resolve("keyed"), "1,a\n2,b\n3,c\n4,d\n5,e\n1,f\n");
        Files.writeString(dir.resolve("headed"), "k,v\n1,a\n2,b\n3,c\n4,d\n5,e\n1,f\n");
        Files.writeString(dir.resolve("groups"), "1 a\n1 b\n2 c\n3 d\n3 e\n1 f\n");
        Files.writeString(dir.resolve("tabbed"), "a\tx\na\ty\nb\tz\n");
        Files.writeString(dir.resolve("named"), "k v\n1 a\n1 b\n2 c\n");
        Files.writeString(dir.resolve("odd"), "1 a\n3 b\n2 c\n4 d\n");
        Files.writeString(dir.resolve("quoted.csv"), "a,\"b,c\",d\n\"e \"\"q\"\"\",f,\"g\nh\"\n,,\n\nlast,\"\"\n");
        Files.writeString(dir.resolve("semi.csv"), "a;\"b;c\"\n x ; y \n");
        Files.writeString(dir.resolve("spaced.csv"), "a, b ,c\n");
        Files.writeString(dir.resolve("bad.csv"), "a\"b,c\n");
        Files.writeString(dir.resolve("open.csv"), "x,\"1\n2\"\ny,\"3\"\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // --rrs
        "--pipe --rrs --block 4 -k 'echo [; cat; echo ]' < abc",
        "--pipe --rrs -N1 -k 'echo [; cat; echo ]' < abc",
        "--pipe --recstart X --rrs -N1 -k 'echo [; cat; echo ]' < xrec",
        "--pipe --recstart X --remove-rec-sep --block 4 -k 'echo [; cat; echo ]' < xrec",
        "--pipe --recend ';' --removerecsep -N2 -k 'echo [; cat; echo' < semis",
        "--pipe --regexp --recend '[0-9]+X' --rrs -N1 -k 'echo [; cat; echo' < numbered",
        // --block-timeout
        "--pipe --block-timeout 1m -k wc -l < thirty",
        "--pipe --blocktimeout 0.5 -k wc -l < thirty",
        // --round-robin: block counts and order vary from run to run, totals do not
        "--pipe --round-robin -j3 --block 10k 'wc -l' < hundredk | awk '{s+=$1; n++} END {print s, n}'",
        "--pipe --roundrobin -j2 -N 100 --block 10k 'wc -l' < hundredk | awk '{s+=$1; n++} END {print s, n}'",
        "--pipe --round -j4 -N1 -k 'echo x{#}[{}]; wc -l' < three",
        "--pipe --round-robin -j3 -k 'wc -l' < thirty",
        "--round-robin -j2 -k echo ::: a b c",
        "--pipe --round-robin --retries 2 cat < thirty",
        // --tee
        "--pipe --tee -j2 -k 'echo x{}; wc -l' ::: a b < thirty",
        "--pipe --tee -j3 -k 'grep -c {}' ::: 1 2 3 < hundredk",
        "--pipe --tee -j3 -k 'head -1' ::: 1 2 3 < hundredk",
        "--pipe --tee -j1 echo ::: a b < thirty",
        // --bin: value modulo jobs
        "--pipe --bin 1 -j3 --colsep , -k 'echo job {#}; cat' < keyed",
        "--pipe --bin '1 $_*=2' -j3 --colsep , -k 'echo [; cat' < keyed",
        "--pipe --bin 2 -j3 -k 'echo [; cat' < keyed",
        "--pipe --bin 1 -j3 -k 'echo [; cat' < keyed",
        "--pipe --bin k --colsep , -j2 -k 'echo [; cat' < headed",
        "--bin 1 -j2 echo ::: a b c",
        // --shard: the hash differs (GNU's changes from run to run), so no key goes to two jobs, and all lines come
        "--pipe --shard 1 -j3 --colsep , 'cut -d, -f1 | sort -u' < keyed | sort | uniq -d | wc -l",
        "--pipe --shard 1 -j3 --colsep , cat < keyed | sort",
        "--pipe --shard 'k $_*=3' -j2 --colsep , cat < headed | sort",
        "--pipe --shard 1 -j4 'cut -d, -f1 | sort -u' < hundredk | sort -n | uniq -d | wc -l",
        // --group-by
        "--pipe --group-by 1 --colsep ' ' -k -N1 'echo [; cat; echo ]' < groups",
        "--pipe --groupby 1 -k 'echo [; cat; echo ]' < tabbed",
        "--pipe --header : --colsep ' ' --group-by k -k -N1 'echo [; cat; echo ]' < named",
        "--pipe --colsep ' ' --group-by '1 $_%=2' -k -N1 'echo [; cat; echo ]' < odd",
        "--pipe --colsep ' ' --group-by 2 -k -N1 'echo [; cat; echo ]' < groups",
        // --csv
        "--csv -k 'echo [{1}][{2}][{3}]' < quoted.csv",
        "--csv --colsep ';' -k 'echo [{1}][{2}]' < semi.csv",
        "--csv -k 'echo [{1}][{2}][{3}]' < spaced.csv",
        "--csv --colsep ';;' -k 'echo [{1}][{2}]' < semi.csv",
        "--csv -k echo {2} :::: open.csv ::: A B",
        "--csv -a quoted.csv -k echo {2}",
        "--pipe --csv --block 3 -k 'echo [; cat; echo ]' < open.csv",
        // --filter
        "-k --filter '{1} < {2}+1' echo {#} {1} {2} ::: 1 2 3 ::: 1 2 3",
        "-k --filter '{} =~ /b/' echo {#} ::: a b c ab",
        "-k --filter '\"{}\" =~ /b/' echo {#} ::: a b c ab",
        "--filter '\"{}\" =~ /b/' --joblog jl -k echo ::: a b; cut -f 1,7- jl",
        "--dry-run --filter '{} > 1' echo ::: 1 2 3",
        "-k --filter '{= $_ = 1 =}' --filter '{} > 1' echo ::: 1 2 3",
        "-k --filter 'die' echo ::: 1",
        // --pipe's stdin under --line-buffer and -u: a pipe
        "--pipe --lb -j1 -N1 -k 'test -p /dev/stdin && echo pipe; cat' < three",
        "--pipe -u -j1 -N1 'test -p /dev/stdin && echo pipe; cat' < three",
        "--pipe --line-buffer -j2 --block 100k 'wc -l' < hundredk | sort -n",
    })
    void matchesGnuParallel(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }

    /**
     * Bad input that GNU parallel answers with Perl's own words (its {@code die}, and a status
     * of Perl's {@code errno}, or the header's names in a hash's random order): brisk's answer is
     * one line and status 255.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "--csv echo < bad.csv|brisk par: CSV has unexpected format: ^a\"b,c^",
        "--pipe --shard v -j2 --colsep , cat < headed|brisk par: Column 'v' , not found in header",
        "--pipe --group-by x -j2 cat < tabbed|brisk par: Column 'x' \t not found in header",
    })
    void refusesBadInputInOneLine(String caseText) throws Exception {
        String args = caseText.substring(0, caseText.indexOf('|'));
        String message = caseText.substring(caseText.indexOf('|') + 1);
        Out[] runs = GnuRuns.both(dir, brisk, "parallel --will-cite " + args + " 2>/dev/null", "\"$B\" par " + args);
        assertThat(runs[0].status()).as("GNU's status of %s", args).isNotZero();
        assertThat(runs[1].stderr()).as("stderr of %s", args).isEqualTo(message + "\n");
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout());
        assertThat(runs[1].status()).isEqualTo(255);
    }

    /**
     * {@code --bt 1}: the first line goes as a block of its own after a second, and the second
     * line is written only once that block's job has run (so a slow start, such as a JVM's of
     * its own under load, cannot make one block of both).
     */
    @Test
    void aBlockTimeoutPassesTheLinesThatCameInTime() throws Exception {
        String setup = "f=$(mktemp -u -p .); export f; ";
        String args = " --pipe --bt 1 -k 'echo [; cat; echo ]; touch \"$f\"'"
                + " < <(echo a; until [ -e \"$f\" ]; do sleep 0.1; done; echo b); rm -f \"$f\"";
        Out[] runs = GnuRuns.both(dir, brisk, setup + "parallel --will-cite" + args, setup + "\"$B\" par" + args);
        assertThat(runs[0].stdout()).isEqualTo("[\na\n]\n[\nb\n]\n");
        assertThat(runs[1].stdout()).as("stderr: %s", runs[1].stderr()).isEqualTo(runs[0].stdout());
        assertThat(runs[1].stderr()).isEqualTo(runs[0].stderr()).isEmpty();
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isZero();
    }

    /**
     * A round-robin job that ends without reading all of its share leaves the rest to the
     * others, and the run ends with status 0: here the first job prints 5 lines and the two
     * others a count each. (GNU parallel itself dies of the SIGPIPE there, status 141.)
     */
    @Test
    void roundRobinGoesOnWhenAJobStopsReading() throws Exception {
        String args = "--pipe --round-robin -j3 --block 10k 'if [ $PARALLEL_SEQ = 1 ]; then head -c 10; else wc -l; fi' < hundredk";
        Out ours = GnuRuns.both(dir, brisk, "true", "\"$B\" par " + args)[1];
        assertThat(ours.stdout().lines().count()).as("stdout %s, stderr %s", ours.stdout(), ours.stderr()).isEqualTo(7);
        assertThat(ours.stdout()).contains("1\n2\n3\n4\n5\n");
        assertThat(ours.status()).isZero();
    }
}
