// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

/**
 * A run could not go on for a reason in its input or setup (a job log that does not match the
 * input, an unreadable input, a worker shell that cannot start). GNU parallel exits 255 for
 * these; the message is one line, fit to print.
 */
public final class ExecException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final boolean outputClosed;

    public ExecException(String message) {
        this(message, false);
    }

    /** {@code outputClosed}: the run stopped because the reader of its standard output went away. */
    public ExecException(String message, boolean outputClosed) {
        super(message);
        this.outputClosed = outputClosed;
    }

    /**
     * Whether the run stopped because the reader of its output went away ({@code | head}): a
     * pipe whose read end is closed, seen on the descriptor itself, not guessed from a message.
     * GNU parallel then exits 255 without a word.
     */
    public boolean outputClosed() {
        return outputClosed;
    }

    public ExecException(String message, Throwable cause) {
        super(message, cause);
        this.outputClosed = false;
    }
}
