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

    /** The errno value, compare with the constants in {@link Errno}. */
    public int errno() {
        return errno;
    }
}
