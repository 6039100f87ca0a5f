// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

import java.nio.charset.StandardCharsets;

/**
 * A problem the walk met and went past: a directory it could not read, an entry that vanished,
 * a symbolic link loop. {@code path} is the bytes of the path involved; {@code message} is
 * the reason as {@code strerror(3)} words it (or a sentence for loops); {@code loopOf}, for a
 * file system loop, the ancestor {@code path} is the same directory as (else null).
 */
public record WalkError(byte[] path, int errno, String message, byte[] loopOf) {
    /** An error with no second path. */
    public WalkError(byte[] path, int errno, String message) {
        this(path, errno, message, null);
    }

    /** The path for display (invalid UTF-8 replaced). */
    public String displayPath() {
        return new String(path, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "'" + displayPath() + "': " + message;
    }
}
