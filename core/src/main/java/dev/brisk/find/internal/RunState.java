// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorStream;
import java.io.InputStream;
import java.util.Map;

/**
 * State of one find run that every thread sees: whether something failed, the current root, the
 * error stream, the caller's standard input, the mount table, and whether the run was told to
 * end early. Made on the run's own thread, whose {@link Caller} it keeps.
 */
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
    /** The signal that ended the run early (relayed by a server's client), or 0. */
    volatile int stopSignal;
    private final Caller caller = Caller.current();
    private InputStream input;
    private volatile Map<Long, String> mounts;

    /**
     * The signal that ends the run: the one it was stopped with, or the one its client relayed
     * before the server ran the run's hook (the caller's standard input already reads as ended
     * then, so an {@code -ok} may have gone on without an answer).
     */
    int stopSignal() {
        int s = stopSignal;
        return s != 0 ? s : caller.signal();
    }

    /** The caller's standard input, for the answers of {@code -ok}; a read ends (EOF) once the run is told to end. */
    synchronized InputStream input() {
        if (input == null) {
            // a client's ends (EOF) once it relayed a signal: a server's thread must not stay
            // blocked on a terminal its client has left; -ok reads it a byte at a time, so no
            // byte past an answer's newline is taken from the caller
            input = caller.self() ? System.in : DescriptorStream.input(caller.stdin());
        }
        return input;
    }

    /** The type of the file system on device {@code dev} (see {@link FsTypes}), from the mount table as this run first read it. */
    String fileSystemType(long dev) {
        Map<Long, String> m = mounts;
        if (m == null) {
            synchronized (this) {
                if (mounts == null) {
                    mounts = FsTypes.read();
                }
                m = mounts;
            }
        }
        return m.getOrDefault(dev, "unknown");
    }
}
