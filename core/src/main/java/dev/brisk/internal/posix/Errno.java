// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Error numbers (Linux's, the same on x86-64 and aarch64), the per-thread state segment that
 * holds the errno of a failed call ({@link Syscall} writes it there on x86-64, the FFM linker's
 * errno capture elsewhere), and strerror's words for them.
 *
 * <p>Segments are read by bulk copies into arrays, never by layout accessors: the first layout
 * accessor makes the FFM layout-path machinery generate a dozen method handle classes, several
 * milliseconds of a command's start-up.
 */
public final class Errno {
    public static final int EPERM = 1, ENOENT = 2, ESRCH = 3, EINTR = 4, EIO = 5, E2BIG = 7, ENOEXEC = 8,
            EBADF = 9, ECHILD = 10, EAGAIN = 11, ENOMEM = 12, EACCES = 13, EEXIST = 17, EXDEV = 18,
            ENOTDIR = 20, EISDIR = 21, EINVAL = 22, ENFILE = 23, EMFILE = 24, ENOTTY = 25, ESPIPE = 29,
            EPIPE = 32, ERANGE = 34, ENAMETOOLONG = 36, ENOSYS = 38, ELOOP = 40, EOPNOTSUPP = 95, ECONNABORTED = 103;

    /**
     * Where errno sits in a capture segment: on Linux the capture layout is
     * {@code struct { int errno; }} (ErrnoTest checks it). A constant, because resolving the
     * layout path costs a cold JVM a couple of milliseconds.
     */
    public static final long OFFSET = 0;

    private static final ThreadLocal<MemorySegment> STATE = ThreadLocal.withInitial(Errno::newState);

    private Errno() {}

    /** A fresh capture segment, for a caller that keeps its own (the walker's per-thread scratch). */
    public static MemorySegment newState() {
        return Arena.ofAuto().allocate(Linker.Option.captureStateLayout());
    }

    /** This thread's capture segment: the first argument of every errno-capturing call. */
    public static MemorySegment state() {
        return STATE.get();
    }

    /** The errno of the last failed call on this thread through {@link #state()}. */
    public static int last() {
        return read(STATE.get());
    }

    /** The errno captured in {@code state}. */
    public static int read(MemorySegment state) {
        int[] box = new int[1];
        MemorySegment.copy(state, ValueLayout.JAVA_INT, OFFSET, box, 0, 1);
        return box[0];
    }

    /** Puts {@code errno} into {@code state}, as if a call had set it. */
    public static void write(MemorySegment state, int errno) {
        MemorySegment.copy(new int[] {errno}, 0, state, ValueLayout.JAVA_INT, OFFSET, 1);
    }

    /**
     * glibc's words for {@code errno}: the common ones from a table (so an error costs no
     * binding of {@code strerror}), the rest from {@code strerror(3)}.
     */
    public static String message(int errno) {
        return switch (errno) {
            case EPERM -> "Operation not permitted";
            case ENOENT -> "No such file or directory";
            case EIO -> "Input/output error";
            case EACCES -> "Permission denied";
            case ENOTDIR -> "Not a directory";
            case ENFILE -> "Too many open files in system";
            case EMFILE -> "Too many open files";
            case ENAMETOOLONG -> "File name too long";
            case ELOOP -> "Too many levels of symbolic links";
            default -> Libc.strerror(errno);
        };
    }
}
