// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;

/**
 * The C library calls brisk needs, bound once through the FFM linker (Linux, x86_64 and aarch64).
 *
 * <p>Each wrapper returns the call's result or throws {@link PosixException} with the errno the
 * call set; errno is captured per thread through {@link Linker.Option#captureCallState}, so the
 * wrappers are thread-safe. Paths are NUL-terminated byte strings: file names are bytes.
 * Other packages bind their own hot-path calls with {@link #downcall} and read errno with
 * {@link #errno()}.
 */
public final class Libc {
    public static final int EPERM = 1, ENOENT = 2, ESRCH = 3, EINTR = 4, EIO = 5, EBADF = 9, ENOMEM = 12,
            EAGAIN = 11, EACCES = 13, EEXIST = 17, ENOTDIR = 20, EINVAL = 22, EMFILE = 24,
            EPIPE = 32, ELOOP = 40;

    public static final int O_RDONLY = 0, O_WRONLY = 1, O_RDWR = 2, O_CREAT = 0100, O_EXCL = 0200,
            O_NOCTTY = 0400, O_TRUNC = 01000, O_APPEND = 02000, O_NONBLOCK = 04000,
            O_DIRECTORY = 0200000, O_NOFOLLOW = 0400000, O_CLOEXEC = 02000000;

    public static final short POLLIN = 0x1, POLLOUT = 0x4, POLLERR = 0x8, POLLHUP = 0x10,
            POLLNVAL = 0x20;

    public static final int SIGHUP = 1, SIGINT = 2, SIGKILL = 9, SIGPIPE = 13, SIGTERM = 15,
            SIGCONT = 18, SIGSTOP = 19;

    public static final int F_GETFL = 3, F_SETFL = 4, F_SETPIPE_SZ = 1031, F_GETPIPE_SZ = 1032;

