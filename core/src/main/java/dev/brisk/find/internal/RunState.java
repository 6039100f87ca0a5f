// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

/** State of one find run that every thread sees: whether something failed, the current root, the error stream. */
final class RunState {
    /** Where actions report their failures (-delete). */
    volatile java.io.PrintStream err = System.err;
    /** Set when a command batch or an output write failed: the exit status becomes 1. */
    volatile boolean failed;
    /** Set when a -printf width or precision did not fit C's int: GNU's EOVERFLOW report at the end. */
    volatile boolean outputTooLarge;
    /** The length of the root being walked, for {@code %P} and {@code %H}. */
    volatile int rootLength;
    /** Whether the walk is sequential (one thread, find's order): then messages come after the records before them. */
    volatile boolean sequential;
}
