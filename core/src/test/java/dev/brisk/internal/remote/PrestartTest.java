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
        return new Transport() {
            @Override
            public String host() {
                return name;
            }

            @Override
            public List<String> command() {
                return List.of("/bin/sh", "-c", "echo $$ >> '" + log + "'; exec setsid /bin/sh -s");
            }
        };
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
