// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brisk par --semaphore} (GNU's {@code sem}) and the options that imply it ({@code --id},
 * {@code --st}, {@code --bg}, {@code --fg}, {@code --wait}): the same bash script run with
 * {@code $P} as {@code parallel --will-cite} (GNU parallel 20221122) and as
 * {@code brisk par --will-cite}, each with a {@code $PARALLEL_HOME} of its own, with the same
 * stdout, stderr (GNU's {@code parallel:} read as {@code brisk par:}) and status. Concurrent calls
 * are real processes; what they did in what order is read from the files their jobs append to.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ParSemaphoreIT {
    @TempDir
    static Path dir;
    static Path brisk;
    private static final AtomicInteger RUN = new AtomicInteger();

    @BeforeAll
    static void launcher() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        Files.writeString(dir.resolve("in"), "from -a\n");
    }

    /** Runs {@code script} both ways (each in a directory of its own, {@code $PARALLEL_HOME} there) and asserts the same results. */
    private static Out same(String script) throws IOException, InterruptedException {
        int n = RUN.incrementAndGet();
        String head = "mkdir -p %s%d/home && cd %s%d && export PARALLEL_HOME=$PWD/home && P=%s; ";
        Out[] runs = GnuRuns.both(dir, brisk, head.formatted("g", n, "g", n, "'parallel --will-cite'") + script,
                head.formatted("b", n, "b", n, "\"$B par --will-cite\"") + script);
        assertThat(runs[1].stdout()).as("stdout of %s (stderr: %s)", script, runs[1].stderr()).isEqualTo(runs[0].stdout());
        assertThat(runs[1].stderr()).as("stderr of %s", script).isEqualTo(runs[0].stderr().replace("parallel: ", "brisk par: "));
        assertThat(runs[1].status()).as("status of %s", script).isEqualTo(runs[0].status());
        return runs[1];
    }

    @Test
    void oneCommandInTheForeground() throws Exception {
        Out o = same("$P --semaphore --fg echo a {} b; echo $?; $P --fg 'exit 3'; echo $?;"
                + " $P --semaphore-name x --fg -j3 'echo seq $PARALLEL_SEQ'; $P --semaphorename y --fg false; echo $?;"
                + " echo stdin | $P --id r --fg cat; $P --fg -a ../in cat; $P --fg 'kill -TERM $$'; echo $?");
        assertThat(o.stdout()).isEqualTo("a b\n0\n3\nseq 1\n1\nstdin\nfrom -a\n143\n");
    }

    /** Calls with one slot (-j1, the default) run one at a time: no job starts before the one before it ended. */
    @Test
    void oneSlotRunsOneAtATime() throws Exception {
        Out o = same("for i in 1 2 3 4; do $P --semaphore --fg --id m 'echo s >> log; sleep 0.2; echo e >> log' & done; wait; cat log");
        assertThat(o.stdout()).isEqualTo("s\ne\n".repeat(4));
    }

    /**
     * Calls with -j2 run two at once, never three: each job waits (up to 5 s) until two jobs have
     * started, and the most jobs seen running at once is counted from the log.
     */
    @Test
    void twoSlotsRunTwoAtOnce() throws Exception {
        String job = "'echo s >> log; n=0; while [ $(grep -c s log) -lt 2 ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n+1)); done;"
                + " echo e >> log'";
        Out o = same("for i in 1 2 3 4 5; do $P --id two -j2 --fg " + job + " & done; wait;"
                + " awk '$1 == \"s\" { n++ } $1 == \"e\" { n-- } n > m { m = n } END { print NR, m }' log");
        assertThat(o.stdout()).isEqualTo("10 2\n");
    }

    /** In the background (the default, or --bg) the call returns at once; --wait waits until no call holds a slot. */
    @Test
    void waitWaitsForTheBackgroundJobs() throws Exception {
        Out o = same("$P --semaphore --id w 'sleep 1; echo done1 >> f'; echo bg $?; $P --bg --id w -j2 'sleep 1; echo done2 >> f';"
                + " $P --semaphore --id w --wait echo not run; echo wait $?; sort f");
        assertThat(o.stdout()).isEqualTo("bg 0\nwait 0\ndone1\ndone2\n");
    }

    /**
     * The job's output is grouped, as GNU's sem groups it: none has reached the call's stdout
     * while the job runs (the job reads that file), stdout comes before stderr, in the foreground
     * and in the background; -u prints it as it comes (so does --lb, but GNU's lines come when its
     * loop next looks, so not compared here). --tag and --tagstring prefix each line, stderr's
     * too (a tag with sed's special characters as it is). The job's {@code $$} is its own shell's:
     * what it printed before it killed that shell is still printed.
     */
    @Test
    void outputIsGroupedAsGnusSemGroupsIt() throws Exception {
        Out o = same("$P --fg 'echo a; echo e >&2; cat out > seen; echo b; exit 3' >out 2>&1; echo $?; cat out; echo seen:; cat seen;"
                + " $P --id g 'echo a; cat out2 > seen2; echo b >&2; echo c' >out2 2>&1; $P --id g --wait; cat out2; echo seen2:; cat seen2;"
                + " $P -u --fg 'echo a; cat out3 > seen3' >out3; echo seen3:; cat seen3;"
                + " $P --tag --fg 'echo a; echo b >&2' 2>&1; $P --tagstring 'x/&\\\\y{}' --fg 'echo a; printf b' 2>&1; echo;"
                + " $P --fg 'echo a; kill -TERM $$; echo never' 2>&1; echo $?; $P --id g 'echo b; kill -TERM $$' >out5; $P --id g --wait; cat out5");
        assertThat(o.stdout()).startsWith("3\na\nb\ne\nseen:\na\nc\nb\nseen2:\nseen3:\na\n");
    }

    /**
     * Grouped output to a full disk: one line and 255, in the foreground and (said by the job's
     * holder) in the background, where GNU's sem says nothing and exits 0.
     */
    @Test
    void aFullDiskIsOneLineAnd255() throws Exception {
        Out o = GnuRuns.both(dir, brisk, "true", "export PARALLEL_HOME=$PWD/h-full; mkdir -p $PARALLEL_HOME;"
                + " \"$B\" par --fg 'echo a' >/dev/full; echo $? >&2; \"$B\" par --fg --tag 'echo a; exit 3' >/dev/full; echo $? >&2;"
                + " \"$B\" par --id f 'echo a' >/dev/full; \"$B\" par --id f --wait; \"$B\" par --fg 'echo a; echo b >&2' 2>/dev/null; echo $?")[1];
        assertThat(o.stderr()).isEqualTo("brisk par: No space left on device\n255\nbrisk par: No space left on device\n255\n"
                + "brisk par: No space left on device\n");
        assertThat(o.stdout()).isEqualTo("a\n0\n");
    }

    /** The grouped output's files are gone once their job runs, and when a call gives up waiting ({@code --st -1}). */
    @Test
    void noOutputFileIsLeft() throws Exception {
        Out o = GnuRuns.both(dir, brisk, "true", "export PARALLEL_HOME=$PWD/h-left; mkdir -p $PARALLEL_HOME t-left; export TMPDIR=$PWD/t-left;"
                + " \"$B\" par --id l 'sleep 2'; \"$B\" par --id l --st -1 --fg echo never; echo $?; ls t-left | wc -l;"
                + " \"$B\" par --id l --wait; ls t-left | wc -l")[1];
        assertThat(o.stdout()).as(o.stderr()).isEqualTo("1\n0\n0\n");
    }

    /** A directory for the grouped output that cannot be written: one line and status 255 at once, before any wait. */
    @Test
    void anUnwritableTmpdirIsOneLine() throws Exception {
        Out o = GnuRuns.both(dir, brisk, "true", "export PARALLEL_HOME=$PWD/h-tmp; mkdir -p $PARALLEL_HOME;"
                + " TMPDIR=/nonexistent \"$B\" par --semaphore --fg echo a; echo $?; \"$B\" par --tmpdir /nonexistent --fg echo a; echo $?;"
                + " TMPDIR=/nonexistent \"$B\" par -u --fg echo a; echo $?")[1];
        assertThat(o.stderr()).isEqualTo("brisk par: cannot make a temporary file in /nonexistent: No such file or directory\n".repeat(2));
        assertThat(o.stdout()).isEqualTo("255\n255\na\n0\n");
    }

    /** --st -N gives up after N seconds (status 1); --st N takes the slot anyway. */
    @Test
    void timeoutGivesUpOrSteals() throws Exception {
        Out o = same("$P --id t 'while [ ! -e go ]; do sleep 0.05; done; echo held >> log';"
                + " $P --id t --st -1 --fg echo never; echo st $?; $P --id t --semaphore-timeout 1 --fg echo stolen; echo st $?;"
                + " touch go; $P --id t --semaphoretimeout=30 --wait; cat log");
        assertThat(o.stdout()).isEqualTo("st 1\nstolen\nst 0\nheld\n");
        assertThat(o.stderr()).isEqualTo("brisk par: Warning: Semaphore timed out. Exiting.\n"
                + "brisk par: Warning: Semaphore timed out. Stealing the semaphore.\n");
    }
}
