// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

/**
 * A run could not go on for a reason in its input or setup (a job log that does not match the
 * input, an unreadable input, a worker shell that cannot start). GNU parallel exits 255 for
 * these; the message is one line, fit to print. Or a Perl expression called {@code exit}
 * ({@link #exited}): the run ended at once with that status, without a word, as GNU parallel
 * itself exits then.
 */
public final class ExecException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final boolean outputClosed;
    private int exitStatus = -1;

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

    /** A Perl expression ({@code {= =}}, {@code --rpl}) called {@code exit(status)}. */
    public static ExecException exited(int status) {
        ExecException e = new ExecException("a Perl expression called exit " + status);
        e.exitStatus = status & 0xff;
        return e;
    }

    /** The status a Perl expression's {@code exit} gave ({@link #exited}), else -1. */
    public int exitStatus() {
        return exitStatus;
    }

    public ExecException(String message, Throwable cause) {
        super(message, cause);
        this.outputClosed = false;
    }
}
