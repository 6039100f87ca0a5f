// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.serve.BriskClient;
import dev.brisk.shell.Command;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * How a {@code brisk serve} process starts and ends: signals, {@code kill -9}, a stale or a live
 * socket, an unsafe directory, {@code --detach} and {@code --idle-exit}. Every server is a real
 * process, stopped by its PID at the end whatever happened.
 */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServeLifecycleIT {

    /** Starts {@code sleep 60} through a client and returns the client and the sleep's pid. */
    private static long startSleep(ServeServer s, BriskClient c, String name) throws Exception {
        Path pidFile = s.dir.resolve(name);
        CompletableFuture.runAsync(() -> {
            try {
                c.run(Command.of("echo $$ > " + pidFile + "; exec sleep 60"));
            } catch (RuntimeException expected) {
                // the server goes away under it
            }
        });
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(pidFile) || Files.size(pidFile) == 0) {
            assertThat(System.nanoTime()).isLessThan(until);
            Thread.sleep(10);
        }
        return Long.parseLong(Files.readString(pidFile).strip());
    }

    @Test
    void sigtermAndSigintLeaveNoProcessAndNoSocket() throws Exception {
        for (int signal : new int[] {15, 2}) {
            try (ServeServer s = ServeServer.start(); BriskClient c = BriskClient.connect(s.socket);
                 BriskClient.Session session = c.session()) {
                session.run(Command.of("x=1"));
                long sleep = startSleep(s, c, "sleep.pid");
                List<Long> procs = new ArrayList<>(s.descendants());
                procs.add(sleep);
                assertThat(procs.size()).isGreaterThan(3); // workers, watchdog, session shell, the command
                s.signal(signal);
                assertThat(s.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(s.process.exitValue()).isEqualTo(128 + signal);
                assertThat(ServeServer.awaitGone(procs, 10)).isEmpty();
                assertThat(s.socket).doesNotExist();
            }
        }
    }

    @Test
    void killNineLeavesNoOrphanAndTheStaleSocketIsReplaced() throws Exception {
        try (ServeServer s = ServeServer.start(); BriskClient c = BriskClient.connect(s.socket)) {
            long sleep = startSleep(s, c, "sleep.pid");
            List<Long> procs = new ArrayList<>(s.descendants());
            procs.add(sleep);
            s.signal(9);
            assertThat(s.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            // the pool's watchdog kills what the dead JVM left: nothing lives on to its natural end
            assertThat(ServeServer.awaitGone(procs, 10)).isEmpty();
            assertThat(s.socket).exists(); // stale: nobody removed it
            try (ServeServer again = ServeServer.startIn(s.dir); BriskClient c2 = BriskClient.connect(again.socket)) {
                assertThat(c2.run(Command.of("echo fresh")).stdoutText()).isEqualTo("fresh\n");
            }
        }
    }

    @Test
    void aLiveServerMakesASecondOneExit1() throws Exception {
        try (ServeServer s = ServeServer.start()) {
            BriskProcess.Run second = BriskProcess.run("serve", "--socket", s.socket.toString());
            assertThat(second.exit()).isEqualTo(1);
            assertThat(second.err()).isEqualTo("brisk serve: another brisk serve is running on " + s.socket + "\n");
            assertThat(ServeServer.accepts(s.socket)).isTrue();
        }
    }

    @Test
    void anUnsafeDirectoryIsRefused() throws Exception {
        Path dir = Files.createTempDirectory("brisk-serve-unsafe");
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            BriskProcess.Run open = BriskProcess.run("serve", "--socket", dir.resolve("s.sock").toString());
            assertThat(open.exit()).isEqualTo(1);
            assertThat(open.err()).isEqualTo("brisk serve: refusing the socket directory " + dir
                    + ": mode 0755 lets group or others in (chmod 700 it)\n");
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            new ProcessBuilder("chown", "65534", dir.toString()).inheritIO().start().waitFor();
            BriskProcess.Run other = BriskProcess.run("serve", "--socket", dir.resolve("s.sock").toString());
            assertThat(other.exit()).isEqualTo(1);
            assertThat(other.err()).contains("owned by uid 65534, not by uid ");
            assertThat(BriskProcess.run("serve", "--idle-exit", "0").exit()).isEqualTo(2);
        } finally {
            new ProcessBuilder("rm", "-rf", dir.toString()).inheritIO().start().waitFor();
        }
    }

    @Test
    void detachReturnsOnceTheSocketAcceptsAndIdleExitEndsIt() throws Exception {
        Path dir = Files.createTempDirectory("brisk-serve-detach");
        Path socket = dir.resolve("fresh/serve.sock"); // a directory that does not exist yet: made 0700
        long pid = -1;
        try {
            BriskProcess.Run r = BriskProcess.run("serve", "--detach", "--idle-exit", "2", "--socket", socket.toString(), "-j", "1");
            assertThat(r.exit()).as(r.err()).isZero();
            pid = Long.parseLong(r.out().strip());
            assertThat(ServeServer.accepts(socket)).isTrue();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent()))).isEqualTo("rwx------");
            try (BriskClient c = BriskClient.connect(socket)) {
                assertThat(c.run(Command.of("echo detached")).stdoutText()).isEqualTo("detached\n");
            }
            // no client for 2 s: the server ends itself and removes its socket
            assertThat(ServeServer.awaitGone(List.of(pid), 30)).isEmpty();
            assertThat(socket).doesNotExist();
        } finally {
            if (pid > 0 && ServeServer.alive(pid)) {
                new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
            }
            new ProcessBuilder("rm", "-rf", dir.toString()).inheritIO().start().waitFor();
        }
    }
}
