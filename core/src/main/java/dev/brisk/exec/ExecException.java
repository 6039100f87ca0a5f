// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

/**
 * A run could not go on for a reason in its input or setup (a job log that does not match the
 * input, an unreadable input, a worker shell that cannot start). GNU parallel exits 255 for
 * these; the message is one line, fit to print.
 */
public final class ExecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ExecException(String message) {
        super(message);
    }

    public ExecException(String message, Throwable cause) {
        super(message, cause);
    }
}
