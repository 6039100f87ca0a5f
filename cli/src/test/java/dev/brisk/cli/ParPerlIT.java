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
 * GNU parallel's Perl replacement strings: {@code {= perl =}}, {@code {=N perl =}},
 * {@code --rpl} (plain and regex tags, {@code $$1} captures, the leading {@code 1} of "once per
 * job") and {@code --plus}; each command line run by GNU parallel 20221122 ({@code parallel
 * --will-cite}) and by {@code brisk par}, with the same stdout, stderr (GNU's
 * {@code parallel: Error:} read as {@code brisk par:}) and status.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParPerlIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void launcher() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
    }

    static Out[] both(String args) throws Exception {
        return GnuRuns.both(dir, brisk, "parallel --will-cite " + args, "\"$B\" par " + args);
    }

    /**
     * Ctrl-C while an expression never ends: the run's perl is killed with the jobs (it held the
     * call, and a core, forever before), brisk exits 130 and says nothing. The run's perl is
     * found by a variable of the call's environment, which it inherits (other tests' perls come
     * and go meanwhile); a zombie's environment cannot be read, so one that init has not reaped
     * yet is not counted.
     */
    @Test
    void ctrlCEndsAnExpressionThatNeverEnds() throws Exception {
        Out o = GnuRuns.both(dir, brisk, "true", "set -m; mine() { n=0; for p in $(pgrep -x perl); do"
                + " tr '\\0' '\\n' </proc/$p/environ 2>/dev/null | grep -qx \"PPIT_MARK=$$\" && n=$((n+1)); done; echo $n; };"
                + " PPIT_MARK=$$ \"$B\" par echo '{= 1 while 1 =}' ::: a 2>err & pid=$!;"
                + " for i in $(seq 100); do [ \"$(mine)\" = 1 ] && break; sleep 0.1; done; echo running=$(mine);"
                + " kill -INT $pid; wait $pid; echo status=$?; sleep 0.5; echo left=$(mine); cat err")[1];
        assertThat(o.stdout()).as(o.stderr()).isEqualTo("running=1\nstatus=130\nleft=0\n");
    }

    /**
     * {@code @arg} is the job's: a change an expression makes to it stays for the job's next
     * expressions, as GNU parallel's {@code @arg} aliases the job's list (GNU itself prints
     * {@code ax ax} or {@code ax a} from run to run: it may have computed the second value while
     * measuring the command, before the first changed it; so not compared with GNU).
     */
    @Test
    void argIsTheJobsList() throws Exception {
        Out o = GnuRuns.both(dir, brisk, "true", "\"$B\" par -k echo '{= $arg[1] .= \"x\"; $_ = $arg[1] =}' '{= $_ = $arg[1] =}' ::: a b")[1];
        assertThat(o.stdout()).as(o.stderr()).isEqualTo("ax ax\nbx bx\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "-k echo '{= s/a/b/ =}' ::: a ba cc",
        "-k echo '{=2 s/a/b/ =}' '{=-1 $_.=1 =}' ::: a ::: a",
        "-k echo '{2= s/a/b/ =}' ::: a ::: a",
        "-k -j2 -X echo '{=1 $_.=seq() =}' '{= $_.=\"x\" =}' ::: a b c",
        "-k -j1 -m echo '{= $_.=\"x\" =}' ::: a b c",
        "-k echo '{= $_=Q($_) =}' '{= $_=\"a b\";uq() =}' '{= $_=pQ($_) =}' ::: \"it's\" '$x@y'",
        "-k echo '{= $_=join(\",\",@arg) =}' ::: a b ::: c d",
        "-k -j1 echo '{= $_=total_jobs() =}' '{= $_=$job->seq().slot().seq() =}' ::: a b c",
        "-k echo '{= skip() if /b/ =}' ::: a b c d",
        "-k -j1 --joblog jl$$ echo '{= $_=$job->skip() if /b/ =}' ::: a b c && cut -f 1,7,9 jl$$",
        "-k --dry-run echo '{= $_.=\"x\" =}' ::: 'a b'",
        "-k -I ,, echo ',, {= $_.=\"x\" =}' ::: a",
        "-k echo '{= $_=\"\" =}x' '{= $_.=\"x\" =}{}' ::: 'a b'",
        "-k -j1 echo '{= $n++; $_=$n =}' ::: a b c",
        "-k echo '{= s/ =}' ::: a",
        "-k --rpl '{%(.*?)} s/$$1//' echo {%.tar.gz} {2%.gz} ::: my.tar.gz ::: b.gz",
        "-k --rpl '{/(\\.\\S+)/(\\.\\S+)} s/$$1/$$2/g;' echo {/.tar/.gz} ::: UU.tar.gz",
        "-k -j1 --rpl '{odd} $_ = seq() % 2 ? \"odd\" : \"even\"' echo {odd} ::: a b c",
        "-k --rpl '{:} s:(\\.[^/]+)*$::' echo {:} {2:} ::: a.b.c ::: d/e.f",
        "-k --rpl '{} s/a/b/' echo {} ::: abc",
        "-k -j1 -m --rpl '{n} 1 $_=seq()' echo {n} {} ::: a b",
        "-k --rpl '{(} s/a//' --rpl '{' echo '{(}' ::: a",
        "-k --plus echo {..} {...} {/..} {/...} {+/} {+.} {+..} {+...} {.} {/} {//} ::: dir/a.b.c.d x.tar.gz plain /r.s",
        "-k -j1 --plus echo {##} {0#} {0%} {slot} ::: a b c d e f g h i j k",
        "-k --plus echo '{:-x}' '{:2}' '{:1:2}' '{#a}' '{##*a}' '{%.*}' '{%%.*}' ::: abcAaa.b.c ''",
        "-k --plus echo '{/a/X}' '{//a/X}' '{/#a/X}' '{/%c/X}' '{^a}' '{^^a}' '{,A}' '{,,A}' '{2^b}' ::: abcAaa.b.c '' ::: bb",
        "-k --plus echo {choose_k} ::: a b c ::: a b c",
        "-k --plus echo {uniq} ::: a b ::: a b",
        "-k --plus --rpl '{..} s/a/z/' echo {..} ::: a.b.c",
        "-k -q echo 'x {= s/a/b/ =};' '{}' ::: \"a'x\"",
        "-k -q --plus echo 'x {..} y' '{}' ::: \"a'x.b.c\"",
    })
    void matchesGnuParallel(String args) throws Exception {
        Out[] runs = both(args);
        Out gnu = runs[0];
        Out ours = runs[1];
        assertThat(ours.stdout()).as("stdout of %s (stderr: %s)", args, ours.stderr()).isEqualTo(gnu.stdout());
        // perl's own count of evals and GNU's last read file handle are GNU's internals
        assertThat(ours.stderr().replaceAll("\\(eval \\d+\\) line 1\\.", "(eval) line 1."))
                .as("stderr of %s", args)
                .isEqualTo(gnu.stderr().replace("parallel: Error: ", "brisk par: ")
                        .replaceAll("\\(eval \\d+\\) line 1, <\\$fh> line 1\\.", "(eval) line 1."));
        assertThat(ours.status()).as("status of %s", args).isEqualTo(gnu.status());
    }

    /** One perl per run, as GNU parallel's one process: {@code $$} is the same in every job. */
    @Test
    void onePerlPerRun() throws Exception {
        Out[] runs = both("-j4 echo '{= $_=$$ =}' ::: $(seq 40) | sort -u | wc -l");
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout()).isEqualTo("1\n");
    }

    /** No perl unless a template needs one: without perl on PATH, {@code {}} runs, {@code {= =}} is refused in one line. */
    @Test
    void perlOnlyWhenNeeded() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("noperl"));
        for (String tool : new String[] {"sh", "dash", "echo"}) {
            Path target = Path.of("/usr/bin", tool);
            Files.createSymbolicLink(bin.resolve(tool), Files.exists(target) ? target : Path.of("/bin", tool));
        }
        Out plain = GnuRuns.both(dir, brisk, "true", "PATH=noperl \"$B\" par -k --plus echo {} {/} ::: a/b")[1];
        assertThat(plain.stdout()).isEqualTo("a/b b\n");
        assertThat(plain.status()).isZero();
        Out perl = GnuRuns.both(dir, brisk, "true", "PATH=noperl \"$B\" par echo '{= $_ =}' ::: a")[1];
        assertThat(perl.stderr()).startsWith("brisk par: perl is needed for {= =} and --rpl").endsWith("\n")
                .hasLineCount(1);
        assertThat(perl.status()).isEqualTo(255);
    }
}
