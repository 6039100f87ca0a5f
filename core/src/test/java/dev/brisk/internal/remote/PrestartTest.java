// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Channels started early: taken by the open that wants them, killed when nobody does. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PrestartTest {
    @TempDir
    Path dir;

    @AfterEach
    void drop() {
        Prestart.discard();
    }

    /** A transport that notes each start (its pid) in {@code log}, then runs the agent's shell here. */
    private static Transport logged(String name, Path log) {
        return new FixedTransport(name, "/bin/sh", "-c", "echo $$ >> '" + log + "'; exec setsid /bin/sh -s");
    }

    @Test
    void anOpenTakesTheChannelStartedForItsCommand() throws Exception {
        Path log = dir.resolve("a.log");
        Transport t = logged("a", log);
        Prestart.begin(() -> List.of(t.command()));
        waitForLines(log, 1);
        try (RemoteShell s = RemoteShell.open(t, "", Map.of(), Duration.ofSeconds(10))) {
            RemoteShell.Result r = s.run(1, 1, "echo hi".getBytes(StandardCharsets.UTF_8), false);
            assertThat(new String(r.out().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("hi\n");
        }
        assertThat(Files.readAllLines(log)).as("started once, early").hasSize(1);
        // a second open of the same host (a reconnection) starts a new channel
        try (RemoteShell s = RemoteShell.open(t, "", Map.of(), Duration.ofSeconds(10))) {
            assertThat(s.run(1, 1, "true".getBytes(StandardCharsets.UTF_8), false).status()).isZero();
        }
        assertThat(Files.readAllLines(log)).hasSize(2);
    }

    /**
     * Opens that come at once, before the early processes have started (a run that is quick to
     * reach its hosts), wait for them and take them: each host is still started once.
     */
    @Test
    void opensThatComeBeforeTheirProcessStartedTakeIt() throws Exception {
        List<Path> logs = List.of(dir.resolve("x.log"), dir.resolve("y.log"), dir.resolve("z.log"));
        List<Transport> ts = List.of(logged("x", logs.get(0)), logged("y", logs.get(1)), logged("z", logs.get(2)));
        Prestart.begin(() -> ts.stream().map(Transport::command).toList());
        List<RemoteShell> shells = new java.util.concurrent.CopyOnWriteArrayList<>();
        try {
            // all three at once, as a run opens its hosts: y and z are taken while x's process starts
            try (var pool = java.util.concurrent.Executors.newFixedThreadPool(3)) {
                List<java.util.concurrent.Future<RemoteShell>> opened = new java.util.ArrayList<>();
                for (Transport t : ts) {
                    opened.add(pool.submit(() -> RemoteShell.open(t, "", Map.of(), Duration.ofSeconds(10))));
                }
                for (var f : opened) {
                    shells.add(f.get());
                }
            }
            for (RemoteShell s : shells) {
                assertThat(s.run(1, 1, "true".getBytes(StandardCharsets.UTF_8), false).status()).isZero();
            }
        } finally {
            shells.forEach(RemoteShell::close);
        }
        for (Path log : logs) {
            assertThat(Files.readAllLines(log)).as("%s: started once", log).hasSize(1);
        }
    }

    /** The same race at its root: takes at once, each gets its process, alive, none a stand-in. */
    @Test
    void takesThatComeAtOnceGetTheirProcesses() throws Exception {
        List<List<String>> argvs = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            argvs.add(List.of("/bin/sh", "-c", "exec sleep 30", "p" + i));
        }
        Prestart.begin(() -> argvs);
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(argvs.size())) {
            List<java.util.concurrent.Future<Process>> taken = new java.util.ArrayList<>();
            for (List<String> argv : argvs) {
                taken.add(pool.submit(() -> Prestart.take(argv)));
            }
            for (int i = 0; i < argvs.size(); i++) {
                Process p = taken.get(i).get();
                assertThat(p).as("process %d", i).isNotNull();
                assertThat(p.isAlive()).isTrue();
                p.destroy();
            }
        }
    }

    /** The first channel starts alone, the others after the wait (lengthened here to 2 s). */
    @Test
    void theFirstChannelStartsAloneAndTheOthersAfterTheWait() throws Exception {
        long bound = Prestart.staggerMillis;
        Prestart.staggerMillis = 2_000;
        try {
            Path first = dir.resolve("first.log");
            Path second = dir.resolve("second.log");
            Transport a = logged("a", first);
            Transport b = logged("b", second);
            Prestart.begin(() -> List.of(a.command(), b.command()));
            waitForLines(first, 1);
            Thread.sleep(500);
            assertThat(second).as("b waits").doesNotExist();
            try (RemoteShell s = RemoteShell.open(a, "", Map.of(), Duration.ofSeconds(10))) {
                waitForLines(second, 1);
                try (RemoteShell t = RemoteShell.open(b, "", Map.of(), Duration.ofSeconds(10))) {
                    assertThat(t.run(1, 1, "true".getBytes(StandardCharsets.UTF_8), false).status()).isZero();
                }
                assertThat(s.run(1, 1, "true".getBytes(StandardCharsets.UTF_8), false).status()).isZero();
            }
            assertThat(Files.readAllLines(first)).hasSize(1);
            assertThat(Files.readAllLines(second)).as("b's early channel was taken").hasSize(1);
        } finally {
            Prestart.staggerMillis = bound;
        }
    }

    @Test
    void channelsNobodyTookAreKilled() throws Exception {
        Path used = dir.resolve("used.log");
        Path unused = dir.resolve("unused.log");
        Transport a = logged("a", used);
        Transport b = logged("b", unused);
        Prestart.begin(() -> List.of(a.command(), b.command()));
        waitForLines(unused, 1);
        try (RemoteShell s = RemoteShell.open(a, "", Map.of(), Duration.ofSeconds(10))) {
            assertThat(s.run(1, 1, "true".getBytes(StandardCharsets.UTF_8), false).status()).isZero();
        }
        long pid = Long.parseLong(Files.readAllLines(unused).getFirst().strip());
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        assertThat(h).as("b's channel runs until discarded").isPresent();
        assertThat(h.get().isAlive()).isTrue();
        Prestart.discard();
        h.get().onExit().get(10, TimeUnit.SECONDS);
        assertThat(h.get().isAlive()).isFalse();
        assertThat(Files.readAllLines(used)).hasSize(1);
    }

    @Test
    void aListThatFailsStartsNothingAndOpenStartsItsOwn() throws Exception {
        Path log = dir.resolve("c.log");
        Transport t = logged("c", log);
        Prestart.begin(() -> {
            throw new IllegalArgumentException("not in an allocation");
        });
        try (RemoteShell s = RemoteShell.open(t, "", Map.of(), Duration.ofSeconds(10))) {
            assertThat(s.run(1, 1, "true".getBytes(StandardCharsets.UTF_8), false).status()).isZero();
        }
        assertThat(Files.readAllLines(log)).hasSize(1);
    }

    private static void waitForLines(Path log, int n) throws Exception {
        for (int i = 0; i < 200 && (!Files.exists(log) || Files.readAllLines(log).size() < n); i++) {
            Thread.sleep(25);
        }
        assertThat(Files.readAllLines(log)).hasSize(n);
    }
}
