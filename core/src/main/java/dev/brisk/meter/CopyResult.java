// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.util.Set;

/**
 * What a metered copy did.
 *
 * @param bytes    bytes written (or read, when discarding)
 * @param lines    lines counted (0 unless counting lines)
 * @param outcome  why it stopped
 * @param problems the kinds of problem met along the way (each also reported to the listener)
 */
public record CopyResult(long bytes, long lines, Outcome outcome, Set<Problem> problems) {

    public CopyResult {
        problems = Set.copyOf(problems);
    }

    /** Why a copy stopped. */
    public enum Outcome {
        /** Every input reached its end. */
        END_OF_INPUT,
        /** The size was reached with stop-at-size. */
        SIZE_REACHED,
        /** The reader of the output went away (EPIPE): not an error, as in pv. */
        OUTPUT_CLOSED,
        /** Writing failed (disk full, I/O error): the copy was abandoned. */
        WRITE_FAILED,
        /** The copying thread was interrupted. */
        INTERRUPTED
    }

    /** A problem stepped over; the CLI maps each to one of pv's exit status bits. */
    public enum Problem {
        /** An input could not be opened or inspected. */
        INPUT_UNREADABLE,
        /** An input was the output file itself, and was skipped. */
        INPUT_IS_OUTPUT,
        /** No input at all could be opened. */
        NO_INPUT_OPENED,
        /** Reading or writing failed part way. */
        TRANSFER_ERROR
    }
}
