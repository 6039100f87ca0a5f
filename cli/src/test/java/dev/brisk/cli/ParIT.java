// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The packaged {@code brisk par} against GNU parallel ({@code parallel --will-cite}) on the same
 * command lines, and the promises that need a real process: exit statuses, bad input, Ctrl-C,
 * {@code kill -9}, output larger than the heap.
 */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ParIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void wrapper() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        Path odd = Files.createDirectories(dir.resolve("odd"));
        Files.writeString(odd.resolve("My brother's 12\" *** record (costs $$$).jpg"), "1");
        Files.writeString(odd.resolve("new\nline"), "22");
        Files.writeString(odd.resolve("-leading"), "333");
        Files.writeString(odd.resolve("plain.txt"), "4444");
        // GNU parallel splits ::: values at newlines, so the differential cases use a tree without one
        Path odd2 = Files.createDirectories(dir.resolve("odd2"));
        Files.writeString(odd2.resolve("My brother's 12\" *** record (costs $$$).jpg"), "1");
        Files.writeString(odd2.resolve("-leading"), "333");
        Files.writeString(odd2.resolve("bad\u00e9.txt"), "4444");
        // prints each of its arguments NUL-terminated, then a newline: where every argument and batch ends
        Files.writeString(dir.resolve("args.sh"), "#!/bin/sh\nprintf '%s\\0' \"$@\"; echo\n");
        Files.setPosixFilePermissions(dir.resolve("args.sh"), PosixFilePermissions.fromString("rwx------"));
    }

    record Out(String stdout, String stderr, int status) {}

    static Out sh(String script) throws IOException, InterruptedException {
        return start(script).finish();
    }

    /**
     * GNU parallel's run and brisk's at once (each waits mostly on its own start and its jobs'
     * sleeps, so the pair takes the longer of the two instead of their sum); the reference
     * first, then brisk's.
     */
    static Out[] both(String gnu, String ours) throws IOException, InterruptedException {
        Running g = start(gnu);
        Running o;
        try {
            o = start(ours);
        } catch (IOException | RuntimeException e) {
            g.process.destroyForcibly();
            throw e;
        }
        return new Out[] {g.finish(), o.finish()};
    }

    record Running(String script, Process process, Path out, Path err) {
        Out finish() throws IOException, InterruptedException {
            boolean done = process.waitFor(100, TimeUnit.SECONDS);
            if (!done) {
                process.destroyForcibly();
            }
            assertThat(done).as("finished: %s", script).isTrue();
            return new Out(Files.readString(out, StandardCharsets.ISO_8859_1), Files.readString(err, StandardCharsets.ISO_8859_1),
                    process.exitValue());
        }
    }

    static Running start(String script) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.toFile());
        pb.environment().put("B", brisk.toString());
        Path o = Files.createTempFile(dir, "o", "");
        Path e = Files.createTempFile(dir, "e", "");
        pb.redirectOutput(o.toFile()).redirectError(e.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return new Running(script, pb.start(), o, e);
    }

    /** Same stdout and exit status as GNU parallel (with -k, byte for byte). */
    @ParameterizedTest
    @ValueSource(strings = {
        "-k echo ::: a b c",
        "-k echo -n ::: a b",
        "-k echo {} {.} {/} {//} {/.} ::: a/b.c/d.e.f .bashrc a x/.y 'a b/c'",
        "-k -X echo ::: 1 2 3 4 5 6 7",
        "-k -m echo ::: 1 2 3 4 5",
        "-k -n2 echo {} {1} ::: 1 2 3 4 5",
        "-k -j4 'sleep 0.0{}; echo {}' ::: 5 3 1 4 2",
        "-k echo ::: a b :::+ 1 2 3 ::: X Y",
        "-k echo {2} {1} ::: a b ::: c d",
        "-k --dry-run echo ::: 'a b' \"it's\" 'x$y' -n",
        "-k -v echo ::: a 'b c'",
        "-k --tag echo ::: a b ::: 1 2",
        "-k --tagstring 'T{}' echo hi ::: 'p q'",
        "-k -0 echo < <(printf 'a b\\0c\\nd\\0')",
        "-k -d , echo < <(printf 'a,b,c')",
        "-k echo :::: <(printf '1\\n2\\n') ::: a b",
        "-k -a <(printf 'x\\ny\\n') echo",
        "-k -I XX echo XX {} ::: a b",
        "-k echo {#} ::: a b c",
        "-k 'echo out {}; echo err {} >&2' ::: a b",
        "-k 'echo {}; exit 3' ::: a b",
        "'exit {}' ::: 0 1 2 3",
        "-k ::: 'echo a' 'echo b; echo c'",
        "-k 'cat; echo {}' ::: a",
        "-k printf '%s\\0' ::: \"My brother's 12\\\" *** record (costs \\$\\$\\$).jpg\" $'bad\\xff\\xfe' -leading",
        "-k cat ::: odd2/*",
        "-k 'md5sum {} | cut -c1-32' ::: odd2/*",
        "-k md5sum ::: odd2/*",
        "-k -X md5sum ::: odd2/* nonexist",
        "-k --tag -X md5sum ::: odd2/*",
        "-k -n 2 --tag md5sum ::: odd2/* nonexist",
        "-k --retries 3 -X md5sum ::: nonexist odd2/*",
        "-j1 --halt now,fail=1 -n1 -X md5sum ::: nonexist odd2/*",
        "-k -X 'md5sum {} | cut -c1-32' ::: odd2/*",
        "-k -X cat x{}y ::: odd2/*",
        "-k 'cat {} | sort -r | tr a-z A-Z' ::: odd2/*",
        "-k 'cat {} | false' ::: odd2/*",
        "-k 'no-such-command-brisk {} | wc -l' ::: a b",
        "-k 'cat {} | no-such-command-brisk' ::: odd2/*",
        "-k 'yes {} | head -c 3000000 | md5sum' ::: a b",
        "-k 'seq {} | sort -rn | head -3' ::: 10 100000",
        "-k echo x{}x < <(printf 'a\\n\\nb\\n')",
        "-k --retries 2 'exit 1' ::: a",
        "-k echo {3} ::: a",
        "--pipe -k wc -l < <(seq 100000)",
        "--pipe --block 100k -k wc -l < <(seq 100000)",
        "--pipe --block 64K -k 'wc -c; echo {#}' < <(seq 50000)",
        "-0 --pipe --block 1k -k 'tr \\\\0 _; echo' < <(printf 'a\\0bb\\0ccc\\0dddd\\0')",
    })
    void matchesGnuParallel(String args) throws Exception {
        Out[] runs = both("parallel --will-cite " + args, "\"$B\" par " + args);
        Out gnu = runs[0];
        Out ours = runs[1];
        if (gnu.stderr.contains("Unknown option") || gnu.stderr.contains("Invalid")) {
            return;
        }
        assertThat(ours.stdout).as("stdout of %s (stderr: %s)", args, ours.stderr).isEqualTo(gnu.stdout);
        assertThat(ours.status).as("status of %s", args).isEqualTo(gnu.status);
    }

    /**
     * {@code echo} as bash's, whatever shell the workers are (GNU parallel's jobs follow
     * {@code $SHELL}, so it is no reference here): {@code -e} expands and stops at {@code \c},
     * {@code -E} does not expand.
     */
    @Test
    void echoIsBashsEcho() throws Exception {
        Out ours = sh("\"$B\" par -k 'echo -e \"{}\\tz\\c\"' ::: x y; \"$B\" par -k echo -E ::: 'a\\tb'");
        assertThat(ours.stdout).isEqualTo("x\tzy\tza\\tb\n");
        assertThat(ours.status).isZero();
    }

    @Test
    void stderrMatchesGnuParallelForJobOutput() throws Exception {
        String args = "-k 'echo out {}; echo err {} >&2' ::: a b";
        assertThat(sh("\"$B\" par " + args).stderr).isEqualTo(sh("parallel --will-cite " + args).stderr);
    }

    /**
     * With stdout and stderr on one pipe ({@code 2>&1 |}), each job's stdout comes before its
     * stderr and the jobs follow one another, as under GNU parallel: into a pipe brisk gathers the
     * small outputs of many jobs into one write, but writes what it gathered before any stderr byte.
     * The jobs run on both output paths (the warm shell's builtins, spawned programs) and held
     * for their turn ({@code -k}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"-j1 'echo out {}; echo err {} >&2' ::: a b c d",
            // jobs that end microseconds apart: their output is gathered (a burst), stderr must not pass it
            "-k -j2 'echo out {}; echo err {} >&2' ::: $(seq 1 2000)",
            "-k -j2 'echo out {}; echo err {} >&2; echo more {}' ::: a b c d e f",
            "-k -j2 'printf \"%s\\n\" {}; cat /nonexistent/{}' ::: a b c",
            "-k 'yes {} | head -c 100000; echo; echo err {} >&2' ::: a b",
            // outputs of 32-64 KiB, written whole, after the -v line and the small outputs gathered before them
            "-k -v 'head -c 40000 /dev/zero | tr \"\\0\" {}; echo; echo err {} >&2' ::: x y z",
            "-j1 -v 'head -c {} /dev/zero | tr \"\\0\" x; echo; echo err {} >&2' ::: 10 40000 5 60000"})
    void stdoutAndStderrOnOnePipeKeepTheirOrder(String args) throws Exception {
        Out[] runs = both("parallel --will-cite " + args + " 2>&1 | cat > both.gnu; cat both.gnu",
                "\"$B\" par " + args + " 2>&1 | cat > both.ours; cat both.ours");
        assertThat(runs[1].stdout).isEqualTo(runs[0].stdout.replace("parallel: ", "brisk: "));
        assertThat(runs[1].stdout).as("stderr in the file too").containsAnyOf("err ", "No such file");
    }

    /**
     * A finished job's output reaches a pipe while later jobs still run: into a pipe brisk holds
     * the small outputs of a burst of jobs (ending microseconds apart) back for about a
     * millisecond to write them together, never until the next job ends. Here 500 quick jobs
     * come first (a burst whose last outputs wait for the flusher thread), then one that sleeps
     * until the test kills it; or just two quick ones (written as they end).
     */
    @ParameterizedTest
    @ValueSource(strings = {"-j1", "-j2", "-k -j1", "-k -j2"})
    void aFinishedJobsOutputIsNotHeldForTheNext(String opts) throws Exception {
        for (int quick : new int[] {2, 500}) {
            linesComeWhileItRuns("exec \"$B\" par " + opts + " :::: <(seq 1 " + quick + " | sed 's/^/echo /'; echo 'sleep 100')",
                    java.util.stream.IntStream.rangeClosed(1, quick).mapToObj(Integer::toString).toList(), false);
        }
    }

    /** A dry run's lines, and {@code --joblog -}'s header, reach a pipe before the input ends or the first job does. */
    @Test
    void aDryRunAndAJoblogHeaderAreNotHeldBack() throws Exception {
        linesComeWhileItRuns("(seq 1 300; sleep 100) | \"$B\" par --dry-run echo",
                java.util.stream.IntStream.rangeClosed(1, 300).mapToObj(i -> "echo " + i).toList(), true);
        linesComeWhileItRuns("exec \"$B\" par --joblog - ::: 'sleep 100'",
                List.of("Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand"), true);
    }

    /**
     * Runs {@code script} with its stdout on a pipe and reads lines until it has as many as
     * {@code want} (in order when {@code ordered}), within 30 s, while the script is still
     * running (it ends with a sleep of 100 s that the test then kills).
     */
    private static void linesComeWhileItRuns(String script, List<String> want, boolean ordered) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script)
                .directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("B", brisk.toString());
        Process p = pb.start();
        var lines = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        try (var reader = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            // read apart, with a limit: output held until the sleep ends would come only after 100 s
            java.util.concurrent.Future<List<String>> read = reader.submit(() -> {
                List<String> got = new java.util.ArrayList<>();
                for (int k = 0; k < want.size(); k++) {
                    got.add(lines.readLine());
                }
                return got;
            });
            try {
                List<String> got = read.get(30, TimeUnit.SECONDS);
                if (ordered) {
                    assertThat(got).as(script).containsExactlyElementsOf(want);
                } else {
                    assertThat(got).as(script).containsExactlyInAnyOrderElementsOf(want);
                }
                assertThat(p.isAlive()).as("still running: %s", script).isTrue();
            } finally {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                lines.close(); // after the kill: a reader still in readLine holds the lock until end of file
            }
        }
    }

    /** GNU parallel's warning for a job its timeout killed, with brisk's prefix, on the spawned, shell and pool paths. */
    @ParameterizedTest
    @ValueSource(strings = {"-k --timeout 0.5 sleep ::: 3 0.1", "-k --timeout 0.5 'sleep {}; echo {}' ::: 3 0.1",
            "-k --line-buffer --timeout 0.5 'sleep {}' ::: 3 0.1", "-k -X --timeout 0.5 sleep ::: 3 0.1",
            // a pipeline with a builtin: its warm shell must not report the kill ("Terminated") in the job's stderr
            "-k --timeout 0.5 'echo a | sleep {}' ::: 3 0.1", "-k --timeout 0.5 'printf a | sleep {} | cat' ::: 3",
            "-k --term-seq KILL,50 --timeout 0.5 'echo a | sleep {}' ::: 3"})
    void aTimeoutWarnsAsGnuParallelDoes(String args) throws Exception {
        Out[] runs = both("parallel --will-cite " + args, "\"$B\" par " + args);
        Out gnu = runs[0];
        Out ours = runs[1];
        assertThat(gnu.stderr).contains("parallel: Warning: This job was killed because it timed out:");
        assertThat(ours.stderr).isEqualTo(gnu.stderr.replace("parallel: ", "brisk: "));
        assertThat(ours.stdout).isEqualTo(gnu.stdout);
        assertThat(ours.status).isEqualTo(gnu.status);
    }

    /**
     * A job its timeout killed leaves nothing running, as under GNU parallel: a child that ignores
     * the TERM that ended the job's shell gets the rest of the termination sequence (KILL).
     */
    @Test
    void aTimedOutJobLeavesNoChildThatIgnoredTerm() throws Exception {
        String marker = "41" + ProcessHandle.current().pid() % 1000 + "7";
        Out ours = sh("\"$B\" par --timeout 1 'sleep " + marker + "1 & (trap \"\" TERM; exec sleep " + marker
                + "2) & wait; : {}' ::: 1 2");
        assertThat(ours.stderr).contains("brisk: Warning: This job was killed because it timed out:");
        assertThat(ours.status).isEqualTo(2);
        assertThat(leftOver(marker)).as("processes of the killed jobs").isEmpty();
    }

    /** Live (not zombie) processes whose command line holds {@code marker}. */
    private static List<String> leftOver(String marker) throws IOException {
        List<String> live = new ArrayList<>();
        try (var procs = java.nio.file.Files.newDirectoryStream(java.nio.file.Path.of("/proc"), "[0-9]*")) {
            for (java.nio.file.Path p : procs) {
                try {
                    String cmd = java.nio.file.Files.readString(p.resolve("cmdline")).replace('\0', ' ');
                    String stat = java.nio.file.Files.readString(p.resolve("stat"));
                    if (cmd.contains(marker) && !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z")) {
                        live.add(p.getFileName() + " " + cmd);
                        ProcessHandle.of(Long.parseLong(p.getFileName().toString())).ifPresent(ProcessHandle::destroyForcibly);
                    }
                } catch (IOException | RuntimeException e) {
                    // ended meanwhile
                }
            }
        }
        return live;
    }

    /**
     * A job killed by {@code --halt now} leaves nothing in the output, not even its shell's
     * report of the kill, and no joblog line; with {@code -k} no later job is printed either:
     * as under GNU parallel.
     */
    @ParameterizedTest
    @ValueSource(strings = {"-j2 --halt now,fail=1 ::: 'echo a | sleep 5' 'sleep 0.5; exit 1'",
            "-j2 --halt now,fail=1 ::: 'echo a | sleep 5 | cat /nonexistent' 'sleep 0.5; exit 1'",
            "-j2 --halt now,fail=1 ::: 'echo x; echo y >&2; sleep 5' 'sleep 0.5; echo y; exit 1'",
            "-k -j2 --halt now,fail=1 ::: 'echo x; sleep 5' 'sleep 0.5; echo y; exit 1' 'echo z'",
            "-k -j2 --halt now,fail=1 ::: 'sleep 0.5; exit 1' 'echo b'",
            "-j2 --halt now,fail=1 sleep ::: 5 x"})
    void haltNowKillsSilently(String args) throws Exception {
        Out[] runs = both("parallel --will-cite --joblog jl.gnu " + args + "; s=$?; cut -f1,7 jl.gnu; exit $s",
                "\"$B\" par --joblog jl.ours " + args + "; s=$?; cut -f1,7 jl.ours; exit $s");
        Out gnu = runs[0];
        Out ours = runs[1];
        assertThat(ours.stderr).isEqualTo(gnu.stderr.replace("parallel: ", "brisk: ")).doesNotContain("Terminated");
        assertThat(ours.stdout).isEqualTo(gnu.stdout);
        assertThat(ours.status).isEqualTo(gnu.status);
    }

    /** With {@code -k} the job log is written in input order too, as GNU parallel writes it. */
    @Test
    void keepOrderLogsInInputOrder() throws Exception {
        String args = "-k -j2 'sleep {}' ::: 1 0.1 0.2";
        Out[] runs = both("parallel --will-cite --joblog jl.kgnu " + args + "; cut -f1,7 jl.kgnu",
                "\"$B\" par --joblog jl.kours " + args + "; cut -f1,7 jl.kours");
        assertThat(runs[0].stdout).isEqualTo("Seq\tExitval\n1\t0\n2\t0\n3\t0\n");
        assertThat(runs[1]).isEqualTo(runs[0]);
    }

    @Test
    void badInputIsOneLineAndStatus255() throws Exception {
        for (String bad : List.of("--bogus echo", "-a /nonexistent echo", "--halt sometime echo ::: a", "-j x echo ::: a",
                "--timeout -1 echo ::: a", "--term-seq NOPE echo ::: a", "--resume echo ::: a")) {
            Out o = sh("\"$B\" par " + bad);
            assertThat(o.status).as(bad).isEqualTo(255);
            assertThat(o.stderr).as(bad).doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(o.stderr.lines().findFirst().orElse("")).as(bad).startsWith("brisk");
        }
    }

    @Test
    void helpIsCleanAndNoJobsMeansSuccess() throws Exception {
        Out help = sh("\"$B\" par --help");
        assertThat(help.status).isZero();
        assertThat(help.stdout).contains("--joblog").contains("{%}");
        assertThat(help.stderr).isEmpty();
        assertThat(sh("\"$B\" par echo ::: ; printf '' | \"$B\" par echo; echo $?").stdout).isEqualTo("0\n");
        Out noShell = sh("\"$B\" par --shell no-such-shell-brisk echo ::: a");
        assertThat(noShell.status).isEqualTo(255);
        assertThat(noShell.stderr).contains("no-such-shell-brisk").doesNotContain("Exception");
    }

    /**
     * A reader that goes away ({@code | head}) ends the run as under GNU parallel (status and
     * not a word on stderr), on every output path: direct spawns, the warm dash, held {@code -k}
     * output, {@code --tag}. The closed pipe is recognised on the descriptor, never by a message.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "-k", "--tag", "-k --tag"})
    void aReaderThatGoesAwayEndsTheRunAsGnuParallels(String opts) throws Exception {
        String run = " -j2 " + opts + " seq 20000 ::: $(seq 30) 2>ERR | head -c 10 >/dev/null; echo \"${PIPESTATUS[0]}\"; cat ERR";
        Out[] runs = both("parallel --will-cite" + run.replace("ERR", "err.gnu"), "\"$B\" par" + run.replace("ERR", "err.ours"));
        assertThat(runs[1].stdout()).as(opts).isEqualTo(runs[0].stdout());
    }

    @Test
    void resumeWithAJoblogThatDoesNotMatchIs255() throws Exception {
        sh("\"$B\" par --joblog jl.mismatch 'exit {}' ::: 1 2");
        Out o = sh("\"$B\" par --joblog jl.mismatch --resume-failed 'echo {}' ::: 1 2");
        assertThat(o.status).isEqualTo(255);
        assertThat(o.stderr).contains("does not match");
    }

    @Test
    void walkRunsOverEveryFileWithExactNames() throws Exception {
        Out o = sh("\"$B\" par -k --walk odd 'printf \"%s\\0\" {/}' | sort -z | tr '\\0' '|'");
        assertThat(o.stdout).isEqualTo("-leading|My brother's 12\" *** record (costs $$$).jpg|new\nline|plain.txt|");
        Out sums = sh("\"$B\" par --walk odd md5sum | wc -l; \"$B\" par --walk odd --walk-name '*.txt' cat");
        assertThat(sums.stdout).isEqualTo("4\n4444");
    }

    @Test
    void outputLargerThanTheHeapPassesThroughInOrder() throws Exception {
        Out o = sh("cmp <(BRISK_JVM_OPTS=-Xmx24m \"$B\" par -k -j2 'sleep 0.$((3 - {})); head -c 60000000 /dev/zero | tr \"\\0\" {}'"
                + " ::: 1 2) <(head -c 60000000 /dev/zero | tr '\\0' 1; head -c 60000000 /dev/zero | tr '\\0' 2) && echo same");
        assertThat(o.stdout).as(o.stderr).isEqualTo("same\n");
    }

    @Test
    void ctrlCKillsEveryJobAndExits130() throws Exception {
        // the marker is spelt m-PID in the script, so pgrep does not find the script itself
        String pid = Long.toString(ProcessHandle.current().pid());
        Out o = sh("set -m; m=brisk-int; \"$B\" par -j3 \"sh -c 'sleep 30; : $m-" + pid + "' {}\" ::: 1 2 3 & pid=$!;"
                + until("$(pgrep -f $m-" + pid + " | wc -l) -ge 3", 200)
                + " kill -INT $pid; wait $pid; echo status=$?;" + until("$(pgrep -f $m-" + pid + " | wc -l) = 0", 10)
                + " pgrep -f $m-" + pid + " | wc -l");
        assertThat(o.stdout).isEqualTo("status=130\n0\n");
    }

    @Test
    void ctrlCKillsEveryPartOfADirectPipeline() throws Exception {
        String pid = Long.toString(ProcessHandle.current().pid());
        String count = "$(pgrep -f 'sleep [78][.]" + pid + "' | wc -l)";
        Out o = sh("set -m; \"$B\" par -j2 'sleep 7{} | sleep 8{}' ::: ." + pid + "1 ." + pid + "2 & pid=$!;" + until(count + " -ge 4", 200)
                + " echo running=" + count + "; kill -INT $pid; wait $pid; echo status=$?;" + until(count + " = 0", 10)
                + " echo " + count);
        assertThat(o.stdout).isEqualTo("running=4\nstatus=130\n0\n");
    }

    /**
     * Bash that waits until {@code [ condition ]} holds, checking every 50 ms, at most {@code
     * checks} times: a wait for what a test then asserts, which ends as soon as it holds.
     */
    private static String until(String condition, int checks) {
        return " for i in $(seq " + checks + "); do [ " + condition + " ] && break; sleep 0.05; done;";
    }

    @Test
    void killMinus9LeavesNoTempFilesAndNoOrphansPastTheirEnd() throws Exception {
        String pid = Long.toString(ProcessHandle.current().pid());
        Path tmp = Files.createDirectories(dir.resolve("k9tmp"));
        String count = "$(pgrep -f $m-" + pid + " | wc -l)";
        Out o = sh("m=brisk-k9; TMPDIR=" + tmp + " \"$B\" par -k -j2 \"sh -c 'sleep 1.5; : $m-" + pid + "' {}; head -c 5000000 /dev/zero\""
                + " ::: 1 2 3 4 > /dev/null & pid=$!;" + until(count + " -ge 1", 200) + " echo running=" + count + "; kill -9 $pid; wait $pid;"
                + " echo status=$?; ls -A " + tmp + " | wc -l;" + until(count + " = 0", 50) + " echo " + count);
        assertThat(o.stdout).matches("running=[1-9]\nstatus=137\n0\n0\n");
    }

    /**
     * Batched jobs ({@code -X}, {@code -m}, {@code -n}) of a program are spawned directly: every
     * name reaches it as one argument, byte for byte, as GNU parallel and xargs pass it.
     */
    @Test
    void batchedJobsPassOddNamesAsGnuParallelAndXargsDo() throws Exception {
        sh("""
            mkdir -p oddx && cd oddx
            for f in $'new\\nline' $'bad\\xff\\xfe' "My brother's 12\\" *** record (costs \\$\\$\\$).jpg" -leading 'back\\slash' \\
                'sp ace' "it's" '$(touch pwned)' 'a;b' '*'; do
              printf '%s' "$f" > "./$f"
            done
            """);
        String list = "export LC_ALL=C; find oddx -type f -print0 | sort -z | ";
        Out xargs = sh(list + "xargs -0 md5sum");
        assertThat(xargs.stdout.lines()).hasSize(10);
        assertThat(sh(list + "\"$B\" par -0 -k -X md5sum")).isEqualTo(xargs);
        assertThat(sh(list + "\"$B\" par -0 -k -j1 -m md5sum")).isEqualTo(xargs);
        assertThat(sh(list + "\"$B\" par -0 -k -n 3 md5sum")).isEqualTo(xargs);
        // argument boundaries are exact: the script prints each argument NUL-terminated, a newline per batch
        Out xargsArgs = sh(list + "xargs -0 ./args.sh");
        assertThat(sh(list + "\"$B\" par -0 -k -j1 -X ./args.sh")).isEqualTo(xargsArgs);
        assertThat(sh(list + "\"$B\" par -0 -k -n 4 ./args.sh")).isEqualTo(sh(list + "xargs -0 -n 4 ./args.sh"));
        for (String args : List.of("-0 -k -X ./args.sh", "-0 -k -X ./args.sh x{}y {#} z", "-0 -k -m ./args.sh pre{}post",
                "-0 -k -X 'md5sum {} | cut -c1-32'", "-0 -k -X 'cat x{} {} | md5sum'", "-0 -k -n 2 --tag md5sum")) {
            Out[] runs = both(list + "parallel --will-cite " + args, list + "\"$B\" par " + args);
            assertThat(runs[1]).as(args).isEqualTo(runs[0]);
        }
        // a name with a leading dash, given bare, is an option to the program in every tool
        Out gnu = sh("cd oddx && printf '%s\\0' * | parallel --will-cite -0 -k -X md5sum");
        Out ours = sh("cd oddx && printf '%s\\0' * | \"$B\" par -0 -k -X md5sum");
        assertThat(ours.stdout).isEqualTo(gnu.stdout);
        assertThat(ours.status).isEqualTo(gnu.status).isNotZero();
        assertThat(Files.exists(dir.resolve("pwned")) || Files.exists(dir.resolve("oddx/pwned"))).isFalse();
    }

    /** Batches fill up to the limit ({@code -s}, by default GNU parallel's 63664 bytes) and never pass it; no item is lost or repeated. */
    @Test
    void batchesStayUnderTheArgumentLimit() throws Exception {
        Path sizes = dir.resolve("sizes.sh");
        Files.writeString(sizes, "#!/bin/sh\nn=0; for a; do n=$((n + ${#a} + 1)); done; echo \"$# $n\"\n");
        Files.setPosixFilePermissions(sizes, PosixFilePermissions.fromString("rwx------"));
        String items = "for i in $(seq 3000); do printf 'dir/%0150d\\0' $i; done | ";
        for (int limit : List.of(JOB_LIMIT, 20_000)) {
            String s = limit == JOB_LIMIT ? "" : " -s " + limit;
            Out o = sh(items + "\"$B\" par -0 -k -j2 -X" + s + " ./sizes.sh");
            List<long[]> batches = o.stdout.lines().map(l -> java.util.Arrays.stream(l.split(" ")).mapToLong(Long::parseLong).toArray())
                    .toList();
            assertThat(o.status).as(o.stderr).isZero();
            assertThat(batches.stream().mapToLong(b -> b[0]).sum()).isEqualTo(3000);
            assertThat(batches).as("limit %d", limit).hasSizeGreaterThanOrEqualTo(3000 * 155 / limit + 1)
                    .allSatisfy(b -> assertThat(b[1]).isLessThanOrEqualTo(limit));
            // each batch but the last two is full: one more name (155 bytes) would not have fitted;
            // the job that takes the rest of the input spreads it over the two slots, as GNU parallel's
            assertThat(batches.subList(0, batches.size() - 2)).allSatisfy(b -> assertThat(b[1]).isGreaterThan(limit * 9 / 10));
        }
        // an -s beyond what a command can hold: GNU parallel's warning, then the largest that fits
        Out huge = sh(items + "\"$B\" par -0 -k -j2 -X -s 2000000000 ./sizes.sh");
        assertThat(huge.status).as(huge.stderr).isZero();
        assertThat(huge.stderr).isEqualTo("brisk: Warning: Value for option -s should be < " + JOB_LIMIT + ".\n");
        assertThat(huge.stdout.lines().mapToLong(l -> Long.parseLong(l.split(" ")[0])).sum()).isEqualTo(3000);
        assertThat(huge.stdout.lines()).allSatisfy(l -> assertThat(Long.parseLong(l.split(" ")[1])).isLessThanOrEqualTo(JOB_LIMIT));
        Out beyondLong = sh("\"$B\" par -X -s 99999999999999 echo ::: a b");
        assertThat(beyondLong.status).as(beyondLong.stderr).isZero();
        assertThat(beyondLong.stderr).startsWith("brisk: Warning: Value for option -s should be < ");
        // GNU parallel passes the same names in the same order
        Out ours = sh(items + "\"$B\" par -0 -k -j2 -X ./args.sh | tr -d '\\n'");
        Out gnu = sh(items + "parallel --will-cite -0 -k -j2 -X ./args.sh | tr -d '\\n'");
        assertThat(ours.stdout).hasSize(3000 * 155).isEqualTo(gnu.stdout);
    }

    /**
     * One value longer than GNU parallel's usable length runs whole (a documented difference:
     * GNU parallel stops with "Command line too long"), up to what the kernel takes.
     */
    @Test
    @Timeout(60)
    void oneValueLongerThanGnusLimitRuns() throws Exception {
        String make = "head -c 100000 /dev/zero | tr '\\0' a > long1; echo >> long1; ";
        Out ours = sh(make + "\"$B\" par echo :::: long1 | wc -c");
        assertThat(ours.stdout.strip()).as(ours.stderr).isEqualTo("100001");
        Out gnu = sh(make + "parallel --will-cite echo :::: long1 2>&1 >/dev/null | cut -c1-60");
        assertThat(gnu.stdout).startsWith("parallel: Error: Command line too long (100005 >= " + JOB_LIMIT + ")");
    }

    /** GNU parallel's usable length: (its measured 130329 - 3000) / 2. */
    private static final int JOB_LIMIT = 63664;

    /**
     * The library names a bad value by its option's component ({@code retries}); par says it
     * with its own flags, as it always has (each case: the arguments, then the one line of stderr).
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "--retries -1 echo ::: a|--retries must not be negative, got -1",
        "--load 1x echo ::: a|Parsing of --load failed.",
        "--block 0 --pipe cat|--block must be at least 1 byte, got 0",
        "--delay -1e-12 echo ::: a|--delay must not be negative, got -1.0E-12",
        "--delay -1 --retries -1 echo ::: a|--delay must not be negative, got -1.0",
        "--resume-failed echo ::: a|--resume, --resume-failed and --retry-failed need --joblog",
        "--term-seq TERM,-5 echo ::: a|a --term-seq wait must not be negative, got -5",
        "--env 1x -S : echo ::: a|--env: not a variable name: '1x'",
        "--timeout 1e-12 echo ::: a|--timeout must be seconds or percentage.",
        "--timeout 0 echo ::: a|--timeout must be positive, got 0",
    })
    @Timeout(60)
    void badValuesAreNamedByTheirFlags(String argsAndMessage) throws Exception {
        String[] c = argsAndMessage.split("\\|");
        Out o = sh("\"$B\" par " + c[0] + " </dev/null");
        assertThat(o.stderr).isEqualTo("brisk par: " + c[1] + "\n");
        assertThat(o.stdout).isEmpty();
        assertThat(o.status).isEqualTo(255);
    }
}
