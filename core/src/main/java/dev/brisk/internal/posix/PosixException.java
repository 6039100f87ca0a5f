// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.io.IOException;

/** A failed system call: the call's name, what it acted on, and the errno it set. */
public final class PosixException extends IOException {
    private static final long serialVersionUID = 1L;
    private final int errno;

    public PosixException(String call, String subject, int errno) {
        super((subject == null ? call : subject) + ": " + Errno.message(errno));
        this.errno = errno;
    }

    private PosixException(int errno) {
        super(Errno.message(errno));
        this.errno = errno;
    }

    /**
     * An exception whose message is the system's text alone ("No space left on device"), as the
     * JDK's own streams word a failed write: a stream standing in for one of theirs says the same.
     */
    public static PosixException plain(int errno) {
        return new PosixException(errno);
    }

    /** The errno value, compare with the constants in {@link Errno}. */
    public int errno() {
        return errno;
    }
}
