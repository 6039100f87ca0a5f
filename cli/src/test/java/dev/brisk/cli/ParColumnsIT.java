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
 * GNU parallel's columns and sources ({@code --colsep}/{@code -C}, {@code --trim},
 * {@code --header}, {@code --tagstring}, {@code --link}/{@code --xapply}, {@code -a} with
 * {@code :::}): each command line run by GNU parallel 20221122 ({@code parallel --will-cite})
 * and by {@code brisk par}, with the same stdout, stderr (GNU's {@code parallel: Error:} read as
 * {@code brisk par:}) and status.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParColumnsIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void inputs() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        Files.writeString(dir.resolve("tabs"), "a b\tc d\n  e  f\n\n");
        Files.writeString(dir.resolve("people"), "name\tage\r\nann\t3\nbob\t4\n");
        Files.writeString(dir.resolve("csv"), "x,y\n1,2\n3,4\n");
        Files.writeString(dir.resolve("fa"), "f1\nf2\n");
        Files.writeString(dir.resolve("ga"), "g1\ng2\ng3\n");
        Files.write(dir.resolve("nul"), "p\0q r\0s\0".getBytes(StandardCharsets.US_ASCII));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // --colsep: Perl's split (trailing empty columns kept, groups kept, a leading empty one), then --trim lr
        "-k --colsep '\\t' echo '[{1}]' '[{2}]' '[{3}]' :::: tabs",
        "-k --colsep ' ' echo '[{1}]' '[{2}]' '[{3}]' '[{4}]' ::: '  a  b'",
        "-k --colsep , echo '[{1}]' '[{2}]' '[{3}]' '[{4}]' '[{5}]' ::: 'a,b,,'",
        "-k --colsep '(\\d)' echo '[{1}]' '[{2}]' '[{3}]' '[{4}]' '[{5}]' ::: a1b2c",
        "-k --colsep '' echo '[{1}]' '[{2}]' '[{3}]' '[{4}]' ::: abc",
        "-k --colsep '\\s+' echo '[{2}]' ::: 'a   b' 'c\td'",
        "-k --colsep '[,;]' echo '[{1}]' '[{2}]' '[{3}]' ::: 'a,b;c'",
        "-k --colsep 'é' echo '[{1}]' '[{2}]' ::: 'aéb'",
        "-k -C , echo '[{1}]' '[{2}]' '[{3}]' '[{4}]' '[{}]' ::: a,b c ::: 1,2 3",
        "-k --colsep , echo '[{1}]' '[{2}]' < csv",
        "-k --colsep , echo '{-1}' '{-2}' ::: a,b,c d,e",
        "-k --colsep ' ' ::: 'echo a' 'echo b  c'",
        "-k --colsep , -E b echo ::: a,1 b,2 c,3",
        "-k --colsep , -r echo '[{1}]' ::: a,1 '' ' ' c,3",
        "-k --colsep , -X -j1 echo '[{}]' ::: a,b c,d",
        "-k --colsep , -m -j1 echo '[{}]' ::: a,b c,d",
        "-k --colsep , -X -j1 --tag echo ::: a,b c,d",
        "-k --colsep , --tag echo {2} ::: a,b c,d",
        "-k --colsep , --dry-run echo {1} {2} ::: 'a b,c'",
        // --trim
        "-k --colsep , --trim n echo '[{1}]' '[{2}]' '[{}]' ::: ' x , y '",
        "-k --colsep , echo '[{1}]' '[{2}]' '[{}]' ::: ' x , y '",
        "-k --colsep , --trim l echo '[{1}]' '[{2}]' '[{}]' ::: ' x , y '",
        "-k --colsep , --trim r echo '[{1}]' '[{2}]' ::: ' a , b '",
        "-k --trim lr echo '[{}]' '[{1}]' ::: ' x y '",
        "-k --trim rl echo '[{.}]' ::: ' x.y '",
        "-k --trim lr --tag echo ::: ' a ' 'b '",
        "-k --trim x echo ::: a",
        // --header: the first item of each source names its columns (split at --colsep, else TAB)
        "-k --header : echo '[{name}]' '[{age}]' '[{1}]' '[{}]' :::: people",
        "-k --header : --colsep '\\t' echo '[{name}]' '[{age}]' :::: people",
        "-k --header : echo '[{f}]' '[{g}]' ::: f a b ::: g 1 2",
        "-k --header : --colsep , echo '[{f}]' '[{g}]' '[{h}]' ::: f,h a,x b,y ::: g 1 2",
        "-k --header '.*' echo '[{name}]' '[{age.}]' '[{name/}]' :::: people",
        "-k --header 0 echo '[{people}]' :::: people",
        "-k --header : --tagstring '{name}\\t{age}' echo x :::: people",
        "-k --header : echo '[{name}]' '[{nope}]' '{#}' :::: people",
        "-k --header : --colsep , echo '[{x}]' '[{y}]' < csv",
        "-k --header : --colsep , -a csv echo '[{x}]' '[{y}]' '[{z}]' ::: z 7 8",
        "-k -0 --header : echo '[{p}]' '[{}]' < nul",
        "-k --header : echo '[{a b}]' '[{c}]' ::: 'a b\tc' '1\t2'",
        "-k -q --header : echo '{name}' :::: people",
        "-k --colsep , --header : echo {h} {i} {j} ::: h,i a,b c ::: j 1 2 3",
        "-k -a fa --header : echo '{f1}' ::: g x y",
        "-k --header : --results res echo {name} :::: people",
        // --tagstring: \\t and the other escapes, no {} appended, -X/-N repeat its word as the command's
        "-k --tagstring foo echo ::: a",
        "-k --tagstring '\\101\\\\t\\0x' echo ::: a",
        "-k -X --tagstring 'T{}\\tx' echo ::: a b ::: 1 2",
        "-k -X -j1 --tagstring '<{1}>' echo ::: a b c",
        "-k -m -j1 --tagstring '<{}>' echo ::: a b c",
        "-k -N2 --tagstring '<{}|{2}>' echo ::: a b c",
        // --link/--xapply: a shorter source starts again; :::+ ends with the shortest
        "-k --link echo ::: a b c ::: 1 2",
        "-k --xapply echo ::: a b c ::: 1 2 ::: x",
        "-k --link -a fa -a ga echo",
        "-k --link echo ::: a b c :::+ 1 2 ::: x y",
        "-k --link echo :::: fa ::: 1 2 3 4 5",
        "-k --colsep , --link echo {1} {2} {3} ::: a,b c ::: 1 2 3",
        "-k echo ::: a b c :::+ 1 2",
        // -a before ::: and ::::, the markers' + counted from the first source (GNU's order)
        "-k -a fa echo ::: x y",
        "-k -a fa -a ga echo",
        "-k -a fa echo ::: x y :::+ 1 2 3",
        "-k -a fa echo :::+ x y z",
        "-k echo :::: fa ::::+ ga ::: p",
    })
    void matchesGnuParallel(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }

    /** A --colsep that is no expression: Perl dies (its message, errno as status); brisk says so in one line, 255. */
    @Test
    void aBadSeparatorIsOneLine() throws Exception {
        String args = "--colsep '(' echo ::: a";
        Out[] runs = GnuRuns.both(dir, brisk, "parallel --will-cite " + args, "\"$B\" par " + args);
        assertThat(runs[0].stderr()).contains("Unmatched ( in regex");
        assertThat(runs[0].status()).isNotZero();
        assertThat(runs[1].stderr()).startsWith("brisk par: --colsep: not a valid regular expression: ").endsWith(" of (\n")
                .hasLineCount(1);
        assertThat(runs[1].status()).isEqualTo(255);
        assertThat(runs[1].stdout()).isEmpty();
    }
}