    public static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LOOKUP = LINKER.defaultLookup();
    private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO_HANDLE = CAPTURE_LAYOUT.varHandle(
            MemoryLayout.PathElement.groupElement("errno"));
    private static final ThreadLocal<MemorySegment> CAPTURED = ThreadLocal.withInitial(
            () -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));

    /** {@code struct pollfd}: int fd; short events; short revents. */
    public static final int POLLFD_SIZE = 8;

    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;
    private static final AddressLayout A = ValueLayout.ADDRESS;

    private static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(I, A, I, I));
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(I, I));
    private static final MethodHandle READ = downcall("read", FunctionDescriptor.of(L, I, A, L));
    private static final MethodHandle WRITE = downcall("write", FunctionDescriptor.of(L, I, A, L));
    private static final MethodHandle PWRITE = downcall("pwrite", FunctionDescriptor.of(L, I, A, L, L));
    private static final MethodHandle FTRUNCATE = downcall("ftruncate", FunctionDescriptor.of(I, I, L));
    private static final MethodHandle POLL = downcall("poll", FunctionDescriptor.of(I, A, L, I));
    private static final MethodHandle MKFIFO = downcall("mkfifo", FunctionDescriptor.of(I, A, I));
    private static final MethodHandle UNLINK = downcall("unlink", FunctionDescriptor.of(I, A));
    private static final MethodHandle KILL = downcall("kill", FunctionDescriptor.of(I, I, I));
    private static final MethodHandle FCNTL = downcall("fcntl", FunctionDescriptor.of(I, I, I, I));
    private static final MethodHandle ISATTY = downcall("isatty", FunctionDescriptor.of(I, I));
    private static final MethodHandle GETPID = downcall("getpid", FunctionDescriptor.of(I));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(
            LOOKUP.find("strerror").orElseThrow(),
            FunctionDescriptor.of(A.withTargetLayout(MemoryLayout.sequenceLayout(1024, ValueLayout.JAVA_BYTE)), I));

    private Libc() {}

    /**
     * Binds {@code name} with errno capture: the returned handle takes the capture segment
     * ({@link #callState()}) as its first argument, before the C arguments.
     */
    public static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = LOOKUP.find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("no symbol " + name + " in the C library"));
        return LINKER.downcallHandle(symbol, descriptor, CAPTURE);
    }

    /** This thread's errno capture segment, the first argument of every {@link #downcall}. */
    public static MemorySegment callState() {
        return CAPTURED.get();
    }

    /** The errno the last {@link #downcall} on this thread set. */
    public static int errno() {
        return (int) ERRNO_HANDLE.get(CAPTURED.get(), 0L);
    }

    /** The C library's message for {@code errno}, as {@code strerror(3)} gives it. */
    public static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.getString(0, StandardCharsets.UTF_8);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    /** A NUL-terminated copy of {@code bytes} in {@code arena}. */
    public static MemorySegment cString(Arena arena, byte[] bytes) {
        MemorySegment s = arena.allocate(bytes.length + 1L);
        MemorySegment.copy(bytes, 0, s, ValueLayout.JAVA_BYTE, 0, bytes.length);
        s.set(ValueLayout.JAVA_BYTE, bytes.length, (byte) 0);
        return s;
    }

    public static int open(byte[] path, int flags, int mode) throws PosixException {
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(callState(), cString(arena, path), flags, mode);
            if (fd < 0) {
                throw new PosixException("open", display(path), errno());
            }
            return fd;
        } catch (PosixException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Closes {@code fd}, ignoring errors (close's only useful error, EBADF, is a bug). */
    public static void close(int fd) {
        if (fd < 0) {
            return;
        }
        try {
            int r = (int) CLOSE.invokeExact(callState(), fd);
            assert r == 0 || errno() != EBADF : "close of a bad descriptor " + fd;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** read(2): bytes read, 0 at end of file, -1 when a non-blocking descriptor has none (EAGAIN). */
    public static long read(int fd, MemorySegment buf, long count) throws PosixException {
        return transfer(READ, "read", fd, buf, count);
    }

    /** write(2): bytes written (maybe short), -1 when a non-blocking descriptor is full (EAGAIN). */
    public static long write(int fd, MemorySegment buf, long count) throws PosixException {
        return transfer(WRITE, "write", fd, buf, count);
    }

    /** One read(2) or write(2), retried on EINTR; EAGAIN gives -1. */
    private static long transfer(MethodHandle call, String name, int fd, MemorySegment buf, long count)
            throws PosixException {
        while (true) {
            long n;
            try {
                n = (long) call.invokeExact(callState(), fd, buf, count);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            if (n >= 0) {
                return n;
            }
            int e = errno();
            if (e == EAGAIN) {
                return -1;
            }
            if (e != EINTR) {
                throw new PosixException(name, null, e);
            }
        }
    }

    /** pwrite(2) of all {@code count} bytes at {@code offset}, looping over short writes. */
    public static void pwriteFully(int fd, MemorySegment buf, long count, long offset) throws PosixException {
        long done = 0;
        while (done < count) {
            long n;
            try {
                n = (long) PWRITE.invokeExact(callState(), fd, buf.asSlice(done), count - done, offset + done);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            if (n < 0) {
                int e = errno();
                if (e == EINTR) {
                    continue;
                }
                throw new PosixException("pwrite", null, e);
            }
            done += n;
        }
    }

    /** ftruncate(2). */
    public static void ftruncate(int fd, long length) throws PosixException {
        try {
            int r = (int) FTRUNCATE.invokeExact(callState(), fd, length);
            if (r < 0) {
                throw new PosixException("ftruncate", null, errno());
            }
        } catch (PosixException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** poll(2) over {@code count} pollfd structs; EINTR returns 0 (the caller re-checks its clock). */
    public static int poll(MemorySegment fds, int count, int timeoutMillis) throws PosixException {
        try {
            int n = (int) POLL.invokeExact(callState(), fds, (long) count, timeoutMillis);
            if (n < 0) {
                int e = errno();
                if (e == EINTR) {
                    return 0;
                }
                throw new PosixException("poll", null, e);
            }
            return n;
        } catch (PosixException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    public static void mkfifo(byte[] path, int mode) throws PosixException {
        try (Arena arena = Arena.ofConfined()) {
            int r = (int) MKFIFO.invokeExact(callState(), cString(arena, path), mode);
            if (r < 0) {
                throw new PosixException("mkfifo", display(path), errno());
            }
        } catch (PosixException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** unlink(2); a missing file is not an error. */
    public static void unlink(byte[] path) throws PosixException {
        try (Arena arena = Arena.ofConfined()) {
            int r = (int) UNLINK.invokeExact(callState(), cString(arena, path));
            if (r < 0 && errno() != ENOENT) {
                throw new PosixException("unlink", display(path), errno());
            }
        } catch (PosixException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** kill(2); returns false when no such process or group exists (ESRCH). */
    public static boolean kill(int pid, int signal) throws PosixException {
        try {
            int r = (int) KILL.invokeExact(callState(), pid, signal);
            if (r < 0) {
                int e = errno();
                if (e == ESRCH) {
                    return false;
                }
                throw new PosixException("kill", Integer.toString(pid), e);
            }
            return true;
        } catch (PosixException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** fcntl(2) with an int argument. */
    public static int fcntl(int fd, int cmd, int arg) throws PosixException {
        try {
            int r = (int) FCNTL.invokeExact(callState(), fd, cmd, arg);
            if (r < 0) {
                throw new PosixException("fcntl", null, errno());
            }
            return r;
        } catch (PosixException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    public static boolean isatty(int fd) {
        try {
            return (int) ISATTY.invokeExact(callState(), fd) == 1;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    public static int getpid() {
        try {
            return (int) GETPID.invokeExact(callState());
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** A display form of a byte path (invalid UTF-8 replaced): for messages only. */
    public static String display(byte[] path) {
        return new String(path, StandardCharsets.UTF_8);
    }

    /** Sets a pollfd at {@code index}: descriptor and events, revents cleared. */
    public static void pollfd(MemorySegment fds, int index, int fd, short events) {
        long base = (long) index * POLLFD_SIZE;
        fds.set(ValueLayout.JAVA_INT, base, fd);
        fds.set(ValueLayout.JAVA_SHORT, base + 4, events);
        fds.set(ValueLayout.JAVA_SHORT, base + 6, (short) 0);
    }

    /** The revents of the pollfd at {@code index}. */
    public static short revents(MemorySegment fds, int index) {
        return fds.get(ValueLayout.JAVA_SHORT, (long) index * POLLFD_SIZE + 6);
    }
}
