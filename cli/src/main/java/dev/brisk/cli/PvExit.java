// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.meter.CopyResult;
import dev.brisk.meter.CopyResult.Outcome;
import dev.brisk.meter.CopyResult.Problem;

/**
 * {@code brisk pv}'s exit status, pv's bitmask: 0 when all went well, otherwise the OR of the
 * bits below; a bad command line alone gives 64, as pv 1.6 does.
 */
enum PvExit {
    /** One or more files could not be accessed, stat(2)ed, or opened. */
    ACCESS(2),
    /** An input file was the same as the output file. */
    SAME_FILE(4),
    /** No input could be opened at all (pv: "error moving to the next file"). */
    NEXT_FILE(8),
    /** Reading or writing failed part way. */
    TRANSFER(16),
    /** A signal or interrupt ended the copy early. */
    SIGNAL(32),
    /** The command line was wrong. */
    USAGE(64);

    private final int bit;

    PvExit(int bit) {
        this.bit = bit;
    }

    int bit() {
        return bit;
    }

    /** The status for a finished copy; an output reader that went away is not an error, as in pv. */
    static int of(CopyResult r) {
        int status = 0;
        for (Problem p : r.problems()) {
            status |= switch (p) {
                case INPUT_UNREADABLE -> ACCESS.bit;
                case INPUT_IS_OUTPUT -> SAME_FILE.bit;
                case NO_INPUT_OPENED -> NEXT_FILE.bit;
                case TRANSFER_ERROR -> TRANSFER.bit;
            };
        }
        if (r.outcome() == Outcome.INTERRUPTED) {
            status |= SIGNAL.bit;
        }
        return status;
    }
}
