// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WaitStatusTest {
    private static int run(String script) {
        int pid = new Spawn().defaultSignals(0).start("/bin/sh".getBytes(UTF_8),
                List.of("sh".getBytes(UTF_8), "-c".getBytes(UTF_8), script.getBytes(UTF_8)), null);
        assertThat(pid).isPositive();
        return WaitStatus.waitFor(pid);
    }

    @Test
    void anExitIsItsCode() {
        int raw = run("exit 7");
        assertThat(WaitStatus.exited(raw)).isTrue();
        assertThat(WaitStatus.exitCode(raw)).isEqualTo(7);
        assertThat(WaitStatus.signal(raw)).isZero();
        assertThat(WaitStatus.shellStatus(raw)).isEqualTo(7);
        assertThat(WaitStatus.shellStatus(run("exit 255"))).isEqualTo(255);
    }

    @Test
    void aSignalIs128PlusItsNumberAsAShellShowsIt() {
        int raw = run("kill -TERM $$");
        assertThat(WaitStatus.exited(raw)).isFalse();
        assertThat(WaitStatus.signal(raw)).isEqualTo(Signals.SIGTERM);
        assertThat(WaitStatus.exitCode(raw)).isZero();
        assertThat(WaitStatus.coreDumped(raw)).isFalse();
        assertThat(WaitStatus.shellStatus(raw)).isEqualTo(143);
        assertThat(WaitStatus.shellStatus(run("kill -KILL $$"))).isEqualTo(137);
    }

    /** The kernel's encoding: low 7 bits the signal, bit 7 the core dump, bits 8-15 the exit code. */
    @Test
    void coreDumpsAndStopsDecodeAsTheKernelEncodesThem() {
        int segvWithCore = Signals.SIGSEGV | 0x80;
        assertThat(WaitStatus.signal(segvWithCore)).isEqualTo(Signals.SIGSEGV);
        assertThat(WaitStatus.coreDumped(segvWithCore)).isTrue();
        assertThat(WaitStatus.shellStatus(segvWithCore)).isEqualTo(139);
        assertThat(WaitStatus.coreDumped(3 << 8)).isFalse();
        assertThat(WaitStatus.shellStatus(WaitStatus.NO_CHILD)).isEqualTo(255);
    }

    /** SIGQUIT would dump a core: the limit is set to 0 so none is written (into the module directory). */
    @Test
    void aQuitIs131() {
        int raw = run("ulimit -c 0; kill -QUIT $$");
        assertThat(WaitStatus.signal(raw)).isEqualTo(Signals.SIGQUIT);
        assertThat(WaitStatus.coreDumped(raw)).isFalse();
        assertThat(WaitStatus.shellStatus(raw)).isEqualTo(131);
    }

    @Test
    void pollSaysRunningUntilTheChildEndsAndNoChildAfterItIsReaped() throws Exception {
        int pid = new Spawn().defaultSignals(0).start("/bin/sleep".getBytes(UTF_8), List.of("sleep".getBytes(UTF_8), "0.3".getBytes(UTF_8)), null);
        assertThat(WaitStatus.poll(pid)).isEqualTo(WaitStatus.RUNNING);
        int fd = Spawn.pidfd(pid);
        try (var arena = java.lang.foreign.Arena.ofConfined()) {
            var fds = arena.allocate(Flags.POLLFD_SIZE);
            Libc.pollfd(fds, 0, fd, Flags.POLLIN);
            assertThat(Libc.poll(fds, 1, 10_000)).isEqualTo(1); // the pidfd is readable once the child ended
        } finally {
            Libc.close(fd);
        }
        assertThat(WaitStatus.shellStatus(WaitStatus.poll(pid))).isZero();
        assertThat(WaitStatus.waitFor(pid)).isEqualTo(WaitStatus.NO_CHILD);
        assertThat(WaitStatus.poll(1)).isEqualTo(WaitStatus.NO_CHILD);
    }
}
