// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Timeouts, dying workers, concurrency, and cleanup: each test makes its own pool. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShellPoolLifecycleTest {

    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void aTimeoutKillsTheWholeGroupAndThePoolGoesOn(String shell) throws Exception {
        String m = Procs.marker();
        try (ShellPool pool = ShellPool.builder().shell(shell).workers(1).killGrace(Duration.ofMillis(200)).build()) {
            Command c = Command.of("sh -c 'sleep " + m + " & sleep " + m + "' & sleep " + m + "; echo never")
                    .timeout(Duration.ofMillis(300));
            CommandResult r = pool.run(c);
            assertThat(r.timedOut()).isTrue();
            assertThat(r.ok()).isFalse();
            assertThat(r.exitCode()).isIn(143, 137);
            assertThat(r.stdoutText()).doesNotContain("never");
            assertThat(Procs.awaitNone(m, 5)).as("grandchildren left").isEmpty();
            long worker = Long.parseLong(pool.run("echo $$").stdoutText().trim());
            // orphans go to init, which reaps them (or not: some containers' PID 1 does not);
            // what the worker and the JVM started, they reap
            assertThat(Procs.zombiesOf(worker, ProcessHandle.current().pid())).as("zombies of ours").isEmpty();
            assertThat(pool.run("echo alive").stdoutText()).isEqualTo("alive\n");
        }
    }

    @Test
    void aCommandThatIgnoresTermIsKilled() throws Exception {
        String m = Procs.marker();
        try (ShellPool pool = ShellPool.builder().workers(1).killGrace(Duration.ofMillis(100)).build()) {
            CommandResult r = pool.run(Command.of("trap '' TERM; sleep " + m + "; sleep " + m).timeout(Duration.ofMillis(200)));
            assertThat(r.timedOut()).isTrue();
            assertThat(r.exitCode()).isEqualTo(137);
            assertThat(Procs.awaitNone(m, 5)).isEmpty();
        }
    }

    /**
     * The command's shell dies of the TERM at once, leaving a child that ignores it: the KILL
     * after the grace must still reach the command's group.
     */
    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void aTimeoutKillsAChildThatIgnoresTermAfterItsShellHasDied(String shell) throws Exception {
        String m = Procs.marker();
        try (ShellPool pool = ShellPool.builder().shell(shell).workers(1).build()) {
            CommandResult r = pool.run(Command.of("sleep " + m + " & (trap '' TERM; exec sleep " + m + ") & wait")
                    .timeout(Duration.ofMillis(500)));
            assertThat(r.timedOut()).isTrue();
            assertThat(r.exitCode()).isGreaterThanOrEqualTo(128);
            assertThat(Procs.awaitNone(m, 5)).as("left of the timed-out command").isEmpty();
            assertThat(pool.run("echo next").stdoutText()).isEqualTo("next\n");
        }
    }

    /** A plain external command (a script), which the pool spawns without the shell. */
    @Test
    void aTimeoutKillsWhatADirectlySpawnedCommandLeftIgnoringTerm(@TempDir Path dir) throws Exception {
        String m = Procs.marker();
        Path script = dir.resolve("ignores-term");
        Files.writeString(script, "#!/bin/sh\nsleep " + m + " & (trap '' TERM; exec sleep " + m + ") & wait\n");
        script.toFile().setExecutable(true);
        try (ShellPool pool = ShellPool.builder().workers(1).build()) {
            CommandResult r = pool.run(Command.of(script.toString()).timeout(Duration.ofMillis(500)));
            assertThat(r.timedOut()).isTrue();
            assertThat(Procs.awaitNone(m, 5)).as("left of the timed-out command").isEmpty();
        }
    }

    @Test
    void aSessionTimeoutKillsAChildThatIgnoresTerm() throws Exception {
        String m = Procs.marker();
        try (ShellPool pool = ShellPool.builder().workers(1).build(); ShellSession s = pool.session()) {
            CommandResult r = s.run(Command.of("sleep " + m + " & (trap '' TERM; exec sleep " + m + ") & wait")
                    .timeout(Duration.ofMillis(500)));
            assertThat(r.timedOut()).isTrue();
            assertThat(Procs.awaitNone(m, 5)).as("left of the timed-out command").isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void aCancelledCommandLeavesNothingOfItsGroup(String shell) throws Exception {
        String m = Procs.marker();
        try (ShellPool pool = ShellPool.builder().shell(shell).workers(1).build()) {
            java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
            Thread caller = new Thread(() -> {
                try {
                    pool.run("sleep " + m + " & (trap '' TERM; exec sleep " + m + ") & wait");
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            caller.start();
            while (Procs.withMarker(m).size() < 2) {
                Thread.sleep(10);
            }
            caller.interrupt();
            caller.join(10_000);
            assertThat(thrown.get()).isInstanceOf(ShellException.class);
            assertThat(Procs.awaitNone(m, 5)).as("left of the cancelled command").isEmpty();
            assertThat(pool.run("echo next").stdoutText()).isEqualTo("next\n");
        }
    }

    @Test
    void commandsEndingRightAtTheirTimeoutGiveAResultNeverAnException() throws Exception {
        try (ShellPool pool = ShellPool.builder().workers(2).killGrace(Duration.ofMillis(100)).build()) {
            List<CompletableFuture<CommandResult>> all = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                all.add(pool.submit(Command.of(String.format("sleep 0.%03d", 92 + i % 9)).timeout(Duration.ofMillis(100))));
            }
            for (CompletableFuture<CommandResult> f : all) {
                CommandResult r = f.join();
                assertThat(r.timedOut() ? r.exitCode() >= 128 || r.exitCode() == 0 : r.exitCode() == 0).as(r.toString()).isTrue();
            }
            assertThat(pool.run("echo fine").stdoutText()).isEqualTo("fine\n");
        }
    }

    @Test
    void aCommandThatStopsItselfStillTimesOutAndIsKilled() throws Exception {
        String m = Procs.marker();
        try (ShellPool pool = ShellPool.builder().workers(1).killGrace(Duration.ofMillis(200)).build()) {
            CommandResult r = pool.run(Command.of("sleep " + m + " & echo before; kill -STOP $BASHPID; echo after")
                    .timeout(Duration.ofMillis(300)));
            assertThat(r.timedOut()).isTrue();
            assertThat(r.stdoutText()).isEqualTo("before\n");
            assertThat(Procs.awaitNone(m, 5)).isEmpty();
            assertThat(pool.run("echo next").stdoutText()).isEqualTo("next\n");
        }
    }

    @Test
    void anInterruptedCallerStopsWaitingForAWorker() throws Exception {
        try (ShellPool pool = ShellPool.builder().workers(1).build()) {
            CompletableFuture<CommandResult> busy = pool.submit(Command.of("sleep 2"));
            Thread.sleep(200);
            java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    pool.run("echo never");
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            waiter.start();
            Thread.sleep(200);
            waiter.interrupt();
            waiter.join(5000);
            assertThat(waiter.isAlive()).isFalse();
            assertThat(thrown.get()).isInstanceOf(ShellException.class).hasMessageContaining("interrupted");
            assertThat(busy.join().exitCode()).isZero();
        }
    }

    @Test
    void theDefaultTimeoutApplies() {
        try (ShellPool pool = ShellPool.builder().workers(1).timeout(Duration.ofMillis(200)).build()) {
            assertThat(pool.run("sleep 30").timedOut()).isTrue();
            assertThat(pool.run("echo quick").timedOut()).isFalse();
        }
    }

    @Test
    void aWorkerKilledFromOutsideFailsOnlyItsCommand(@TempDir Path dir) throws Exception {
        try (ShellPool pool = ShellPool.builder().workers(2).build()) {
            Path pidFile = dir.resolve("pid");
            CompletableFuture<CommandResult> victim = pool.submit(Command.of("echo $$ > '" + pidFile + ".tmp'; mv '"
                    + pidFile + ".tmp' '" + pidFile + "'; sleep 30"));
            CompletableFuture<CommandResult> bystander = pool.submit(Command.of("sleep 0.5; echo bystander"));
            while (!Files.exists(pidFile)) {
                Thread.sleep(10);
            }
            long workerPid = Long.parseLong(Files.readString(pidFile).trim());
            new ProcessBuilder("kill", "-9", Long.toString(workerPid)).start().waitFor();
            assertThatThrownBy(victim::join).isInstanceOf(CompletionException.class)
                    .cause().isInstanceOf(ShellException.class).hasMessageContaining("died");
            assertThat(bystander.join().stdoutText()).isEqualTo("bystander\n");
            for (int i = 0; i < 6; i++) {
                assertThat(pool.run("echo $$").exitCode()).isZero();
            }
            assertThat(Procs.awaitGone(workerPid, 5)).isTrue();
        }
    }

    @Test
    void aWorkerThatDiedWhileIdleIsReplacedWithoutFailingTheNextCommand() throws Exception {
        try (ShellPool pool = ShellPool.builder().workers(1).build()) {
            long workerPid = Long.parseLong(pool.run("echo $$").stdoutText().trim());
            new ProcessBuilder("kill", "-9", Long.toString(workerPid)).start().waitFor();
            assertThat(Procs.awaitGone(workerPid, 5)).isTrue();
            CommandResult r = pool.run("echo $$");
            assertThat(r.exitCode()).isZero();
            assertThat(Long.parseLong(r.stdoutText().trim())).isNotEqualTo(workerPid);
        }
    }

    /**
     * 1,000 commands: each of the four workers is taken ~250 times by eight racing callers, and
     * every exit status 0-255 comes back; 4,000 took 33 s of the test run on a machine where a
     * fork costs 3-8 ms, for no further case.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aThousandMixedCommandsFromEightThreadsKeepTheirOwnResults() throws Exception {
        try (ShellPool pool = ShellPool.builder().workers(4).build()) {
            ExecutorService callers = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int thread = t;
                    done.add(callers.submit(() -> {
                        for (int i = 0; i < 125; i++) {
                            String id = thread + "-" + i;
                            int code = (thread * 125 + i) % 256;
                            CommandResult r = switch (i % 4) {
                                case 0 -> pool.run("echo " + id + "; exit " + code);
                                case 1 -> pool.run("printf %s " + id + " >&2; exit " + code);
                                case 2 -> pool.run(Command.of("cat; exit " + code).stdin(id.getBytes(StandardCharsets.UTF_8)));
                                default -> pool.run(Command.of("printf %s \"$ID\"; exit " + code).env("ID", id));
                            };
                            String want = i % 4 == 0 ? id + "\n" : id;
                            String got = i % 4 == 1 ? r.stderrText() : r.stdoutText();
                            if (!got.equals(want) || r.exitCode() != code) {
                                throw new AssertionError("command " + id + " got " + r + " out=" + got);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                callers.shutdownNow();
            }
        }
    }

    @Test
    void closeLeavesNoProcess() throws Exception {
        String m = Procs.marker();
        List<Long> workers = new ArrayList<>();
        ShellPool pool = ShellPool.builder().workers(3).build();
        List<CompletableFuture<CommandResult>> all = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            all.add(pool.submit(Command.of("sleep " + m + " & echo $$; sleep 0.3")));
        }
        for (CompletableFuture<CommandResult> f : all) {
            workers.add(Long.parseLong(f.join().stdoutText().trim()));
        }
        CompletableFuture<CommandResult> running = pool.submit(Command.of("sleep " + m));
        Thread.sleep(100);
        pool.close();
        assertThatThrownBy(running::join).cause().isInstanceOf(ShellException.class);
        for (long pid : workers) {
            assertThat(Procs.gone(pid)).as("worker %d", pid).isTrue();
        }
        assertThat(Procs.awaitNone(m, 5)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"KILL", "EXIT"})
    void theJvmEndingTakesTheWorkersAlong(String how) throws Exception {
        String m = Procs.marker();
        String cp = System.getProperty("java.class.path");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", cp,
                PoolChild.class.getName(), m, how).redirectErrorStream(true).start();
        String line = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        assertThat(line).as("the child's worker pids").isNotNull();
        List<Long> workerPids = new ArrayList<>();
        for (String s : line.trim().split("\\s+")) {
            workerPids.add(Long.parseLong(s));
        }
        assertThat(Procs.withMarker(m)).isNotEmpty();
        child.getOutputStream().write('\n');
        child.getOutputStream().flush();
        if (how.equals("KILL")) {
            new ProcessBuilder("kill", "-9", Long.toString(child.pid())).start().waitFor();
        }
        child.waitFor(20, TimeUnit.SECONDS);
        assertThat(Procs.awaitNone(m, 10)).as("processes left by the dead JVM").isEmpty();
        for (long pid : workerPids) {
            assertThat(Procs.awaitGone(pid, 5)).as("worker %d", pid).isTrue();
        }
    }
}
