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

    @Test
    void bashSyntaxErrorsKeepTheSession() {
        try (ShellPool pool = ShellPool.builder().workers(1).build();
             ShellSession s = pool.session()) {
            s.run("y=kept");
            CommandResult r = s.run("echo 'unbalanced");
            assertThat(r.exitCode()).isNotZero();
            assertThat(r.stderrText()).contains("unexpected");
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
    void closingThePoolClosesItsSessions() {
        ShellPool pool = ShellPool.builder().workers(1).build();
        ShellSession s = pool.session();
        s.run("echo hi");
        pool.close();
        assertThat(s.isOpen()).isFalse();
        assertThatThrownBy(() -> s.run("true")).isInstanceOf(IllegalStateException.class);
    }
}
