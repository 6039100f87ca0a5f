// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code brisk pv -M in|out|both COMMAND}: real commands (md5sum, cat, gzip, head, sh) with real
 * pipes and files, the data compared byte for byte with what the command gives without brisk,
 * and the statuses a shell would report.
 */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PvMonitorIT {
    @TempDir
    static Path dir;
    static Path data;

    record Run(int status, byte[] stdout, String stderr) {}

    @BeforeAll
    static void fixtures() throws IOException {
        byte[] bytes = new byte[3_000_000];
        new Random(12).nextBytes(bytes);
        data = Files.write(dir.resolve("data"), bytes);
    }

    @Test
    void inFeedsOurInputToTheCommandByteExact() throws Exception {
        // standard input a regular file: its size is known, so -n shows the percentage
        Run r = run(pv("-n", "-i", "0.1", "-M", "in", "md5sum"), data);
        assertThat(r.status).as(r.stderr).isZero();
        assertThat(new String(r.stdout, StandardCharsets.US_ASCII)).isEqualTo(shell("md5sum < " + data));
        assertThat(lastLine(r.stderr)).isEqualTo("100");
        // through a pipe, on the read/write path and rate-limited: the same bytes
        Run piped = run(bash("cat " + data + " | \"$@\"", pv("-q", "-C", "-L", "100m", "-M", "in", "md5sum")), null);
        assertThat(piped.stdout).isEqualTo(r.stdout);
    }

    @Test
    void outMetersTheCommandsOutputAndGivesItsStatus() throws Exception {
        Run r = run(pv("-f", "-b", "-M", "out", "cat", data.toString()), null);
        assertThat(r.status).as(r.stderr).isZero();
        assertThat(r.stdout).isEqualTo(Files.readAllBytes(data));
        assertThat(lastLine(r.stderr)).isEqualTo("2.86MiB");
        // options after the command are the command's: sh's -c, not pv's --cursor
        assertThat(run(pv("-q", "-M", "out", "sh", "-c", "exit 3"), null).status).isEqualTo(3);
        assertThat(run(pv("-q", "--monitor=out", "--", "sh", "-c", "kill -TERM $$"), null).status).as("128 + SIGTERM").isEqualTo(143);
        // arguments are bytes: not valid UTF-8 reaches the command as it was given
        Run raw = run(bash("\"$@\" printf %s $'\\xff\\xfe'", pv("-q", "-M", "out")), null);
        assertThat(raw.stdout).isEqualTo(new byte[] {(byte) 0xff, (byte) 0xfe});
        // an output pv cannot open: pv's status, and the command is ended rather than waited for
        Run noOutput = run(pv("-q", "-M", "out", "-o", dir.resolve("no/such/dir").toString(), "sleep", "100"), null);
        assertThat(noOutput.status).isEqualTo(2);
        assertThat(noOutput.stderr).isEqualTo("brisk pv: " + dir.resolve("no/such/dir") + ": No such file or directory\n");
        // a command that cannot start: the shell's statuses and a one-line message
        Run missing = run(pv("-q", "-M", "out", "no-such-command-brisk"), null);
        assertThat(missing.status).isEqualTo(127);
        assertThat(missing.stderr).isEqualTo("brisk pv: no-such-command-brisk: No such file or directory\n");
        Path script = Files.writeString(dir.resolve("not-executable"), "echo hi\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        Run denied = run(pv("-q", "-M", "out", script.toString()), null);
        assertThat(denied.status).isEqualTo(126);
        assertThat(denied.stderr).isEqualTo("brisk pv: " + script + ": Permission denied\n");
    }

    @Test
    void bothShowsTwoCountersAndKeepsTheCommandsEnvironmentAndLimits() throws Exception {
        Run r = run(pv("-n", "-b", "-M", "both", "gzip", "-1"), data);
        assertThat(r.status).as(r.stderr).isZero();
        try (GZIPInputStream unzipped = new GZIPInputStream(new java.io.ByteArrayInputStream(r.stdout))) {
            assertThat(unzipped.readAllBytes()).isEqualTo(Files.readAllBytes(data));
        }
        List<String> lines = r.stderr.lines().toList();
        assertThat(lines).allMatch(l -> l.matches("(in|out) \\d+"));
        assertThat(lines.reversed()).filteredOn(l -> l.startsWith("in ")).first().isEqualTo("in 3000000");
        assertThat(lines.reversed()).filteredOn(l -> l.startsWith("out ")).first().isEqualTo("out " + r.stdout.length);
        // the command gets pv's environment and resource limits unchanged (as a shell would give them)
        FindIT.Result limits = FindIT.brisk(dir, List.of("env", "BRISK_PV_IT=seen", "bash", "-c", "ulimit -Sn 64; exec \"$@\"", "sh"),
                List.of("pv", "-q", "-M", "out", "sh", "-c", "echo $(ulimit -Sn) $BRISK_PV_IT"), null);
        assertThat(new String(limits.out(), StandardCharsets.UTF_8)).isEqualTo("64 seen\n");
    }

    @Test
    void aCommandThatStopsReadingEndsTheFeed() throws Exception {
        // endless input, a command that reads 10 bytes: pv stops feeding at EPIPE
        Run head = run(bash("yes | \"$@\"", pv("-q", "-M", "in", "head", "-c", "10")), null);
        assertThat(head.status).as(head.stderr).isZero();
        assertThat(new String(head.stdout, StandardCharsets.US_ASCII)).isEqualTo("y\n".repeat(5));
        // idle input that never ends, a command that exits without reading: pv must not wait for input
        Process p = new ProcessBuilder(pv("-q", "-M", "both", "sh", "-c", "echo done; exit 4")).start();
        try (OutputStream open = p.getOutputStream()) {
            open.flush(); // kept open, and nothing written
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("pv ended while its input stayed open").isTrue();
            assertThat(p.exitValue()).isEqualTo(4);
            assertThat(p.getInputStream().readAllBytes()).isEqualTo("done\n".getBytes(StandardCharsets.US_ASCII));
        }
        // the reader downstream goes away: pv stops quietly, the command gets SIGPIPE as in a shell pipeline
        Run pipe = run(bash("\"$@\" | head -c 4; echo \" ${PIPESTATUS[0]}\"", pv("-q", "-M", "out", "yes")), null);
        assertThat(new String(pipe.stdout, StandardCharsets.US_ASCII)).isEqualTo("y\ny\n 141\n");
        assertThat(pipe.stderr).isEmpty();
    }

    @Test
    void aSignalToPvReachesTheCommand() throws Exception {
        Process p = new ProcessBuilder(pv("-q", "-M", "out", "sleep", "60")).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        ProcessHandle child = null;
        for (int i = 0; i < 600 && child == null; i++) {
            child = p.children().filter(c -> c.info().command().orElse("").endsWith("sleep")).findFirst().orElse(null);
            if (child == null) {
                Thread.sleep(50);
            }
        }
        assertThat(child).as("the command started").isNotNull();
        p.destroy(); // SIGTERM to pv
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("the command's status: 128 + SIGTERM").isEqualTo(143);
        assertThat(child.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
    }

    @Test
    void badModeAndMissingCommandArePvUsageErrors() throws Exception {
        Run bad = run(pv("-M", "sideways", "cat"), null);
        assertThat(bad.status).isEqualTo(64);
        assertThat(bad.stderr).isEqualTo("brisk pv: -M: sideways: mode must be in, out or both\n");
        Run none = run(pv("-M", "in"), null);
        assertThat(none.status).isEqualTo(64);
        assertThat(none.stderr).isEqualTo("brisk pv: -M: a command to run is expected\n");
    }

    /** brisk pv's command line with {@code args}. */
    private static List<String> pv(String... args) {
        List<String> cmd = new ArrayList<>(PvIT.brisk(""));
        cmd.removeLast();
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** bash running {@code script} with {@code args} as its "$@". */
    private static List<String> bash(String script, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", script, "sh"));
        cmd.addAll(args);
        return cmd;
    }

    private static String shell(String script) throws Exception {
        return new String(run(List.of("bash", "-c", script), null).stdout, StandardCharsets.UTF_8);
    }

    private static Run run(List<String> cmd, Path stdin) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "stdout", "");
        Path err = Files.createTempFile(dir, "stderr", "");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(stdin != null ? stdin.toFile() : new java.io.File("/dev/null"))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        return new Run(p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static String lastLine(String text) {
        String[] lines = text.split("[\r\n]");
        for (int i = lines.length - 1; i >= 0; i--) {
            if (!lines[i].isBlank()) {
                return lines[i].strip();
            }
        }
        return "";
    }
}
