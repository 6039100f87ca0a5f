// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GNU parallel's options that rename the replacement strings ({@code --er}, {@code --bnr},
 * {@code --dnr}, {@code --bner}, {@code --seqreplace}, {@code --slotreplace}, {@code --parens}),
 * its rule for a command that starts with one, and its options that say something about the run
 * or the machine ({@code --min-version}, {@code --process-slot-var}, {@code --total-jobs},
 * {@code --shuf}, {@code --skip-first-line}, {@code --use-*-instead-of-*}, {@code --record-env},
 * {@code --shell-completion}, {@code --bug} ...): each command line run by GNU parallel 20221122
 * ({@code parallel --will-cite}) and by {@code brisk par}, with the same stdout, stderr (GNU's
 * {@code parallel: Error:} read as {@code brisk par:}) and status, unless a test says otherwise.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParNamesIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void inputs() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        Files.writeString(dir.resolve("lines"), "head\na\nb\nc\n");
        Files.writeString(dir.resolve("other"), "h\nx\n");
        Files.writeString(dir.resolve("table"), "aa\tbb\nx\ty\n");
        Files.write(dir.resolve("nul"), "a\nb\0c\0d\0".getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Exported bash functions ({@code export -f doit}) reach the jobs as under GNU parallel, whose
     * jobs run in the caller's bash: brisk's run on bash then, with the functions defined, in every
     * output mode, under {@code --pipe}, in a composed command and under {@code sem}.
     */
    @ParameterizedTest
    @ValueSource(strings = {"-k doit ::: a b", "-k -u doit ::: c", "-k --lb 'doit {}; doit x' ::: d", "-k -X doit ::: f g",
        "--pipe -k doit", "-k -j2 doit ::: 1 2 3 4 5 6 7", "-k 'doit {} | tr a-z A-Z' ::: e", "-k --tag doit {} ::: 'a b'", "--semaphore --fg doit s"})
    void exportedBashFunctionsReachTheJobs(String args) throws IOException, InterruptedException {
        String define = "doit() { echo \"doit $1 $(type -t doit) ${BASH_VERSION:+bash}\"; }; export -f doit; printf 'l\\n' | ";
        Out[] r = GnuRuns.both(dir, brisk, define + "parallel --will-cite " + args, define + "\"$B\" par " + args);
        assertThat(r[1].stdout()).as("stdout of %s (stderr: %s)", args, r[1].stderr()).isEqualTo(r[0].stdout()).containsIgnoringCase("function bash");
        assertThat(r[1].stderr()).as(args).isEqualTo(r[0].stderr());
        assertThat(r[1].status()).as(args).isEqualTo(r[0].status());
    }

    /** A function exported everywhere (Lmod's {@code module}) leaves the jobs that never name it on dash. */
    @Test
    void anExportedFunctionTheCommandDoesNotNameLeavesDash() throws IOException, InterruptedException {
        String define = "module() { echo m; }; export -f module; ";
        Out ours = GnuRuns.both(dir, brisk, "true", define + "\"$B\" par -k 'echo $0 {}' ::: a; \"$B\" par -k 'module; echo $0 {}' ::: b")[1];
        assertThat(ours.stdout()).as(ours.stderr()).matches("\\S*/dash a\nm\n\\S*/bash b\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // renamed replacement strings, with their positional forms when the name starts with {
        "-k --er '{x}' echo '{x}' '{1x}' '{1 x}' '{.}' ::: a.b",
        "-k --extensionreplace XX echo XX {.} {1.} '{1XX}' ::: a.b/c.d",
        "-k --bnr B echo B {/} ::: a/b.c",
        "-k --basenamereplace '{b}' echo '{b}' '{2b}' ::: a/b.c ::: d/e",
        "-k --dnr D echo D {//} ::: a/b.c",
        "-k --dirnamereplace D echo D {1//} ::: /a",
        "-k --bner E echo E {/.} ::: a/b.c",
        "-k --basenameextensionreplace '{e}' echo '{e}' '{1e}' ::: a/b.c",
        "-k -j1 --seqreplace S --slotreplace L echo S L {#} {%} ::: a b",
        "-k -I '{y}' --bnr '{x}' --seqreplace '[#]' --slotreplace '<%>' -j1 echo '{x}' '{1x}' '{y}' '{1y}' '{1}' '{}' '[#]' '<%>' ::: a/b.c",
        "-k --er '{/}' --bnr X echo '{/}' X ::: p/q.r",
        "-k -I . echo {.} . ::: a.b",
        "-k --er '(x+)' echo x xxx ::: a.b",
        "-k --rpl '{x} s/a/b/' --er '{xx}' echo {x} {xx} {1xx} ::: a.a",
        "-k -j1 -X --er E echo preEpost ::: a.b c.d",
        "-k -q --er E printf '%s\\n' 'E E' ::: a.b",
        "-k --tag --bnr B echo B ::: a/b",
        // --parens: a Perl expression between its halves
        "-k --parens '<<>>' echo '<< s/a/b/ >>' '{= s/a/c/ =}' '<<1 s/a/d/ >>' ::: a",
        "-k --parens '<<<>>' echo '<< s/a/b/ <>>' ::: a",
        "-k --parens X echo X ::: a",
        "-k --parens ',,..' --plus echo ',, s/a/b/ ..' {..} ::: a.b.c",
        "-k --header : --parens '<<>>' echo '<<aa s/x/z/ >>' {bb} :::: table",
        // blanks after a position, as GNU's \\{(-?\\d+)\\s*
        "-k echo '{1 }' '{1 .}' '{1  /}' '{-1 }' ::: a.b/c.d",
        // a command whose first word holds a replacement string takes values unquoted
        "{} ::: 'echo a'",
        "-k -j1 'ech{}' ::: 'o a; echo b'",
        "-k -v {} ::: 'echo a'",
        "-k 'FOO={} ; echo \"$FOO\"' ::: 'a b'",
        "-k -j1 '{1} {2}' ::: 'printf %s\\\\n' ::: 'x y'",
        // the slot variable
        "-k -j1 'echo $PARALLEL_JOBSLOT0 $PARALLEL_JOBSLOT' ::: a b",
        "-k -j1 --process-slot-var XX 'echo $XX $PARALLEL_JOBSLOT0' ::: a b",
        "-j1 --processslotvar XX -N0 printenv XX ::: a",
        "-j1 --lb --process-slot-var XX -N0 printenv XX ::: a",
        // slots as GNU numbers them: the jobs of the run's start in slots 1, 2, 3
        "-k -j3 'sleep 0.5; echo {%} {} $PARALLEL_JOBSLOT' ::: a b c",
        "-k -j2 --slotreplace L 'sleep 0.5; echo L {}' ::: a b",
        "-k -j2 -N0 'sleep 0.5; printenv PARALLEL_JOBSLOT0' ::: a b",
        // what the run reports
        "--min-version 20221122",
        "--minversion 20230101",
        "--min-version 1 echo ::: a",
        "--silent -v echo ::: a",
        "-v --silent -k echo ::: a",
        "--total-jobs 7 --plus echo '{##}' ::: a",
        "--total 3 --plus -k echo '{0#}' ::: a b",
        "--totaljobs 12 --plus -k echo '{0#}' ::: a b",
        "-k --nok -j1 echo ::: a b",
        "--no-keep-order -k -j1 echo ::: b a",
        "-k --no-k --keep-order -j1 echo ::: b a",
        "-k --linkinputsource 0 --linkinputsource 1 echo ::: a b ::: 1 2 ::: X Y",
        "-k --xapplyinputsource 1 echo ::: a b ::: 1 2",
        "--session -k echo ::: a",
        "--_test 1 -k echo ::: a",
        "--shell-completion foo",
        "--shellcompletion nosh",
        "--pipe --shuf cat",
        "--pipe --eta cat",
        "--pipe --bar cat",
        // --skip-first-line: the first source's first item; stdin's first line with --pipe
        "-k --skip-first-line echo ::: q w",
        "-k --skip-first-line echo :::: lines other",
        "-k --skipfirstline echo < lines",
        "-k --skip-first-line -0 echo < nul",
        "-k --pipe --skip-first-line -N1 cat < lines",
        "-k --pipe --skip-first-line --block 3 cat < lines",
        "-k --pipepart -a lines --skip-first-line --block 2 cat",
        "-k --pipepart -a lines --skip-first-line cat",
        // the CPUs -j counts: this machine's sockets, cores or threads
        "--use-sockets-instead-of-threads 'sleep 0.3; echo {%}' ::: 1 2 3 | sort -u",
        "--usecoresinsteadofthreads 'sleep 0.3; echo {%}' ::: 1 2 3 | sort -u",
        "--use-cpus-instead-of-cores 'sleep 0.3; echo {%}' ::: 1 2 3 | sort -u",
        "--use-sockets-instead-of-threads -j 200% 'sleep 0.3; echo {%}' ::: 1 2 3 | sort -u",
        "-j 75% 'sleep 0.3; echo {%}' ::: 1 2 3 | sort -u",
        "-j 30% 'sleep 0.3; echo {%}' ::: 1 2 3 | sort -u",
    })
    void matchesGnuParallel(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }

    /** {@code -D}: accepted; GNU's debug lines (on stderr) are its own, the output and status the same. */
    @ParameterizedTest
    @ValueSource(strings = {"-D init -k echo ::: a b", "--debug all -k echo ::: a"})
    void debugIsAccepted(String args) throws Exception {
        Out[] runs = GnuRuns.both(dir, brisk, "parallel --will-cite " + args, "\"$B\" par " + args);
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout()).isNotEmpty();
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isZero();
        assertThat(runs[1].stderr()).isEmpty();
    }

    /** {@code --shuf}: every job once, in an order that changes from run to run. */
    @Test
    void shufRunsEveryJobInARandomOrder() throws Exception {
        String args = "--shuf -k -j1 echo ::: 1 2 3 4 5 6 7 8 ::: x y";
        Out[] runs = GnuRuns.both(dir, brisk, "parallel --will-cite " + args, "\"$B\" par " + args);
        assertThat(sorted(runs[1].stdout())).isEqualTo(sorted(runs[0].stdout())).hasSize(16);
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isZero();
        Set<String> orders = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            orders.add(GnuRuns.both(dir, brisk, "true", "\"$B\" par " + args)[1].stdout());
        }
        assertThat(orders).as("16 jobs in 6 runs: some other order (the same one 6 times: 1 in 16!^5)").hasSizeGreaterThan(1);
    }

    private static List<String> sorted(String lines) {
        return lines.lines().sorted().toList();
    }

    /** {@code --max-line-length-allowed}: GNU parallel's measure of the longest command, the one {@code --show-limits} reports. */
    @Test
    void maxLineLengthIsTheLimitShowLimitsReports() throws Exception {
        Out[] runs = GnuRuns.both(dir, brisk, "parallel --will-cite --max-line-length-allowed", "\"$B\" par --max-line-length-allowed");
        Out limits = GnuRuns.both(dir, brisk, "true", "\"$B\" par --show-limits ::: </dev/null")[1];
        assertThat(runs[1].stdout()).matches("[0-9]+\n");
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout());
        assertThat(limits.stdout()).startsWith("Maximal size of command: " + runs[1].stdout());
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isZero();
    }

    /** {@code --bug}: GNU's request for a report, brisk's name and version in it, status 255. */
    @Test
    void bugPrintsTheReportRequest() throws Exception {
        Out[] runs = GnuRuns.both(dir, brisk, "parallel --will-cite --bug", "\"$B\" par --bug");
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isEqualTo(255);
        String tail = "\nInclude this in the report:\n";
        assertThat(runs[1].stderr().substring(runs[1].stderr().indexOf(tail)).replaceFirst("number: [^\n]*", "number: V"))
                .isEqualTo(runs[0].stderr().substring(runs[0].stderr().indexOf(tail)).replaceFirst("number: [^\n]*", "number: V"));
        assertThat(runs[1].stderr()).startsWith("brisk par: This should not happen. You have found a bug.");
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout()).isEmpty();
    }

    /** {@code --record-env}: the environment's names in the config directory's ignored_vars, as GNU's; then {@code --env _} reads it. */
    @Test
    void recordEnvWritesTheNamesAndEnvUnderscoreReadsThem() throws Exception {
        for (String h : new String[] {"hg", "hb"}) {
            Files.createDirectories(dir.resolve(h).resolve(".parallel"));
        }
        String env = "env -i PATH=\"$PATH\" XDG_RUNTIME_DIR=\"$XDG_RUNTIME_DIR\" A_NAME=1 ";
        Out[] runs = GnuRuns.both(dir, brisk, env + "HOME=\"$PWD/hg\" parallel --will-cite --record-env",
                env + "HOME=\"$PWD/hb\" \"$B\" par --recordenv");
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isZero();
        List<String> gnu = Files.readAllLines(dir.resolve("hg/.parallel/ignored_vars"));
        List<String> ours = Files.readAllLines(dir.resolve("hb/.parallel/ignored_vars"));
        assertThat(ours).contains("A_NAME", "PATH", "HOME", "XDG_RUNTIME_DIR").containsAll(gnu);

        // no ignored_vars: GNU's error (naming the program), remote or not; none written where none can be
        runs = GnuRuns.both(dir, brisk, env + "HOME=\"$PWD/n1g\" parallel --will-cite --env _ echo ::: a",
                env + "HOME=\"$PWD/n1b\" \"$B\" par --env _ echo ::: a");
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isEqualTo(255);
        assertThat(runs[1].stderr()).isEqualTo(runs[0].stderr().replace("parallel: Error: ", "brisk par: ")
                .replace("'parallel --record-env'", "'brisk par --record-env'"));
        runs = GnuRuns.both(dir, brisk, env + "HOME=\"$PWD/n2g\" parallel --will-cite --record-env", env + "HOME=\"$PWD/n2b\" \"$B\" par --record-env");
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isEqualTo(255);
        assertThat(runs[1].stderr()).isEqualTo(runs[0].stderr().replace("parallel: Error: ", "brisk par: ").replace("/n2g/", "/n2b/"));
        // with the file: a run that names --env _ goes on
        runs = GnuRuns.both(dir, brisk, env + "HOME=\"$PWD/hg\" parallel --will-cite --env _ -k echo ::: a", env + "HOME=\"$PWD/hb\" \"$B\" par --env _ -k echo ::: a");
        assertThat(runs[1].stdout()).isEqualTo(runs[0].stdout()).isEqualTo("a\n");
    }

    /** {@code --shell-completion}: brisk's script, which bash sources and zsh reads; auto follows $SHELL. */
    @Test
    void shellCompletionPrintsAScriptThatWorks() throws Exception {
        Out bash = GnuRuns.both(dir, brisk, "true", "source <(\"$B\" par --shell-completion bash) && complete -p brisk")[1];
        assertThat(bash.stdout()).contains("complete ").contains(" brisk\n");
        assertThat(bash.status()).isZero();
        Out zsh = GnuRuns.both(dir, brisk, "true", "SHELL=/usr/bin/zsh \"$B\" par --shell-completion auto")[1];
        assertThat(zsh.stdout()).startsWith("#compdef brisk\n").contains("par)");
        Out[] dash = GnuRuns.both(dir, brisk, "PARALLEL_SHELL=/bin/dash parallel --will-cite --shell-completion auto",
                "PARALLEL_SHELL=/bin/dash \"$B\" par --shell-completion auto");
        assertThat(dash[1].stderr()).isEqualTo(dash[0].stderr().replace("parallel: Error: ", "brisk par: "));
        assertThat(dash[1].status()).isEqualTo(dash[0].status()).isEqualTo(255);
    }

    /**
     * GNU parallel's helpers that only its own scripts use: {@code --embed} (its Perl source) and
     * {@code --_parset assoc,NAME} (for its parset function's associative arrays) are refused in
     * one line naming them, 255;
     * {@code --_pipe-means-argfiles} makes {@code :::} name files as {@code ::::} does.
     */
    @Test
    void gnuOnlyHelpers() throws Exception {
        for (String o : new String[] {"--embed", "--_parset assoc,a echo ::: x"}) {
            Out ours = GnuRuns.both(dir, brisk, "true", "\"$B\" par " + o)[1];
            assertThat(ours.status()).as(o).isEqualTo(255);
            assertThat(ours.stderr()).as(o).startsWith("brisk par: " + o.split(" ")[0] + " ").doesNotContain("\n\t").endsWith(")\n")
                    .hasLineCount(1);
            assertThat(ours.stdout()).isEmpty();
        }
        // GNU parallel 20221122's --pipe reads stdin, not the argument files the option makes of the values
        Out[] argFiles = GnuRuns.both(dir, brisk, "echo in | parallel -k --pipe -j1 --_pipe-means-argfiles cat ::: lines other",
                "echo in | \"$B\" par -k --pipe -j1 --_pipe-means-argfiles cat ::: lines other");
        assertThat(argFiles[1].stdout()).isEqualTo("in\n");
        assertThat(argFiles[1].stdout()).isEqualTo(argFiles[0].stdout());
        assertThat(argFiles[1].status()).isEqualTo(argFiles[0].status());
    }

    /** A name the shell cannot hold is refused, naming the option (GNU sets it in the environment anyway: a documented difference). */
    @Test
    void slotVariableMustBeAName() throws Exception {
        Out ours = GnuRuns.both(dir, brisk, "true", "\"$B\" par --process-slot-var 'a b' echo ::: a")[1];
        assertThat(ours.stderr()).isEqualTo("brisk par: --process-slot-var: not a variable name: 'a b'\n");
        assertThat(ours.status()).isEqualTo(255);
    }
}
