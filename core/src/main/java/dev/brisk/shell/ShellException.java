// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

/**
 * A command could not be run to completion for a reason outside the command itself: the worker
 * shell died under it, the pool was closed while it ran, the calling thread was interrupted, or
 * a streaming sink failed. A command that fails on its own terms (non-zero exit, a signal, a
 * timeout) is not an exception: it is a {@link CommandResult}.
 */
public class ShellException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ShellException(String message) {
        super(message);
    }

    public ShellException(String message, Throwable cause) {
        super(message, cause);
    }
}
