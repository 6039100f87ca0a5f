// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShellSessionTest {

    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void stateCarriesOverLikeATerminal(String shell) {
        try (ShellPool pool = ShellPool.builder().shell(shell).workers(1).build();
             ShellSession s = pool.session()) {
            assertThat(s.run("cd /tmp && x=42 && f() { echo \"f:$1\"; }").exitCode()).isZero();
            assertThat(s.run("echo \"$PWD $x\"; f y").stdoutText()).isEqualTo("/tmp 42\nf:y\n");
            assertThat(s.run(Command.of("echo $V").env("V", "exported")).stdoutText()).isEqualTo("exported\n");
            assertThat(s.run("echo $V").stdoutText()).isEqualTo("exported\n");
            assertThat(s.run("cat; echo eof").stdoutText()).isEqualTo("eof\n");
            assertThat(s.run("false").exitCode()).isEqualTo(1);
            // the pool's own commands stay isolated from the session
            assertThat(pool.run("echo ${x-unset}").stdoutText()).isEqualTo("unset\n");
        }
    }

    @Test
    void exitEndsTheSessionWithItsStatus() {
        try (ShellPool pool = ShellPool.builder().workers(1).build();
             ShellSession s = pool.session()) {
            CommandResult r = s.run("echo bye; exit 3");
            assertThat(r.exitCode()).isEqualTo(3);
            assertThat(r.stdoutText()).isEqualTo("bye\n");
            assertThat(s.isOpen()).isFalse();
            assertThatThrownBy(() -> s.run("true")).isInstanceOf(IllegalStateException.class).hasMessageContaining("status 3");
            assertThat(pool.run("echo pool fine").stdoutText()).isEqualTo("pool fine\n");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void syntaxErrorsKeepTheSession(String shell) {
        try (ShellPool pool = ShellPool.builder().shell(shell).workers(1).build();
             ShellSession s = pool.session()) {
            s.run("y=kept");
            CommandResult r = s.run("echo 'unbalanced");
            assertThat(r.exitCode()).isNotZero();
            assertThat(r.stderrText()).containsAnyOf("unexpected", "Unterminated");
            assertThat(s.isOpen()).isTrue();
            assertThat(s.run("echo $y").stdoutText()).isEqualTo("kept\n");
        }
    }

    @Test
    void aTimeoutKillsTheSessionShell() throws Exception {
        String m = Procs.marker();
        try (ShellPool pool = ShellPool.builder().workers(1).killGrace(Duration.ofMillis(200)).build();
             ShellSession s = pool.session()) {
            CommandResult r = s.run(Command.of("sleep " + m).timeout(Duration.ofMillis(200)));
            assertThat(r.timedOut()).isTrue();
            assertThat(s.isOpen()).isFalse();
            assertThat(Procs.awaitNone(m, 5)).isEmpty();
        }
    }

    @Test
    void sessionFunctionsNamedLikeTheLoopsBuiltinsDoNotBreakIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        try (ShellPool pool = ShellPool.builder().workers(1).build();
             ShellSession s = pool.session()) {
            s.run("echo() { printf 'E:%s\\n' \"$*\"; }; read() { return 1; }; cd() { builtin cd \"$@\" && printf 'now in %s\\n' \"$PWD\"; }");
            assertThat(s.run("echo hi").stdoutText()).isEqualTo("E:hi\n");
            java.nio.file.Path real = dir.toRealPath();
            assertThat(s.run(Command.of("pwd").cwd(real)).stdoutText()).isEqualTo(real + "\n");
            assertThat(s.run("builtin echo still").stdoutText()).isEqualTo("still\n");
        }
    }

    @Test
    void closeStopsARunningSessionCommand(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        ShellPool pool = ShellPool.builder().workers(1).build();
        ShellSession s = pool.session();
        java.nio.file.Path started = dir.resolve("started");
        java.util.concurrent.CompletableFuture<CommandResult> running = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> s.run("touch '" + started + "'; sleep 30"));
        while (!java.nio.file.Files.exists(started)) {
            Thread.sleep(5);
        }
        s.close();
        assertThatThrownBy(running::join).cause().isInstanceOf(ShellException.class);
        pool.close();
    }

    @Test
    void closingThePoolClosesItsSessions() {
        ShellPool pool = ShellPool.builder().workers(1).build();
        ShellSession s = pool.session();
        s.run("echo hi");
        pool.close();
        assertThat(s.isOpen()).isFalse();
        assertThatThrownBy(() -> s.run("true")).isInstanceOf(IllegalStateException.class);
    }
}
