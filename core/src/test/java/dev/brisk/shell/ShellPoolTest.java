// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The pool's contract on bash (the default), each test against real shells. */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShellPoolTest {
    static ShellPool pool;

    @BeforeAll
    static void start() {
        pool = ShellPool.builder().workers(2).build();
    }

    @AfterAll
    static void stop() {
        pool.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 42, 127, 128, 200, 255})
    void exitStatusIsExact(int code) {
        assertThat(pool.run("exit " + code).exitCode()).isEqualTo(code);
    }

    @Test
    void aSignalGives128PlusN() throws Exception {
        assertThat(pool.run("kill -KILL $BASHPID").exitCode()).isEqualTo(137);
        // a signal ignored when this JVM started stays ignored in its commands, as in a shell's
        // (PoolShortcutsTest): `./test &` from a script starts it with SIGINT and SIGQUIT ignored
        assertThat(pool.run("kill -TERM $BASHPID").exitCode()).isEqualTo(ignoredHere(15) ? 0 : 143);
        assertThat(pool.run("sh -c 'kill -INT $$'").exitCode()).isEqualTo(ignoredHere(2) ? 0 : 130);
    }

    /** Whether signal {@code sig} is ignored in this process (and so in the pool's shells). */
    private static boolean ignoredHere(int sig) throws java.io.IOException {
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) >>> (sig - 1) & 1) == 1;
            }
        }
        throw new AssertionError("no SigIgn in /proc/self/status");
    }

    @Test
    void stdoutAndStderrAreSeparateAndByteExact() {
        CommandResult r = pool.run("printf 'out\\000\\001\\377'; printf 'err\\nmore' >&2");
        assertThat(r.stdout()).containsExactly('o', 'u', 't', 0, 1, 0xff);
        assertThat(r.stderr()).isEqualTo("err\nmore".getBytes(UTF_8));
        assertThat(r.exitCode()).isZero();
        assertThat(r.ok()).isTrue();
    }

    /** Bytes that are not UTF-8 (a lone surrogate U+DC80+b each) reach the commands as those bytes, from the pool's environment and a command's. */
    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void environmentBytesThatAreNotUtf8ReachTheCommand(String shell) {
        String raw = "a\uDCFF'b\uDCFE";
        try (ShellPool p = ShellPool.builder().workers(1).shell(shell).environment(java.util.Map.of("V", raw, "PATH", "/usr/bin:/bin")).build()) {
            assertThat(p.run("printf %s \"$V\"").stdout()).containsExactly('a', 0xff, '\'', 'b', 0xfe);
            assertThat(p.run(Command.of("printf %s \"$W\"").env("W", raw)).stdout()).containsExactly('a', 0xff, '\'', 'b', 0xfe);
            assertThat(p.run("printf %s \"$V\"").stdout()).as("the next command's too").containsExactly('a', 0xff, '\'', 'b', 0xfe);
        }
    }

    /** The pool's niceness is its workers' and so every command's (19: above any test runner's own). */
    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void nicenessReachesEveryCommand(String shell) {
        try (ShellPool p = ShellPool.builder().workers(2).shell(shell).niceness(19).build()) {
            for (int i = 0; i < 3; i++) {
                assertThat(p.run("cut -d' ' -f19 /proc/self/stat").stdoutText()).isEqualTo("19\n");
                assertThat(p.run("read -r _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ n _ </proc/self/stat; echo $n").stdoutText())
                        .as("a command the shell runs itself").isEqualTo("19\n");
            }
        }
        assertThatThrownBy(() -> ShellPool.builder().niceness(20)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void outputWithoutFinalNewlineAndEmptyOutput() {
        assertThat(pool.run("printf abc").stdoutText()).isEqualTo("abc");
        CommandResult empty = pool.run("true");
        assertThat(empty.stdout()).isEmpty();
        assertThat(empty.stderr()).isEmpty();
    }

    @Test
    void outputThatLooksLikeTheProtocolIsJustOutput() {
        String fake = "x 0\np 1\nx 255\n__brisk_dir\n";
        CommandResult r = pool.run("printf '" + fake + "'; printf '" + fake + "' >&2; exit 7");
        assertThat(r.stdoutText()).isEqualTo(fake);
        assertThat(r.stderrText()).isEqualTo(fake);
        assertThat(r.exitCode()).isEqualTo(7);
        assertThat(pool.run("echo next").stdoutText()).isEqualTo("next\n");
    }

    @Test
    void commandsReadEndOfFileByDefault() {
        CommandResult r = pool.run("cat; read x; echo \"read=$? x=[$x]\"");
        assertThat(r.stdoutText()).isEqualTo("read=1 x=[]\n");
    }

    @Test
    void stdinBytesAreGiven() {
        byte[] input = {'a', 0, (byte) 0xfe, '\n', 'z'};
        assertThat(pool.run(Command.of("cat").stdin(input)).stdout()).isEqualTo(input);
        assertThat(pool.run(Command.of("wc -c").stdin(new byte[300_000])).stdoutText().trim()).isEqualTo("300000");
    }

    @Test
    void nothingLeaksBetweenCommands() {
        String home = pool.run("pwd").stdoutText();
        pool.run("cd /tmp; export LEAK=1; NOLEAK=2; f() { echo f; }; set -e; trap 'echo trapped' EXIT; alias ll=ls; umask 077");
        assertThat(pool.run("pwd").stdoutText()).isEqualTo(home);
        assertThat(pool.run("echo ${LEAK-unset} ${NOLEAK-unset}").stdoutText()).isEqualTo("unset unset\n");
        assertThat(pool.run("type f >/dev/null 2>&1; echo $?").stdoutText()).isEqualTo("1\n");
        assertThat(pool.run("false; echo still here").stdoutText()).isEqualTo("still here\n");
        assertThat(pool.run("echo no trap").stdoutText()).isEqualTo("no trap\n");
        assertThat(pool.run("umask").stdoutText()).isNotEqualTo("0077\n");
    }

    @Test
    void exitEndsOnlyTheCommand() {
        assertThat(pool.run("echo before; exit 3; echo after").exitCode()).isEqualTo(3);
        for (int i = 0; i < 4; i++) {
            assertThat(pool.run("echo ok").stdoutText()).isEqualTo("ok\n");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"echo 'unbalanced", ")", "if", "echo \"open", "fi", "case x in"})
    void syntaxErrorsFailAndThePoolGoesOn(String bad) {
        CommandResult r = pool.run(bad);
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.stderrText()).containsAnyOf("syntax", "unexpected");
        assertThat(pool.run("echo fine").stdoutText()).isEqualTo("fine\n");
    }

    @Test
    void cwdAndEnvironment(@TempDir Path dir) throws Exception {
        Path real = dir.toRealPath();
        String tricky = "a'b\"c\nd $HOME `id` \\ e";
        CommandResult r = pool.run(Command.of("pwd; printf %s \"$V\"").cwd(real).env("V", tricky));
        assertThat(r.stdoutText()).isEqualTo(real + "\n" + tricky);
        CommandResult missing = pool.run(Command.of("echo never").cwd(dir.resolve("nope")));
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.stdout()).isEmpty();
        assertThat(missing.stderrText()).contains("nope");
    }

    @Test
    void aMegabyteOfCommandText() {
        String big = "y".repeat(1 << 20);
        CommandResult r = pool.run("x='" + big + "'; printf %s \"$x\" | wc -c; printf %s \"$x\"");
        assertThat(r.stdoutText()).startsWith((1 << 20) + "\n");
        assertThat(r.stdout()).hasSize(String.valueOf(1 << 20).length() + 1 + (1 << 20));
    }

    @Test
    void nonUtf8BytesInCommandAndOutput() {
        byte[] script = {'p', 'r', 'i', 'n', 't', 'f', ' ', '%', 's', ' ', '\'', (byte) 0xff, (byte) 0xfe, 'A', (byte) 0xc3, '\''};
        assertThat(pool.run(Command.of(script)).stdout()).containsExactly(0xff, 0xfe, 'A', 0xc3);
    }

    @Test
    void aBackgroundChildHoldingStdoutDoesNotHoldTheResult() {
        CommandResult r = pool.run("sleep 60 & echo done");
        assertThat(r.stdoutText()).isEqualTo("done\n");
        assertThat(r.exitCode()).isZero();
        assertThat(pool.run("echo next").stdoutText()).isEqualTo("next\n");
    }

    @Test
    void outputCapIsFlagged() {
        CommandResult r = pool.run(Command.of("head -c 100000000 /dev/zero; echo tail >&2").maxOutputBytes(1 << 20));
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).hasSize(1 << 20);
        assertThat(r.stdoutTruncated()).isTrue();
        assertThat(r.truncated()).isTrue();
        assertThat(r.stderrTruncated()).isFalse();
        assertThat(r.stderrText()).isEqualTo("tail\n");
    }

    @Test
    void hundredMegabytesStreamedExactly() throws Exception {
        java.security.MessageDigest got = java.security.MessageDigest.getInstance("SHA-256");
        long[] count = {0};
        java.io.OutputStream sink = new java.io.OutputStream() {
            @Override
            public void write(int b) {
                got.update((byte) b);
                count[0]++;
            }

            @Override
            public void write(byte[] b, int off, int len) {
                got.update(b, off, len);
                count[0] += len;
            }
        };
        long size = 100_000_000L;
        CommandResult r = pool.run(Command.of("yes abcdefghi | head -c " + size).stdoutTo(sink));
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEmpty();
        assertThat(count[0]).isEqualTo(size);
        java.security.MessageDigest want = java.security.MessageDigest.getInstance("SHA-256");
        byte[] line = "abcdefghi\n".getBytes(UTF_8);
        for (long i = 0; i < size / line.length; i++) {
            want.update(line);
        }
        assertThat(got.digest()).isEqualTo(want.digest());
    }

    @Test
    void stderrStreams() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandResult r = pool.run(Command.of("echo out; echo err >&2").stderrTo(err));
        assertThat(r.stdoutText()).isEqualTo("out\n");
        assertThat(r.stderr()).isEmpty();
        assertThat(err.toString(UTF_8)).isEqualTo("err\n");
    }

    @Test
    void submitIsAsynchronous() {
        CompletableFuture<CommandResult> a = pool.submit(Command.of("sleep 0.2; echo a"));
        CompletableFuture<CommandResult> b = pool.submit(Command.of("echo b"));
        assertThat(b.join().stdoutText()).isEqualTo("b\n");
        assertThat(a.join().stdoutText()).isEqualTo("a\n");
    }

    @Test
    void badInputIsRejectedClearly() {
        assertThatThrownBy(() -> pool.run((String) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> pool.run((Command) null)).isInstanceOf(NullPointerException.class).hasMessageContaining("command");
        assertThatThrownBy(() -> Command.of("x").timeout(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> Command.of("x").timeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Command.of("x").env("1BAD", "v")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1BAD");
        assertThatThrownBy(() -> Command.of(new byte[] {'a', 0})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NUL");
        assertThatThrownBy(() -> Command.of("x").maxOutputBytes(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Command.of("x").env("__brisk_dir", "/")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("__brisk_");
        assertThatThrownBy(() -> ShellPool.builder().workers(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> ShellPool.builder().shell("no-such-shell-here").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no-such-shell-here");
        ShellPool closed = ShellPool.builder().workers(1).build();
        closed.close();
        assertThatThrownBy(() -> closed.run("true")).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> closed.submit(Command.of("true"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(closed::session).isInstanceOf(IllegalStateException.class);
        closed.close();
    }

    @Test
    void dashWorksToo() {
        try (ShellPool dash = ShellPool.builder().shell("dash").workers(1).build()) {
            assertThat(dash.run("echo $((6*7)); exit 9").exitCode()).isEqualTo(9);
            assertThat(dash.run("cd /; export X=1; echo ${X}").stdoutText()).isEqualTo("1\n");
            assertThat(dash.run("echo ${X-unset}").stdoutText()).isEqualTo("unset\n");
            CommandResult bad = dash.run("echo 'unbalanced");
            assertThat(bad.exitCode()).isNotZero();
            assertThat(bad.stderrText()).containsIgnoringCase("unterminated");
            assertThat(dash.run("cat; echo eof").stdoutText()).isEqualTo("eof\n");
            assertThat(dash.run("sh -c 'kill -TERM $$'").exitCode()).isEqualTo(143);
        }
    }
}
