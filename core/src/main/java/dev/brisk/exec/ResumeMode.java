// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

/** What a run does with an existing job log ({@code --joblog} with a resume flag). */
public enum ResumeMode {
    /** Start afresh: the log is overwritten. */
    NONE,
    /** {@code --resume}: skip the jobs the log lists. */
    RESUME,
    /** {@code --resume-failed}: skip the jobs the log lists as succeeded; run the failed ones and the new ones. */
    RESUME_FAILED,
    /** {@code --retry-failed}: run again the failed commands of the log, ignoring the input. */
    RETRY_FAILED
}
