// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Calls on a path given as part of a byte array, for find's per-entry actions:
 * {@code unlinkat(2)} for {@code -delete}, and {@code faccessat(2)} for {@code -readable},
 * {@code -writable} and {@code -executable}. Each thread keeps its errno capture and a
 * growable name buffer, so a call per entry allocates nothing. Thread-safe.
 */
public final class PathCalls {
    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

    private PathCalls() {}

    /** One thread's errno capture and NUL-terminated name buffer. */
    private static final class Buffers {
        final Arena arena = Arena.ofAuto();
        final MemorySegment state = Errno.newState();
        MemorySegment name = arena.allocate(4096);

        MemorySegment cString(byte[] bytes, int len) {
            if (len + 1 > name.byteSize()) {
                name = arena.allocate(Math.max(len + 1, name.byteSize() * 2));
            }
            MemorySegment.copy(bytes, 0, name, ValueLayout.JAVA_BYTE, 0, len);
            MemorySegment.copy(new byte[1], 0, name, ValueLayout.JAVA_BYTE, len, 1);
            return name;
        }
    }

    /**
     * Removes {@code path[0, len)} (relative to the working directory), with
     * {@code AT_REMOVEDIR} when {@code directory}; returns null on success, else the reason as
     * strerror words it.
     */
    public static String unlink(byte[] path, int len, boolean directory) {
        Buffers b = BUFFERS.get();
        long r = Syscall.call(b.state, Syscall.UNLINKAT, Flags.AT_FDCWD, b.cString(path, len).address(),
                directory ? Flags.AT_REMOVEDIR : 0, 0, 0);
        return r == 0 ? null : Errno.message(Errno.read(b.state));
    }

    /**
     * Whether the real user may access {@code path[0, len)} (relative to the working directory)
     * as {@code mode} asks ({@code access(2)}: {@link Flags#R_OK}, {@link Flags#W_OK},
     * {@link Flags#X_OK}).
     */
    public static boolean access(byte[] path, int len, int mode) {
        Buffers b = BUFFERS.get();
        return Syscall.call(b.state, Syscall.FACCESSAT, Flags.AT_FDCWD, b.cString(path, len).address(), mode, 0, 0) == 0;
    }
}
