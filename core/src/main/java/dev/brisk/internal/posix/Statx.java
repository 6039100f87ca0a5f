// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@code statx(2)} and the one decoder of its {@code struct statx} (one layout on every
 * architecture). The buffer is read by one bulk copy into ints ({@link #words}), not by layout
 * accessors (see {@link Errno}); the accessors take those words. Device numbers are encoded as
 * glibc's {@code makedev} does, as {@code st_dev} of {@code stat(2)} is. Little-endian machines
 * only (every machine with call numbers in {@link Syscall} is).
 */
public final class Statx {
    /** The size of a statx buffer. */
    public static final int SIZE = 256;
    /** The mask asking for every field of {@code struct stat}. */
    public static final int BASIC_STATS = 0x7ff;

    private Statx() {}

    /** statx of {@code path} relative to {@code dirfd} into {@code buf}: 0, or -1 with errno in {@code state}. */
    public static int call(MemorySegment state, int dirfd, MemorySegment path, int flags, MemorySegment buf) {
        return (int) Syscall.call(state, Syscall.STATX, dirfd, path.address(), flags, BASIC_STATS, buf.address());
    }

    /** The first 144 bytes of a statx buffer, as ints in the machine's order. */
    public static int[] words(MemorySegment buf) {
        int[] w = new int[36];
        MemorySegment.copy(buf, ValueLayout.JAVA_INT, 0, w, 0, w.length);
        return w;
    }

    public static int blockSize(int[] w) {
        return w[1];
    }

    public static long links(int[] w) {
        return Integer.toUnsignedLong(w[4]);
    }

    public static int uid(int[] w) {
        return w[5];
    }

    public static int gid(int[] w) {
        return w[6];
    }

    /** {@code st_mode}: the type and permission bits. */
    public static int mode(int[] w) {
        return w[7] & 0xffff;
    }

    public static long ino(int[] w) {
        return longAt(w, 32);
    }

    public static long size(int[] w) {
        return longAt(w, 40);
    }

    public static long blocks(int[] w) {
        return longAt(w, 48);
    }

    public static long atimeSeconds(int[] w) {
        return longAt(w, 64);
    }

    public static int atimeNanos(int[] w) {
        return w[18];
    }

    public static long ctimeSeconds(int[] w) {
        return longAt(w, 96);
    }

    public static int ctimeNanos(int[] w) {
        return w[26];
    }

    public static long mtimeSeconds(int[] w) {
        return longAt(w, 112);
    }

    public static int mtimeNanos(int[] w) {
        return w[30];
    }

    /** The device a special file stands for ({@code st_rdev}). */
    public static long rdev(int[] w) {
        return makedev(w[32], w[33]);
    }

    /** The device the file is on ({@code st_dev}). */
    public static long dev(int[] w) {
        return makedev(w[34], w[35]);
    }

    /** The 64-bit field at byte {@code off}. */
    private static long longAt(int[] w, int off) {
        return Integer.toUnsignedLong(w[off / 4]) | (long) w[off / 4 + 1] << 32;
    }

    /** glibc's {@code makedev}. */
    public static long makedev(int major, int minor) {
        long ma = Integer.toUnsignedLong(major), mi = Integer.toUnsignedLong(minor);
        return ((ma & 0xfffff000L) << 32) | ((ma & 0xfffL) << 8) | ((mi & 0xffffff00L) << 12) | (mi & 0xffL);
    }
}
