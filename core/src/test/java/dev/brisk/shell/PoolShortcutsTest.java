// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pool's cheap paths, each checked against what the shell itself does: side-effect-free
 * builtins without a fresh subshell, simple external commands spawned without the shell, and
 * output FIFOs kept from one command to the next.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolShortcutsTest {

    /** {@code command CMD} always goes through the shell: the reference for what CMD alone must give. */
    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void aSpawnedCommandSeesTheEnvironmentTheShellWouldGiveIt(String shell, @TempDir Path dir) {
        try (ShellPool pool = ShellPool.builder().shell(shell).workers(1).build()) {
            assertThat(sorted(pool.run("env"))).isEqualTo(sorted(pool.run("command env")));
            Command direct = Command.of("env").cwd(dir).env("BRISK_T", "a b\nc");
            Command viaShell = Command.of("command env").cwd(dir).env("BRISK_T", "a b\nc");
            List<String> got = sorted(pool.run(direct));
            assertThat(got).isEqualTo(sorted(pool.run(viaShell)));
            assertThat(got).contains("PWD=" + dir, "BRISK_T=a b");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void spawnedCommandsGiveExactStatusesAndOutput(String shell, @TempDir Path dir) throws Exception {
        Path selfKill = script(dir, "selfkill", "#!/bin/sh\nprintf 'out\\000x'; printf err >&2; kill -USR1 $$\n");
        Path args = script(dir, "args", "#!/bin/sh\nfor a in \"$@\"; do echo \"[$a]\"; done\nexit 7\n");
        try (ShellPool pool = ShellPool.builder().shell(shell).workers(1).build()) {
            assertThat(pool.run("/bin/false").exitCode()).isEqualTo(1);
            CommandResult killed = pool.run(selfKill.toString());
            assertThat(killed.exitCode()).isEqualTo(128 + 10);
            assertThat(killed.stdout()).containsExactly('o', 'u', 't', 0, 'x');
            // dash reports the death on stderr, as it would in a terminal; bash does not
            assertThat(killed.stderrText()).isEqualTo(shell.equals("dash") ? "errUser defined signal 1\n" : "err");
            CommandResult r = pool.run(args + "  -a\tb=c  %d @x,y:z ");
            assertThat(r.stdoutText()).isEqualTo("[-a]\n[b=c]\n[%d]\n[@x,y:z]\n");
            assertThat(r.exitCode()).isEqualTo(7);
            assertThat(pool.run(Command.of("cat").stdin("fed".getBytes(UTF_8))).stdoutText()).isEqualTo("fed");
            assertThat(pool.run("cat").stdout()).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void whatOnlyTheShellCanRunFallsBackToIt(String shell, @TempDir Path dir) throws Exception {
        Path noShebang = script(dir, "plain", "echo from $0\n");
        try (ShellPool pool = ShellPool.builder().shell(shell).workers(1).build()) {
            CommandResult missing = pool.run("brisk-no-such-command-x");
            assertThat(missing.exitCode()).isEqualTo(127);
            assertThat(missing.stderrText()).contains("brisk-no-such-command-x").contains("not found");
            assertThat(pool.run(noShebang.toString()).stdoutText()).isEqualTo("from " + noShebang + "\n");
            assertThat(pool.run(Command.of("pwd").cwd(dir.resolve("gone"))).exitCode()).isNotZero();
            assertThat(pool.run(Command.of("ls").cwd(dir.resolve("gone"))).exitCode()).isNotZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void builtinsRunWithoutASubshellYetLeaveNothingBehind(String shell) {
        try (ShellPool pool = ShellPool.builder().shell(shell).workers(1).build()) {
            assertThat(pool.run("echo -n hi").stdoutText()).isEqualTo("hi");
            assertThat(pool.run("printf %s-%s a b").stdoutText()).isEqualTo("a-b");
            assertThat(pool.run("false").exitCode()).isEqualTo(1);
            assertThat(pool.run("[ a = b ]").exitCode()).isEqualTo(1);
            assertThat(pool.run("test -d /").exitCode()).isZero();
            CommandResult bad = pool.run("printf %d x");
            assertThat(bad.exitCode()).isNotZero();
            assertThat(bad.stderrText()).isNotEmpty();
            String first = pool.run("x=1; f() { :; }; cd /tmp; echo ${y:-unset} $(command -v f || echo nofunc) $PWD").stdoutText();
            for (int i = 0; i < 50; i++) {
                assertThat(pool.run("echo " + i).stdoutText()).isEqualTo(i + "\n");
            }
            String again = pool.run("x=1; f() { :; }; cd /tmp; echo ${y:-unset} $(command -v f || echo nofunc) $PWD").stdoutText();
            assertThat(again).isEqualTo(first);
            assertThat(pool.run("echo ${x:-clean} $(command -v f || echo nofunc)").stdoutText()).isEqualTo("clean nofunc\n");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "dash"})
    void aBackgroundWriterNeverReachesALaterCommandsOutput(String shell, @TempDir Path dir) throws Exception {
        // the late lines come a quarter of a second after "early", while the next command runs
        Path leaves = script(dir, "leaves", "#!/bin/sh\n(sleep 0.25; echo late; echo late >&2) &\necho early\n");
        String marker = "21" + System.nanoTime() % 1000;
        try (ShellPool pool = ShellPool.builder().shell(shell).workers(1).drain(Duration.ofMillis(50)).build()) {
            for (String cmd : List.of(leaves.toString(), "{ sleep 0.25; echo late; echo late >&2; } & echo early")) {
                assertThat(pool.run(cmd).stdoutText()).isEqualTo("early\n");
                CommandResult next = pool.run("sleep 0.5; echo next");
                assertThat(next.stdoutText()).isEqualTo("next\n");
                assertThat(next.stderrText()).isEmpty();
                CommandResult direct = pool.run("sleep 0.5");
                assertThat(direct.stdout()).isEmpty();
                assertThat(direct.stderr()).isEmpty();
            }
            // a spawned command's leftovers live as long as the pool, as a shell worker's would
            Path lingers = script(dir, "lingers", "#!/bin/sh\nsleep " + marker + " >/dev/null 2>&1 &\n");
            assertThat(pool.run(lingers.toString()).exitCode()).isZero();
            assertThat(Procs.withMarker("sleep " + marker)).hasSize(1);
        }
        assertThat(Procs.awaitNone("sleep " + marker, 5)).isEmpty();
    }

    @Test
    void simpleExternalCommandsAreSpawnedByTheJvmItself(@TempDir Path dir) throws Exception {
        Path parent = script(dir, "parent", "#!/bin/sh\necho $PPID\n");
        try (ShellPool pool = ShellPool.builder().workers(1).build()) {
            long me = ProcessHandle.current().pid();
            assertThat(pool.run(parent.toString()).stdoutText().trim()).isEqualTo(Long.toString(me));
            assertThat(pool.run(parent + "; :").stdoutText().trim()).isNotEqualTo(Long.toString(me));
        }
        // dash passes a different environment on and reports deaths by signal: it keeps the shell
        try (ShellPool pool = ShellPool.builder().shell("dash").workers(1).build()) {
            assertThat(pool.run(parent.toString()).stdoutText().trim()).isNotEqualTo(Long.toString(ProcessHandle.current().pid()));
        }
        try (ShellPool pool = ShellPool.builder().workers(1).build(); ShellSession s = pool.session()) {
            assertThat(s.run(parent.toString()).stdoutText().trim()).isNotEqualTo(Long.toString(ProcessHandle.current().pid()));
        }
    }

    @Test
    void aSpawnedCommandTimesOutWithItsWholeGroup(@TempDir Path dir) throws Exception {
        String marker = "31" + System.nanoTime() % 1000;
        Path tree = script(dir, "tree", "#!/bin/sh\nsleep " + marker + " &\nsleep " + marker + "\n");
        try (ShellPool pool = ShellPool.builder().workers(1).build()) {
            CommandResult r = pool.run(Command.of(tree.toString()).timeout(Duration.ofMillis(300)));
            assertThat(r.timedOut()).isTrue();
            assertThat(Procs.awaitNone("sleep " + marker, 5)).isEmpty();
            assertThat(pool.run("echo ok").stdoutText()).isEqualTo("ok\n");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"UID", "EUID", "PPID", "RANDOM", "LINENO", "SHELLOPTS", "BASHPID", "GROUPS", "SECONDS"})
    void variablesTheShellOwnsAreLeftToTheShell(String name) {
        try (ShellPool pool = ShellPool.builder().workers(1).build()) {
            CommandResult direct = pool.run(Command.of("printenv " + name).env(name, "5"));
            CommandResult shell = pool.run(Command.of("command printenv " + name).env(name, "5"));
            assertThat(direct.exitCode()).isEqualTo(shell.exitCode());
            assertThat(direct.stderrText()).isEqualTo(shell.stderrText());
            if (!name.equals("RANDOM") && !name.equals("SECONDS") && !name.equals("BASHPID")) {
                assertThat(direct.stdoutText()).isEqualTo(shell.stdoutText());
            }
        }
    }

    @Test
    void signalsIgnoredWhenTheJvmStartedStayIgnored() throws Exception {
        String cp = System.getProperty("java.class.path");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder("sh", "-c", "trap '' HUP; exec \"$0\" \"$@\"", java,
                "--enable-native-access=ALL-UNNAMED", "-cp", cp, SignalChild.class.getName())
                .redirectErrorStream(true).start();
        child.getOutputStream().close();
        String[] lines = new String(child.getInputStream().readAllBytes(), UTF_8).trim().split("\n");
        assertThat(child.waitFor()).isZero();
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).isEqualTo(lines[1]);
        long mask = Long.parseUnsignedLong(lines[0].replace("SigIgn:", "").trim(), 16);
        assertThat(mask & 1).as("SIGHUP ignored").isEqualTo(1);
    }

    @Test
    void aBuiltinThatTimesOutInADashWorkerIsATimeout() {
        try (ShellPool pool = ShellPool.builder().shell("dash").workers(1).killGrace(Duration.ofMillis(200)).build()) {
            CommandResult r = pool.run(Command.of("printf %2000000000s x").maxOutputBytes(10).timeout(Duration.ofMillis(300)));
            assertThat(r.timedOut()).isTrue();
            assertThat(r.exitCode()).isEqualTo(143);
            assertThat(pool.run("echo next").stdoutText()).isEqualTo("next\n");
        }
    }

    @Test
    void namesThisJvmCannotEncodeGoToTheShell(@TempDir Path dir) {
        try (ShellPool pool = ShellPool.builder().workers(1).build()) {
            CommandResult r = pool.run(Command.of("printenv PATH").env("PATH", dir + "/d\u00e9:/usr/bin:/bin"));
            assertThat(r.exitCode()).isZero();
        }
    }

    private static Path script(Path dir, String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    private static List<String> sorted(CommandResult r) {
        assertThat(r.exitCode()).as(r.stderrText()).isZero();
        return Arrays.stream(r.stdoutText().split("\n")).sorted().collect(Collectors.toList());
    }
}
