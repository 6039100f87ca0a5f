// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorStream;
import dev.brisk.internal.posix.Libc;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * State of one find run that every thread sees: whether something failed, the current root, the
 * error stream, the caller's standard input, the mount table, and whether the run was told to
 * end early. Made on the run's own thread, whose {@link Caller} it keeps.
 */
final class RunState {
    /** How often a read of a client's standard input looks whether the run was told to end. */
    private static final int STOP_CHECK_MILLIS = 100;

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

    /** The caller's standard input, for the answers of {@code -ok}; a read ends (EOF) once the run is told to end. */
    synchronized InputStream input() {
        if (input == null) {
            input = caller.self() ? System.in : StoppableInput.of(caller.stdin(), this);
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

    /**
     * A client's standard input read a byte at a time (no byte past an answer's newline is taken
     * from the caller), which ends when the run is told to end: a server's thread must not stay
     * blocked on a terminal its client has left.
     */
    private static final class StoppableInput extends InputStream {
        private final int fd;
        private final InputStream in;
        private final RunState run;

        private StoppableInput(int fd, RunState run) {
            this.fd = fd;
            this.in = DescriptorStream.input(fd);
            this.run = run;
        }

        /** (A factory typed as the superclass: RunState's verification then need not load this class in a direct run.) */
        static InputStream of(int fd, RunState run) {
            return new StoppableInput(fd, run);
        }

        @Override
        public int read() throws IOException {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment p = a.allocate(8, 4);
                while (run.stopSignal == 0) {
                    Libc.pollfd(p, 0, fd, (short) 1); // POLLIN
                    if (Libc.poll(p, 1, STOP_CHECK_MILLIS) > 0) {
                        return in.read();
                    }
                }
            }
            return -1;
        }
    }
}
