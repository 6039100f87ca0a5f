// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

/**
 * What a run did. Immutable.
 *
 * @param started how many jobs were started
 * @param failed how many jobs failed (non-zero exit, signal or timeout, after retries)
 * @param halted true when {@code --halt} ended the run early
 * @param haltStatus with {@code halted} on failures: the exit status of the job that triggered
 *     it; else 0
 */
public record RunSummary(long started, long failed, boolean halted, int haltStatus) {
    /**
     * The exit status GNU parallel gives: the number of failed jobs, 101 for more than 100, or
     * the triggering job's status after {@code --halt ...,fail}.
     */
    public int exitStatus() {
        if (halted) {
            return haltStatus;
        }
        return (int) Math.min(failed, 101);
    }
}
