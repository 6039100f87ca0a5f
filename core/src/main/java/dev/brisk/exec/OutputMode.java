// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

/** How the output of running jobs reaches the run's output streams. */
public enum OutputMode {
    /** {@code --group}, the default: each job's stdout then its stderr, whole, when it ends; never mixed. */
    GROUP,
    /** {@code --line-buffer}: whole lines as they come; lines of different jobs may alternate. */
    LINE_BUFFER,
    /** {@code -u}: bytes as they come; output of different jobs may mix mid-line. */
    UNGROUPED
}
