// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Libc;

/**
 * Messages for the errors a walk meets, as glibc's {@code strerror} words them; the common ones
 * come from a table so a walk with an error does not pay for binding {@code strerror}.
 */
final class Errno {
    private Errno() {}

    static String message(int errno) {
        return switch (errno) {
            case 1 -> "Operation not permitted";
            case 2 -> "No such file or directory";
            case 5 -> "Input/output error";
            case 13 -> "Permission denied";
            case 20 -> "Not a directory";
            case 23 -> "Too many open files in system";
            case 24 -> "Too many open files";
            case 36 -> "File name too long";
            case 40 -> "Too many levels of symbolic links";
            default -> Libc.strerror(errno);
        };
    }
}
