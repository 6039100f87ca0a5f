package dev.brisk.walk.internal;

/**
 * Removes a file or an empty directory by its path as bytes ({@code unlinkat(2)} through the
 * walker's own system call binding, so it costs no further FFM linking), for find's
 * {@code -delete}. Thread-safe.
 */
public final class Unlink {
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private Unlink() {}

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
}
