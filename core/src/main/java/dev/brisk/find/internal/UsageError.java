// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

/** A bad find command line; the message is what find prints after {@code find: }. */
public final class UsageError extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageError(String message) {
        super(message);
    }
}
