// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.walk.EntryType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The records {@code getdents64} fills a buffer with ({@code struct linux_dirent64}), read from
 * a {@code byte[]} copy of the buffer: one bulk copy and plain array reads are far cheaper than
 * segment reads before the JIT warms up (see {@link Scratch}). Little-endian, as every machine
 * with a system call table in {@code posix.Syscall} is. Stateless.
 */
final class Dirents {
    /** Offsets in a record: d_ino (8 bytes), d_off (8), d_reclen (2), d_type (1), then the name. */
    static final int OFF_AT = 8, RECLEN_AT = 16, TYPE_AT = 18, NAME_AT = 19;

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Dirents() {}

    static int recordLength(byte[] d, int pos) {
        return (d[pos + RECLEN_AT] & 0xff) | (d[pos + RECLEN_AT + 1] & 0xff) << 8;
    }

    /** The record's inode number (d_ino, its first field). */
    static long ino(byte[] d, int pos) {
        return (long) LONG_LE.get(d, pos);
    }

    /** Where the name of the record at {@code pos} ends (its NUL): searched from the record's last 8 bytes. */
    static int nameEnd(byte[] d, int pos, int reclen) {
        int scan = Math.max(pos + NAME_AT, pos + reclen - 8);
        while (d[scan] != 0) {
            scan++;
        }
        return scan;
    }

    static boolean isDotOrDotDot(byte[] d, int nameAt, int len) {
        return len <= 2 && d[nameAt] == '.' && (len == 1 || d[nameAt + 1] == '.');
    }

    /**
     * Whether the record at {@code d[at]} carries ext4's end-of-directory cookie ({@code d_off}
     * = 2^63-1): the call that would return 0 can then be skipped.
     */
    static boolean endOfDirectory(byte[] d, int at) {
        for (int i = at + OFF_AT; i < at + OFF_AT + 7; i++) {
            if (d[i] != (byte) 0xff) {
                return false;
            }
        }
        return d[at + OFF_AT + 7] == 0x7f;
    }

    /** The entry type a d_type value names; {@code UNKNOWN} where the file system does not say. */
    static EntryType typeOf(int dtype) {
        return switch (dtype) {
            case 8 -> EntryType.FILE;
            case 4 -> EntryType.DIRECTORY;
            case 10 -> EntryType.SYMLINK;
            case 1 -> EntryType.FIFO;
            case 12 -> EntryType.SOCKET;
            case 6 -> EntryType.BLOCK_DEVICE;
            case 2 -> EntryType.CHAR_DEVICE;
            default -> EntryType.UNKNOWN;
        };
    }
}
