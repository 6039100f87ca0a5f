// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.shell.ShellSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real dash worker: a pure builtin's stdout on the status pipe, the others' in files, read as a slot reads them. */
@Timeout(30)
class JobShellTest {
    @TempDir
    Path tmp;

    private JobShell shell;
    private final CapturedStream out = new CapturedStream();
    private final CapturedStream err = new CapturedStream();

    @BeforeEach
    void start() throws IOException {
        shell = JobShell.start(ShellSpec.resolve("/bin/dash", Map.of("PATH", "/usr/bin:/bin")), tmp);
    }

    @AfterEach
    void stop() {
        shell.close();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Awaits the oldest job, reads its output as SpawnSlot does, and consumes it. */
    private String[] await(int pair, int[] status) throws Exception {
        status[0] = shell.await();
        if (shell.pipedLength() > 0) {
            out.readFrom(shell.piped(), shell.pipedLength());
        } else {
            out.readFrom(shell.stdout(pair));
        }
        err.readFrom(shell.stderr(pair));
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        out.writeTo(o);
        err.writeTo(e);
        out.consume();
        err.consume();
        return new String[] {o.toString(StandardCharsets.ISO_8859_1), e.toString(StandardCharsets.ISO_8859_1)};
    }

    /**
     * A shell closed at a run's end returns at once; it ends on its end of input and is reaped
     * (no zombie left: the pid is gone from /proc) on the reaper's thread.
     */
    @Test
    void closedLaterTheShellEndsAndIsReaped() throws Exception {
        JobShell s = JobShell.start(ShellSpec.resolve("/bin/dash", Map.of("PATH", "/usr/bin:/bin")), tmp);
        s.send(b("echo hi"), 1, 1, 0, JobShell.Launch.BUILTIN, null);
        assertThat(s.await()).isZero();
        int pid = s.pid();
        s.closeLater();
        java.nio.file.Path proc = java.nio.file.Path.of("/proc/" + pid);
        for (int i = 0; i < 500 && java.nio.file.Files.exists(proc); i++) {
            Thread.sleep(10);
        }
        assertThat(proc).as("the shell, reaped").doesNotExist();
        s.close(); // after closeLater: nothing more to do
    }

    @Test
    void builtinOutputComesOnThePipeAndOthersInTheFiles() throws Exception {
        int[] st = new int[1];
        shell.send(b("echo a b"), 1, 1, 0, JobShell.Launch.BUILTIN, null);
        assertThat(await(0, st)).containsExactly("a b\n", "");
        assertThat(st[0]).isZero();
        shell.send(b("echo out; echo err >&2; exit 3"), 2, 1, 0, JobShell.Launch.SUBSHELL, null);
        assertThat(await(0, st)).containsExactly("out\n", "err\n");
        assertThat(st[0]).isEqualTo(3);
        shell.send(b("printf %d x"), 3, 1, 1, JobShell.Launch.BUILTIN, null);
        String[] r = await(1, st);
        assertThat(r[0]).isEqualTo("0");
        assertThat(r[1]).contains("x");
        assertThat(st[0]).isEqualTo(1);
        shell.send(b("printf %s"), 4, 1, 0, JobShell.Launch.BUILTIN, null);
        assertThat(await(0, st)).containsExactly("", "");
    }

    @Test
    void queuedJobsOfEveryLaunchKeepTheirOwnOutput() throws Exception {
        int[] st = new int[1];
        shell.send(b("echo one"), 1, 1, 0, JobShell.Launch.BUILTIN, null);
        shell.send(b("echo two; false"), 2, 1, 1, JobShell.Launch.SUBSHELL, null);
        assertThat(await(0, st)).containsExactly("one\n", "");
        shell.send(b("printf three"), 3, 1, 0, JobShell.Launch.BUILTIN, null);
        assertThat(await(1, st)).containsExactly("two\n", "");
        assertThat(st[0]).isEqualTo(1);
        shell.send(b("echo four | cat"), 4, 1, 1, JobShell.Launch.PIPELINE, null);
        assertThat(await(0, st)).containsExactly("three", "");
        assertThat(await(1, st)).containsExactly("four\n", "");
        assertThat(shell.outstanding()).isZero();
    }

    @Test
    void onlyALineThatFitsInAPageIsQueued() throws Exception {
        int[] st = new int[1];
        shell.send(b("echo running"), 1, 1, 0, JobShell.Launch.BUILTIN, null);
        // quotes grow in the line: 1,100 of them are over 4 KiB there
        byte[] quotes = new byte[1100];
        Arrays.fill(quotes, (byte) '\'');
        assertThat(shell.queue(b("echo " + new String(quotes, StandardCharsets.ISO_8859_1)), 2, 1, 1,
                JobShell.Launch.SUBSHELL)).isFalse();
        assertThat(shell.outstanding()).isEqualTo(1);
        assertThat(shell.queue(b("echo queued"), 2, 1, 1, JobShell.Launch.BUILTIN)).isTrue();
        assertThat(await(0, st)).containsExactly("running\n", "");
        assertThat(await(1, st)).containsExactly("queued\n", "");
    }

    @Test
    void outputThatLooksLikeTheMarkIsOutput() throws Exception {
        int[] st = new int[1];
        // the mark's first byte, then partial marks, then a status-like line: all of it output
        shell.send(b("printf '\\036\\036 x 5\\n\\036x 0\\nend\\036'"), 1, 1, 0, JobShell.Launch.BUILTIN, null);
        assertThat(await(0, st)).containsExactly("\u001e\u001e x 5\n\u001ex 0\nend\u001e", "");
        assertThat(st[0]).isZero();
        shell.send(b("echo next"), 2, 1, 0, JobShell.Launch.BUILTIN, null);
        assertThat(await(0, st)).containsExactly("next\n", "");
    }

    @Test
    void aBuiltinsLargeOutputGoesOnToTheFileWhole() throws Exception {
        int[] st = new int[1];
        int n = JobShell.PIPED_IN_MEMORY * 2 + 12345;
        // output in pair 0's file first, so that its mark is not at 0 when the spill comes
        shell.send(b("echo first"), 1, 1, 0, JobShell.Launch.SUBSHELL, null);
        assertThat(await(0, st)).containsExactly("first\n", "");
        assertThat(shell.stdout(0).mark()).isEqualTo(6);
        shell.send(b("printf '%0" + n + "d' 7"), 2, 1, 0, JobShell.Launch.BUILTIN, null);
        shell.send(b("echo after"), 3, 1, 1, JobShell.Launch.BUILTIN, null);
        st[0] = shell.await();
        assertThat(shell.pipedLength()).isZero();
        out.readFrom(shell.stdout(0));
        assertThat(out.size()).isEqualTo(n);
        HeldOutput h = out.hold(new AtomicLong(Long.MAX_VALUE), tmp);
        byte[] expected = new byte[n];
        Arrays.fill(expected, (byte) '0');
        expected[n - 1] = '7';
        assertThat(h.toByteArray()).isEqualTo(expected);
        h.close();
        out.consume();
        assertThat(await(1, st)).containsExactly("after\n", "");
        // the file was emptied past 1 MiB consumed: the next output starts at its beginning
        shell.send(b("echo x; echo y"), 4, 1, 0, JobShell.Launch.SUBSHELL, null);
        assertThat(await(0, st)).containsExactly("x\ny\n", "");
        assertThat(shell.stdout(0).mark()).isEqualTo(4);
    }

    /**
     * {@code --halt now}'s question: a job that has ended by itself is reported on the status
     * pipe before it is awaited (it is then not killed), a running one is not, and neither is
     * anything while the shell's "ready" is unread.
     */
    @Test
    void aJobThatEndedIsReportedBeforeItIsAwaited() throws Exception {
        Path started = tmp.resolve("started");
        shell.send(b("touch '" + started + "'; exit 4"), 1, 1, 0, JobShell.Launch.SUBSHELL, null);
        while (!java.nio.file.Files.exists(started)) {
            Thread.sleep(1); // the shell has printed its ready line before it ran the job
        }
        assertThat(shell.jobReported()).as("the shell's ready line unread").isFalse();
        assertThat(shell.await()).isEqualTo(4);
        Path flag = tmp.resolve("flag");
        shell.send(b("touch '" + flag + "'; exit 3"), 2, 1, 0, JobShell.Launch.SUBSHELL, null);
        while (!shell.jobReported()) {
            Thread.sleep(1); // the class's timeout bounds it
        }
        assertThat(flag).exists();
        assertThat(shell.await()).isEqualTo(3);
        shell.send(b("sleep 20"), 3, 1, 0, JobShell.Launch.SUBSHELL, null);
        while (shell.children().isEmpty()) {
            Thread.sleep(1);
        }
        assertThat(shell.jobReported()).as("a running job").isFalse();
        shell.signalJob(dev.brisk.internal.posix.Signals.SIGTERM);
        assertThat(shell.await()).isEqualTo(128 + 15);
    }
}
