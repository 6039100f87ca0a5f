// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/**
 * What a finished command left: its exit status and its output, byte for byte.
 *
 * <p>Immutable and thread-safe. The byte arrays are copied on the way out, so a caller may keep
 * or change what it gets. When a command streamed its output to {@link Command#stdoutTo} or
 * {@link Command#stderrTo}, the matching array here is empty.
 */
public final class CommandResult {
    private final int exitCode;
    private final byte[] stdout;
    private final byte[] stderr;
    private final boolean timedOut;
    private final boolean stdoutTruncated;
    private final boolean stderrTruncated;
    private final Duration elapsed;

    /** Made by the pool; public for tests and for callers that adapt other runners. */
    public CommandResult(int exitCode, byte[] stdout, byte[] stderr, boolean timedOut,
                         boolean stdoutTruncated, boolean stderrTruncated, Duration elapsed) {
        this.exitCode = exitCode;
        this.stdout = stdout.clone();
        this.stderr = stderr.clone();
        this.timedOut = timedOut;
        this.stdoutTruncated = stdoutTruncated;
        this.stderrTruncated = stderrTruncated;
        this.elapsed = elapsed;
    }

    /**
     * The exit status as a shell's {@code $?} gives it: 0–255, or 128+N when signal N killed the
     * command (so 143 for SIGTERM, 137 for SIGKILL).
     */
    public int exitCode() {
        return exitCode;
    }

    /** True when the exit status is 0 and the command did not time out. */
    public boolean ok() {
        return exitCode == 0 && !timedOut;
    }

    /** The command's standard output, byte for byte (a copy). */
    public byte[] stdout() {
        return stdout.clone();
    }

    /** The command's standard error, byte for byte (a copy). */
    public byte[] stderr() {
        return stderr.clone();
    }

    /** Standard output decoded as UTF-8 (malformed bytes replaced): for display. */
    public String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }

    /** Standard error decoded as UTF-8 (malformed bytes replaced): for display. */
    public String stderrText() {
        return new String(stderr, StandardCharsets.UTF_8);
    }

    /** True when the command ran past its timeout and the pool killed its process group. */
    public boolean timedOut() {
        return timedOut;
    }

    /** True when either stream passed the output cap and the excess was dropped. */
    public boolean truncated() {
        return stdoutTruncated || stderrTruncated;
    }

    /** True when standard output passed the output cap ({@link Command#maxOutputBytes}). */
    public boolean stdoutTruncated() {
        return stdoutTruncated;
    }

    /** True when standard error passed the output cap ({@link Command#maxOutputBytes}). */
    public boolean stderrTruncated() {
        return stderrTruncated;
    }

    /** Wall time from handing the command to a shell to its result. */
    public Duration elapsed() {
        return elapsed;
    }

    @Override
    public String toString() {
        return "CommandResult[exit=" + exitCode + (timedOut ? ", timed out" : "")
                + ", stdout=" + stdout.length + " bytes" + (stdoutTruncated ? " (truncated)" : "")
                + ", stderr=" + stderr.length + " bytes" + (stderrTruncated ? " (truncated)" : "")
                + ", " + elapsed.toNanos() / 1000 + " µs]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CommandResult r && r.exitCode == exitCode && r.timedOut == timedOut
                && Arrays.equals(r.stdout, stdout) && Arrays.equals(r.stderr, stderr)
                && r.stdoutTruncated == stdoutTruncated && r.stderrTruncated == stderrTruncated;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * exitCode + Arrays.hashCode(stdout)) + Arrays.hashCode(stderr);
    }
}
