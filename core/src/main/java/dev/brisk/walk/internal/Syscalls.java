// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Statx;
import dev.brisk.internal.posix.Syscall;
import dev.brisk.walk.FileStat;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The walker's system calls ({@code openat}, {@code getdents64}, {@code statx},
 * {@code readlinkat}, {@code close}, {@code getrlimit}) on
 * the shared {@link Syscall} binding. Each call takes a per-thread {@link Scratch} whose capture
 * segment receives errno, so the hot path never touches a ThreadLocal. Every wrapper returns the
 * raw result (negative on failure); the caller reads {@link Scratch#errno()}.
 */
final class Syscalls {
    static final int AT_FDCWD = Flags.AT_FDCWD;
    static final int O_DIR_FLAGS = Flags.O_RDONLY | Flags.O_DIRECTORY | Flags.O_CLOEXEC | Flags.O_NONBLOCK;
    static final int STATX_SIZE = Statx.SIZE;

    private Syscalls() {}

    static int openat(Scratch s, int dirfd, MemorySegment path, int flags) {
        return (int) Syscall.call(s.state, Syscall.OPENAT, dirfd, path.address(), flags, 0, 0);
    }

    static long getdents(Scratch s, int fd, MemorySegment buf, long size) {
        return Syscall.call(s.state, Syscall.GETDENTS64, fd, buf.address(), size, 0, 0);
    }

    static int statx(Scratch s, int dirfd, MemorySegment path, int flags, MemorySegment buf) {
        return Statx.call(s.state, dirfd, path, flags, buf);
    }

    static long readlinkat(Scratch s, int dirfd, MemorySegment path, MemorySegment buf, long size) {
        return Syscall.call(s.state, Syscall.READLINKAT, dirfd, path.address(), buf.address(), size, 0);
    }

    static void close(Scratch s, int fd) {
        if (fd >= 0) {
            Syscall.call(s.state, Syscall.CLOSE, fd, 0, 0, 0, 0);
        }
    }

    /** fstatfs(2) into {@code buf} (120 bytes or more); its first word is the file system's magic number. */
    static int fstatfs(Scratch s, int fd, MemorySegment buf) {
        return (int) Syscall.call(s.state, Syscall.FSTATFS, fd, buf.address(), 0, 0, 0);
    }

    /** The soft limit on open descriptors, or 1024 when it cannot be read. */
    static long openFileLimit() {
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment lim = a.allocate(16, 8);
            if (Syscall.call(Syscall.GETRLIMIT, Flags.RLIMIT_NOFILE, lim.address(), 0, 0) != 0) {
                return 1024;
            }
            long[] soft = new long[1];
            MemorySegment.copy(lim, ValueLayout.JAVA_LONG, 0, soft, 0, 1); // no layout accessor: see Scratch
            return soft[0];
        }
    }

    /** Decodes a {@code struct statx} buffer. */
    static FileStat decode(MemorySegment b) {
        int[] w = Statx.words(b);
        return new FileStat(Statx.mode(w), Statx.links(w), Statx.uid(w), Statx.gid(w),
                Statx.size(w), Statx.blocks(w), Statx.ino(w), Statx.dev(w), Statx.rdev(w),
                Statx.atimeSeconds(w), Statx.atimeNanos(w), Statx.mtimeSeconds(w), Statx.mtimeNanos(w),
                Statx.ctimeSeconds(w), Statx.ctimeNanos(w));
    }

    static long ino(MemorySegment b) {
        return Statx.ino(Statx.words(b));
    }

    static long dev(MemorySegment b) {
        return Statx.dev(Statx.words(b));
    }
}
