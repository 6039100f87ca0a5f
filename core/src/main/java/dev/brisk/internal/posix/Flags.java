// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

/**
 * The flag and constant values brisk passes to Linux (the same on x86-64 and aarch64 unless
 * noted): {@code open(2)}'s O_*, the *at calls' AT_*, {@code fcntl(2)}'s F_*, {@code poll(2)}'s
 * events, {@code access(2)}'s modes and the resource numbers of {@code getrlimit(2)}.
 */
public final class Flags {
    public static final int O_RDONLY = 0, O_WRONLY = 1, O_RDWR = 2, O_CREAT = 0100, O_EXCL = 0200,
            O_NOCTTY = 0400, O_TRUNC = 01000, O_APPEND = 02000, O_NONBLOCK = 04000, O_CLOEXEC = 02000000,
            O_PATH = 010000000;

    private static final boolean ARM = "aarch64".equals(System.getProperty("os.arch"));
    /** These three differ between x86-64 and aarch64 (the generic table), so they are not constants. */
    public static final int O_DIRECTORY = ARM ? 040000 : 0200000, O_NOFOLLOW = ARM ? 0100000 : 0400000,
            O_TMPFILE = 020000000 | O_DIRECTORY;

    public static final int AT_FDCWD = -100, AT_SYMLINK_NOFOLLOW = 0x100, AT_REMOVEDIR = 0x200,
            AT_EMPTY_PATH = 0x1000;

    public static final int R_OK = 4, W_OK = 2, X_OK = 1;

    public static final int F_GETFL = 3, F_SETFL = 4, F_SETPIPE_SZ = 1031, F_GETPIPE_SZ = 1032;

    public static final short POLLIN = 0x1, POLLOUT = 0x4, POLLERR = 0x8, POLLHUP = 0x10, POLLNVAL = 0x20;

    /** {@code struct pollfd}: int fd; short events; short revents. */
    public static final int POLLFD_SIZE = 8;

    public static final int RLIMIT_NOFILE = 7;

    private Flags() {}
}
