// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

/**
 * Receives a metered copy's progress. {@link #onProgress} is called about once per interval from
 * the meter's reporting thread, and once more with {@link Progress#finished()} set from the
 * copying thread after the copy ends; calls never overlap. Implementations must return quickly.
 */
@FunctionalInterface
public interface ProgressListener {
    /** A new snapshot. */
    void onProgress(Progress progress);

    /** A problem the copy stepped over (an unreadable input, a read error); the copy goes on. */
    default void onProblem(String message) {}

    /** A listener that passes every call to {@code first}, then to {@code second}. */
    static ProgressListener both(ProgressListener first, ProgressListener second) {
        return new ProgressListener() {
            @Override
            public void onProgress(Progress progress) {
                first.onProgress(progress);
                second.onProgress(progress);
            }

            @Override
            public void onProblem(String message) {
                first.onProblem(message);
                second.onProblem(message);
            }
        };
    }

    /** A listener that ignores everything. */
    static ProgressListener none() {
        return p -> {};
    }
}
