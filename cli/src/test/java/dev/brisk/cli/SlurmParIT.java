// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The packaged {@code brisk par --slurm} and {@code --slurm-submit} on a real three-node Slurm
 * cluster ({@link SlurmCluster}): the same job lists give the same output, {@code -k} order and
 * exit status as run here; a cancelled step or a crashed node loses and duplicates nothing;
 * {@code --resume} after the allocation ended runs only what is left; bad use gets one line and
 * 255.
 */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SlurmParIT {
    @TempDir
    static Path dir;
    static Path brisk;
    static SlurmCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        brisk = BriskProcess.launcher(dir, "rwxr-xr-x");
        cluster = SlurmCluster.start();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    record Out(String stdout, String stderr, int status) {
        List<String> lines() {
            return stdout.lines().toList();
        }
    }

    /** Runs {@code script} under bash in the test directory, with the cluster's SLURM_CONF and $B the brisk command. */
    static Out sh(String script) throws IOException, InterruptedException {
        ProcessBuilder pb = cluster.command(List.of("bash", "-c", script)).directory(dir.toFile());
        pb.environment().put("B", brisk.toString());
        // srun passes it on: the agents' files stay in the test's directory, even those of a crashed node
        pb.environment().put("TMPDIR", dir.toString());
        Path o = Files.createTempFile(dir, "o", "");
        Path e = Files.createTempFile(dir, "e", "");
        pb.redirectOutput(o.toFile()).redirectError(e.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        if (!p.waitFor(100, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("did not finish in 100 s: " + script + "\n" + Files.readString(e, StandardCharsets.ISO_8859_1));
        }
        return new Out(Files.readString(o, StandardCharsets.ISO_8859_1), Files.readString(e, StandardCharsets.ISO_8859_1), p.exitValue());
    }

    static String seq(int from, int to) {
        return String.join(" ", IntStream.rangeClosed(from, to).mapToObj(Integer::toString).toList());
    }

    /** Same stdout, stderr and exit status under --slurm on 3 nodes as run here. */
    @ParameterizedTest
    @ValueSource(strings = {
        "-k 'printf \"%s\\n\" {}; printf \"e%s\" {} >&2' ::: " + "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25",
        "-k 'echo {}; exit $(({} % 4))' ::: 1 2 3 4 5 6 7 8 9 10 11 12",
        "-k --tag echo ::: a 'b c' \"it's\" ::: 1 2",
        "-k -n2 echo {#} ::: 1 2 3 4 5",
        "-k printf 'x%s' ::: $'\\xff\\xfe' ''",
        "-k 'sleep 0.0{}; echo {}' ::: 5 3 1 4 2 < /dev/null",
        "-k -j1 echo got < <(seq 1 12)",
    })
    void sameOutputOrderAndStatusAsLocally(String args) throws Exception {
        Out local = sh("$B par " + args);
        Out slurm = sh("salloc -Q -N 3 $B par --slurm " + args);
        assertThat(slurm.stdout()).as("stdout of %s", args).isEqualTo(local.stdout());
        assertThat(slurm.stderr()).as("stderr of %s", args).isEqualTo(local.stderr());
        assertThat(slurm.status()).as("status of %s", args).isEqualTo(local.status());
    }

    @Test
    void theJobLogNamesTheNodes() throws Exception {
        Out o = sh("salloc -Q -N 3 $B par --slurm --joblog jl-nodes 'sleep 0.2; echo {}' ::: " + seq(1, 12) + "; cat jl-nodes");
        assertThat(o.status()).isZero();
        List<String> log = o.lines().stream().filter(l -> l.contains("\t")).toList();
        assertThat(log.getFirst()).startsWith("Seq\tHost\t");
        Set<String> hosts = Set.copyOf(log.stream().skip(1).map(l -> l.split("\t")[1]).toList());
        // 12 jobs of 0.2 s on 3 nodes of 1 slot each: every node takes some
        assertThat(hosts).isEqualTo(Set.copyOf(SlurmCluster.NODES));
    }

    @Test
    void badUseGetsOneLineAnd255() throws Exception {
        Out outside = sh("$B par --slurm echo ::: a");
        assertThat(outside.status()).isEqualTo(255);
        assertThat(outside.stderr()).isEqualTo("brisk par: --slurm: not inside a Slurm allocation (no SLURM_JOB_ID or"
                + " SLURM_JOB_NODELIST): run it under salloc or sbatch, or use --slurm-submit\n");
        Out noSrun = sh("SLURM_JOB_ID=1 SLURM_JOB_NODELIST=n1 PATH=/nonexistent $B par --slurm echo ::: a");
        assertThat(noSrun.status()).isEqualTo(255);
        assertThat(noSrun.stderr()).isEqualTo("brisk par: --slurm: srun not found on PATH\n");
        Out both = sh("$B par --slurm --slurm-submit '-N 1' echo ::: a");
        assertThat(both.status()).isEqualTo(255);
        assertThat(both.stderr()).isEqualTo("brisk par: --slurm and --slurm-submit exclude each other\n");
        Out refused = sh("$B par --slurm-submit '--no-such-option' echo ::: a");
        assertThat(refused.status()).isEqualTo(255);
        assertThat(refused.stderr().lines().toList()).hasSize(1).first().asString()
                .startsWith("brisk par: --slurm-submit: sbatch refused the job: ").contains("no-such-option");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".brisk-slurm."));
        }
    }

    /**
     * Starts a 40-job run in the background under salloc and waits until 8 jobs have ended (the
     * joblog's header and 8 lines); returns the shell's pid file and output files' prefix.
     */
    private static String background(String name, String salloc) {
        return "(" + salloc + " $B par --slurm -j2 --joblog " + name + ".jl 'sleep 0.3; echo {}' ::: " + seq(1, 40)
                + " > " + name + ".out 2> " + name + ".err; echo $? > " + name + ".status) &\n"
                + "while [ \"$(wc -l < " + name + ".jl 2>/dev/null || echo 0)\" -lt 9 ]; do sleep 0.05; done\n";
    }

    private static void assertEachOnce(String name) throws IOException {
        List<String> out = Files.readAllLines(dir.resolve(name + ".out"));
        assertThat(out).as(Files.readString(dir.resolve(name + ".err"))).containsExactlyInAnyOrderElementsOf(
                IntStream.rangeClosed(1, 40).mapToObj(Integer::toString).toList());
        List<String> seqs = Files.readAllLines(dir.resolve(name + ".jl")).stream().skip(1).map(l -> l.split("\t")[0]).toList();
        assertThat(seqs).doesNotHaveDuplicates().hasSize(40);
        assertThat(Files.readString(dir.resolve(name + ".status")).strip()).isEqualTo("0");
    }

    @Test
    void aCancelledStepLosesAndDuplicatesNothing() throws Exception {
        Out o = sh(background("cancel", "salloc -Q -N 3")
                + "step=$(squeue -h -s -o '%i %N' | awk '$2 == \"n2\" && $1 !~ /extern/ {print $1; exit}')\n"
                + "scancel \"$step\"; echo \"cancelled $step\"\n"
                + "wait\n");
        assertThat(o.stdout()).matches("cancelled [0-9]+\\.[0-9]+\\n");
        assertEachOnce("cancel");
        assertThat(Files.readString(dir.resolve("cancel.err"))).contains("lost host n2");
    }

    @Test
    void aCrashedNodeLosesAndDuplicatesNothing() throws Exception {
        Path go = dir.resolve("crash.go");
        Thread crasher = Thread.ofPlatform().start(() -> {
            try {
                while (!Files.exists(go)) {
                    Thread.sleep(20);
                }
                cluster.crash("n3");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try {
            // --no-kill: the allocation outlives a failed node, as a long run's should
            sh(background("crash", "salloc -Q --no-kill -N 3") + "touch crash.go\nwait\n");
            crasher.join();
            assertEachOnce("crash");
            assertThat(Files.readString(dir.resolve("crash.err"))).contains("lost host n3");
        } finally {
            crasher.interrupt();
            cluster.revive("n3");
        }
    }

    /** Bash that puts an squeue first on $PWD/sq that logs its arguments to sq/calls, then runs the real one. */
    private static final String SQUEUE_LOG = "mkdir -p sq; rm -f sq/calls; real=$(command -v squeue)\n"
            + "printf '#!/bin/sh\\necho \"$*\" >> %s/sq/calls\\nexec %s \"$@\"\\n' \"$PWD\" \"$real\" > sq/squeue; chmod +x sq/squeue\n";

    /**
     * The allocation watch asks Slurm only after a node's channel was lost: a healthy run starts
     * no squeue (one a second cost ~2% of the CPU here), while an ended allocation is still seen
     * ({@link #resumeAfterTheAllocationEndedRunsOnlyWhatIsLeft}).
     */
    @Test
    void aHealthyRunAsksSlurmNothing() throws Exception {
        Out o = sh(SQUEUE_LOG
                + "PATH=$PWD/sq:$PATH salloc -Q -N 3 $B par --slurm 'sleep 0.4; echo {}' ::: " + seq(1, 30) + " | wc -l\n"
                + "PATH=$PWD/sq:$PATH squeue -h -j 1 -o %T >/dev/null 2>&1; cat sq/calls\n");
        // 30 jobs of 0.4 s on 6 slots: 2 s and more, the old watch's two squeues and more; the
        // last line is the wrapper's own check (it works, and logs)
        assertThat(o.lines()).containsExactly("30", "-h -j 1 -o %T");
    }

    /**
     * An allocation that ends while the run waits for its next input (no job running, so no slot
     * finds a channel lost) still stops it: the channels' own end makes the watch ask Slurm.
     */
    @Test
    void anAllocationThatEndsWhileTheRunWaitsForInputStopsIt() throws Exception {
        Out o = sh(SQUEUE_LOG
                + "({ echo 1; exec sleep 50; } | { PATH=$PWD/sq:$PATH salloc -Q -N 3 $B par --slurm echo > idle.out 2> idle.err; echo $? > idle.status; }) &\n"
                + "bg=$!\n"
                + "until grep -q 1 idle.out 2>/dev/null; do sleep 0.05; done\n"
                + "scancel $(squeue -h -o %i -n interactive)\n"
                + "for i in $(seq 300); do grep -q 'allocation ended' idle.err && break; sleep 0.1; done\n"
                + "pkill -P \"$bg\" sleep; wait \"$bg\"\n"
                + "cat idle.status idle.err; grep -c . sq/calls 2>/dev/null || echo 0\n");
        assertThat(o.stdout()).startsWith("255\n").contains("brisk par: the Slurm allocation ended");
        // it asked through the logging squeue on the PATH, as aHealthyRunAsksSlurmNothing's run would have
        assertThat(o.lines().getLast()).isNotEqualTo("0");
    }

    @Test
    void resumeAfterTheAllocationEndedRunsOnlyWhatIsLeft() throws Exception {
        // scancel of the whole job stands for its time limit: Slurm ends every step the same way
        Out first = sh(background("ended", "salloc -Q -N 3")
                + "scancel $(squeue -h -o %i -n interactive)\nwait\ncat ended.status ended.err\n");
        assertThat(first.stdout()).startsWith("255\n").contains("brisk par: the Slurm allocation ended");
        List<String> done = Files.readAllLines(dir.resolve("ended.out"));
        assertThat(done).hasSizeBetween(8, 39).doesNotHaveDuplicates();
        Out second = sh("salloc -Q -N 3 $B par --slurm -j2 --resume --joblog ended.jl 'sleep 0.05; echo {}' ::: " + seq(1, 40));
        assertThat(second.status()).isZero();
        assertThat(second.lines()).doesNotContainAnyElementsOf(done);
        assertThat(Stream.concat(done.stream(), second.lines().stream()).toList())
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 40).mapToObj(Integer::toString).toList());
    }

    @Test
    void submitReturnsTheJobsOutputAndStatus() throws Exception {
        Out o = sh("$B par --slurm-submit '-N 3 --exclusive' -k 'echo {} $SLURM_JOB_NUM_NODES; exit $(({} % 2))' ::: 1 2 3 4 5");
        assertThat(o.stdout()).isEqualTo("1 3\n2 3\n3 3\n4 3\n5 3\n");
        assertThat(o.status()).isEqualTo(3);
        assertThat(o.stderr()).matches("brisk par: submitted batch job [0-9]+\\n");
        Out in = sh("seq 1 5 | $B par --slurm-submit '-N 2' -k --joblog submit.jl echo got; cut -f2 submit.jl | sort -u");
        assertThat(in.lines()).startsWith("got 1", "got 2", "got 3", "got 4", "got 5", "Host");
        assertThat(in.lines().subList(6, in.lines().size())).isSubsetOf(SlurmCluster.NODES).isNotEmpty();
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".brisk-slurm."));
        }
    }

    @Test
    void interruptingSubmitCancelsTheJob() throws Exception {
        // 40 s: a cancelled job has been seen to stay COMPLETING on the test cluster for over a
        // minute; were the cancel lost, the job would end by itself and no "cancelled" line appear
        // job control on, so that the background brisk does not start with SIGINT ignored
        Out o = sh("set -m\n$B par --slurm-submit '-N 1 -J brisk-int' 'sleep 40' ::: 1 2> int.err & pid=$!\n"
                + "until [ \"$(squeue -h -n brisk-int -o %T)\" = RUNNING ]; do sleep 0.05; done\n"
                + "job=$(squeue -h -n brisk-int -o %i)\n"
                + "kill -INT $pid; wait $pid; echo \"status $?\"\n"
                + "until [ -z \"$(squeue -h -j $job -o %T)\" ]; do sleep 0.05; done\n"
                + "echo gone; cat int.err\n");
        assertThat(o.lines()).startsWith("status 130", "gone");
        assertThat(o.stdout()).contains("brisk par: cancelled batch job");
    }

    @Test
    void submitSaysWhenTheJobEndedWithoutAStatus() throws Exception {
        // cancelled once the run inside is up (its node's step runs): cancelled earlier, the run
        // may itself fail to reach its node and record that status (255, no host) before it dies
        // (a status file here is local, written before Slurm marks the job done: half a second of
        // grace instead of the 5 s a shared file system's caches may need)
        Out o = sh("BRISK_JVM_OPTS=-Dbrisk.slurm.statusGraceMillis=500 $B par --slurm-submit '-N 1 -J brisk-gone' 'sleep 40' ::: 1 2> gone.err & pid=$!\n"
                + "until [ \"$(squeue -h -n brisk-gone -o %T)\" = RUNNING ]; do sleep 0.05; done\n"
                + "job=$(squeue -h -n brisk-gone -o %i)\n"
                + "until squeue -h -s -j $job -o %j | grep -qx brisk; do sleep 0.05; done\n"
                + "scancel $job; wait $pid; echo \"status $?\"; cat gone.err\n");
        // scancel sends TERM first: when the batch script outlives its command by a moment it
        // records the command's 143, which is then the status; else the job ended without one
        assertThat(o.lines().getFirst()).isIn("status 255", "status 143");
        if (o.lines().getFirst().equals("status 255")) {
            assertThat(o.stdout()).containsPattern("brisk par: --slurm-submit: batch job [0-9]+ ended [A-Z]+ without an exit status");
            assertThat(Arrays.stream(o.stdout().split("\n")).filter(l -> l.startsWith("brisk par: --slurm-submit"))).hasSize(1);
        }
    }
}
