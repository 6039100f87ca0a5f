// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

/**
 * A finished job, as its job-log line has it. Immutable; the arrays are not copied, so
 * callers must not change them.
 *
 * @param args the job's arguments, sequence number and slot
 * @param command the command that ran (the last attempt's)
 * @param exitCode its exit status, 0–255 (128+N when the shell saw signal N end the job's last
 *     command), or -1 when it was killed for its timeout or a halt
 * @param signal the signal that killed it, or 0
 * @param startSeconds when its last attempt started, in seconds since the epoch
 * @param runtimeNanos how long its last attempt ran
 * @param attempts how many times it ran ({@code --retries})
 * @param stdoutBytes how many bytes it wrote on standard output
 * @param stdout its standard output when the runner captures output, else null
 * @param stderr its standard error when the runner captures output, else null
 * @param host where it ran, as the job log's Host column shows it ({@code :} for this machine)
 */
public record JobResult(JobArgs args, byte[] command, int exitCode, int signal, double startSeconds,
                        long runtimeNanos, int attempts, long stdoutBytes, byte[] stdout, byte[] stderr,
                        String host) {
    /** True when the job exited 0 and no signal or timeout ended it. */
    public boolean ok() {
        return exitCode == 0 && signal == 0;
    }

    /** The job's sequence number, from 1. */
    public long sequence() {
        return args.sequence();
    }
}
