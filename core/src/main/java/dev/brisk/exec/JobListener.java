// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

/**
 * Hears about jobs as a {@link JobRunner} runs them. Called from the runner's threads: the
 * calls for different jobs may come at once, so implementations must be thread-safe and quick.
 */
public interface JobListener {
    /** A job is about to start (once per attempt). */
    default void started(JobArgs job) {}

    /**
     * A job has finished for good; in input order when the run keeps order ({@code -k}), else
     * in the order the jobs end.
     */
    default void finished(JobResult result) {}

    /** Ignores everything. */
    JobListener NONE = new JobListener() {};
}
