// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

/**
 * System calls on a path given as bytes, through the walker's own {@code syscall(2)} binding (so
 * they cost no further FFM linking): {@code unlinkat(2)} for find's {@code -delete}, and
 * {@code faccessat(2)} for {@code -readable}, {@code -writable} and {@code -executable}.
 * Thread-safe.
 */
public final class PathCalls {
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private PathCalls() {}

    /**
     * Removes {@code path[0, len)} (relative to the working directory), with
     * {@code AT_REMOVEDIR} when {@code directory}; returns null on success, else the reason as
     * strerror words it.
     */
    public static String unlink(byte[] path, int len, boolean directory) {
        Scratch s = SCRATCH.get();
        int r = Syscalls.unlinkat(s, Syscalls.AT_FDCWD, s.cString(path, 0, len), directory ? Syscalls.AT_REMOVEDIR : 0);
        return r == 0 ? null : Errno.message(s.errno());
    }

    /**
     * Whether the real user may access {@code path[0, len)} (relative to the working directory)
     * as {@code mode} asks ({@code access(2)}: 4 read, 2 write, 1 execute/search).
     */
    public static boolean access(byte[] path, int len, int mode) {
        Scratch s = SCRATCH.get();
        return Syscalls.faccessat(s, Syscalls.AT_FDCWD, s.cString(path, 0, len), mode) == 0;
    }
}
