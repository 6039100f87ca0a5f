// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The descriptor, file and process calls of the warm shell pool and the meter, as exceptions
 * rather than return codes: each wrapper returns the call's result or throws
 * {@link PosixException} with the errno the call set. They go through {@link Syscall} (one FFM
 * shape for all of them); the few real C library functions brisk needs ({@code strerror}, and
 * whatever a feature binds with {@link #downcall}) are bound on first use, a holder class each,
 * so a command pays only for the calls it makes. Paths are NUL-terminated byte strings: file
 * names are bytes. Thread-safe: errno is captured per thread ({@link Errno#state()}).
 */
public final class Libc {
    private static final Linker LINKER = Linker.nativeLinker();

    private static final int S_IFMT = 0170000, S_IFIFO = 0010000, S_IFSOCK = 0140000, TCGETS = 0x5401,
            TIOCGWINSZ = 0x5413;
    /** Linux's PATH_MAX: the longest path a call takes, with its NUL. */
    public static final int PATH_MAX = 4096;

    private static final class Strerror {
        static final MethodHandle H = LINKER.downcallHandle(LINKER.defaultLookup().find("strerror").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS.withTargetLayout(
                        MemoryLayout.sequenceLayout(1024, ValueLayout.JAVA_BYTE)), ValueLayout.JAVA_INT));
    }

    private Libc() {}

    /** The terminal's columns and rows (ioctl TIOCGWINSZ), or null when {@code fd} is not a terminal. */
    public static int[] windowSize(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ws = arena.allocate(8, 2);
            if (Syscall.call(Syscall.IOCTL, fd, TIOCGWINSZ, ws.address(), 0) != 0) {
                return null;
            }
            short[] v = new short[2];
            MemorySegment.copy(ws, ValueLayout.JAVA_SHORT, 0, v, 0, 2);
            return new int[] {Short.toUnsignedInt(v[1]), Short.toUnsignedInt(v[0])};
        }
    }

    /** The C library's message for {@code errno}, as {@code strerror(3)} gives it. */
    public static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) Strerror.H.invokeExact(errno);
            return s.getString(0, StandardCharsets.UTF_8);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    /** A NUL-terminated copy of {@code bytes} in {@code arena}. */
    public static MemorySegment cString(Arena arena, byte[] bytes) {
        MemorySegment s = arena.allocate(bytes.length + 1L);
        MemorySegment.copy(bytes, 0, s, ValueLayout.JAVA_BYTE, 0, bytes.length);
        return s; // allocate zeroes the memory: the NUL is there
    }

    /** One system call on this thread's state: the result, or -errno. */
    private static long sys(long nr, long a, long b, long c, long d) {
        return Syscall.call(nr, a, b, c, d);
    }

    public static int open(byte[] path, int flags, int mode) throws PosixException {
        try (Arena arena = Arena.ofConfined()) {
            long fd = sys(Syscall.OPENAT, Flags.AT_FDCWD, cString(arena, path).address(), flags, mode);
            if (fd < 0) {
                throw new PosixException("open", display(path), (int) -fd);
            }
            return (int) fd;
        }
    }

    /** open(2) for a caller that decides what an error means: a descriptor, or {@code -errno}. */
    public static int openOrErrno(byte[] path, int flags, int mode) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) sys(Syscall.OPENAT, Flags.AT_FDCWD, cString(arena, path).address(), flags, mode);
        }
    }

    /**
     * A close-on-exec {@code O_PATH} descriptor of the directory {@code path}, however long the
     * path: opened relative to each piece in turn, every piece shorter than PATH_MAX; or
     * {@code -errno} (ENAMETOOLONG only for a single name longer than the kernel takes).
     */
    public static int openDirectoryOrErrno(byte[] path) {
        int flags = Flags.O_PATH | Flags.O_DIRECTORY | Flags.O_CLOEXEC;
        try (Arena arena = Arena.ofConfined()) {
            int dirfd = Flags.AT_FDCWD, start = 0;
            while (path.length - start >= PATH_MAX) {
                int cut = start + PATH_MAX - 1;
                while (cut > start && path[cut] != '/') {
                    cut--;
                }
                if (cut == start) {
                    break; // one name longer than a piece: the kernel says ENAMETOOLONG
                }
                byte[] piece = Arrays.copyOfRange(path, start, cut);
                long next = sys(Syscall.OPENAT, dirfd, cString(arena, piece).address(), flags, 0);
                close(dirfd);
                if (next < 0) {
                    return (int) next;
                }
                dirfd = (int) next;
                start = cut + 1;
            }
            byte[] rest = Arrays.copyOfRange(path, start, path.length);
            long fd = sys(Syscall.OPENAT, dirfd, cString(arena, rest.length == 0 ? new byte[] {'.'} : rest).address(), flags, 0);
            close(dirfd);
            return (int) fd;
        }
    }

    /** unlink(2) for a caller that decides what an error means: 0, or {@code -errno}. */
    public static int unlinkOrErrno(byte[] path) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) sys(Syscall.UNLINKAT, Flags.AT_FDCWD, cString(arena, path).address(), 0, 0);
        }
    }

    /** pipe2(2) into {@code fds} (two ints: read end, write end): 0, or {@code -errno}. */
    public static int pipe2(MemorySegment fds, int flags) {
        return (int) sys(Syscall.PIPE2, fds.address(), flags, 0, 0);
    }

    /** A pipe whose ends close on exec: {read end, write end}. */
    public static int[] pipe() throws PosixException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(ValueLayout.JAVA_INT, 2);
            int r = pipe2(fds, Flags.O_CLOEXEC);
            if (r != 0) {
                throw new PosixException("pipe2", null, -r);
            }
            return new int[] {fds.getAtIndex(ValueLayout.JAVA_INT, 0), fds.getAtIndex(ValueLayout.JAVA_INT, 1)};
        }
    }

    /** This process's soft limit on open descriptors (RLIMIT_NOFILE), or 1024 when it cannot be read. */
    public static long openFileLimit() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment lim = arena.allocate(16, 8);
            if (sys(Syscall.GETRLIMIT, Flags.RLIMIT_NOFILE, lim.address(), 0, 0) != 0) {
                return 1024;
            }
            return lim.get(ValueLayout.JAVA_LONG, 0);
        }
    }

    /** How many descriptors this process has open (the entries of /proc/self/fd), or 0 when it cannot tell. */
    public static int openFiles() {
        String[] fds = new java.io.File("/proc/self/fd").list();
        return fds == null ? 0 : fds.length;
    }

    /** kill(2) for a caller that only asks whether the signal went: false for any error (no such process, say). */
    public static boolean signal(int pid, int signal) {
        return sys(Syscall.KILL, pid, signal, 0, 0) == 0;
    }

    /** Closes {@code fd}, ignoring errors (close's only useful error, EBADF, is a bug). */
    public static void close(int fd) {
        if (fd >= 0) {
            long r = sys(Syscall.CLOSE, fd, 0, 0, 0);
            assert r != -Errno.EBADF : "close of a bad descriptor " + fd;
        }
    }

    /** read(2): bytes read, 0 at end of file, -1 when a non-blocking descriptor has none (EAGAIN). */
    public static long read(int fd, MemorySegment buf, long count) throws PosixException {
        return transfer(Syscall.READ, "read", fd, buf, count);
    }

    /** write(2): bytes written (maybe short), -1 when a non-blocking descriptor is full (EAGAIN). */
    public static long write(int fd, MemorySegment buf, long count) throws PosixException {
        return transfer(Syscall.WRITE, "write", fd, buf, count);
    }

    /** One read(2) or write(2), retried on EINTR; EAGAIN gives -1. */
    private static long transfer(long nr, String name, int fd, MemorySegment buf, long count) throws PosixException {
        while (true) {
            long n = sys(nr, fd, buf.address(), count, 0);
            if (n >= 0) {
                return n;
            }
            if (n == -Errno.EAGAIN) {
                return -1;
            }
            if (n != -Errno.EINTR) {
                throw new PosixException(name, null, (int) -n);
            }
        }
    }

    /** pwrite(2) of all {@code count} bytes at {@code offset}, looping over short writes. */
    public static void pwriteFully(int fd, MemorySegment buf, long count, long offset) throws PosixException {
        long done = 0;
        while (done < count) {
            long n = sys(Syscall.PWRITE64, fd, buf.address() + done, count - done, offset + done);
            if (n < 0) {
                if (n == -Errno.EINTR) {
                    continue;
                }
                throw new PosixException("pwrite", null, (int) -n);
            }
            done += n;
        }
    }

    /** ftruncate(2). */
    public static void ftruncate(int fd, long length) throws PosixException {
        long r = sys(Syscall.FTRUNCATE, fd, length, 0, 0);
        if (r < 0) {
            throw new PosixException("ftruncate", null, (int) -r);
        }
    }

    /**
     * poll(2) over {@code count} pollfd structs ({@code ppoll} underneath: aarch64 has no
     * poll); EINTR returns 0 (the caller re-checks its clock).
     */
    public static int poll(MemorySegment fds, int count, int timeoutMillis) throws PosixException {
        try (Arena arena = Arena.ofConfined()) {
            long ts = 0;
            if (timeoutMillis >= 0) {
                MemorySegment t = arena.allocate(16, 8);
                MemorySegment.copy(new long[] {timeoutMillis / 1000, (timeoutMillis % 1000) * 1_000_000L}, 0,
                        t, ValueLayout.JAVA_LONG, 0, 2);
                ts = t.address();
            }
            long n = Syscall.call(Errno.state(), Syscall.PPOLL, fds.address(), count, ts, 0, 8);
            if (n < 0) {
                int e = Errno.last();
                if (e == Errno.EINTR) {
                    return 0;
                }
                throw new PosixException("poll", null, e);
            }
            return (int) n;
        }
    }

    public static void mkfifo(byte[] path, int mode) throws PosixException {
        try (Arena arena = Arena.ofConfined()) {
            long r = sys(Syscall.MKNODAT, Flags.AT_FDCWD, cString(arena, path).address(), S_IFIFO | mode, 0);
            if (r < 0) {
                throw new PosixException("mkfifo", display(path), (int) -r);
            }
        }
    }

    /** unlink(2); a missing file is not an error. */
    public static void unlink(byte[] path) throws PosixException {
        try (Arena arena = Arena.ofConfined()) {
            long r = sys(Syscall.UNLINKAT, Flags.AT_FDCWD, cString(arena, path).address(), 0, 0);
            if (r < 0 && r != -Errno.ENOENT) {
                throw new PosixException("unlink", display(path), (int) -r);
            }
        }
    }

    /** kill(2); returns false when no such process or group exists (ESRCH). */
    public static boolean kill(int pid, int signal) throws PosixException {
        long r = sys(Syscall.KILL, pid, signal, 0, 0);
        if (r == -Errno.ESRCH) {
            return false;
        }
        if (r < 0) {
            throw new PosixException("kill", Integer.toString(pid), (int) -r);
        }
        return true;
    }

    /** fcntl(2) with an int argument. */
    public static int fcntl(int fd, int cmd, int arg) throws PosixException {
        long r = sys(Syscall.FCNTL, fd, cmd, arg, 0);
        if (r < 0) {
            throw new PosixException("fcntl", null, (int) -r);
        }
        return (int) r;
    }

    /** Whether {@code fd} is a terminal (its termios can be read, as isatty(3) asks). */
    public static boolean isatty(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            return sys(Syscall.IOCTL, fd, TCGETS, arena.allocate(64, 8).address(), 0) == 0;
        }
    }

    /**
     * Whether {@code fd} is the write end of a pipe (or socket) whose reader has gone: a write
     * would fail with EPIPE. Poll reports POLLERR for such a descriptor; nothing is written.
     */
    public static boolean readerGone(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(Flags.POLLFD_SIZE, 4);
            MemorySegment.copy(new int[] {fd, 0}, 0, fds, ValueLayout.JAVA_INT, 0, 2);
            if (Syscall.call(Errno.state(), Syscall.PPOLL, fds.address(), 1, arena.allocate(16, 8).address(), 0, 8) != 1) {
                return false;
            }
            short[] ev = new short[2];
            MemorySegment.copy(fds, ValueLayout.JAVA_SHORT, 4, ev, 0, 2);
            return (ev[1] & Flags.POLLERR) != 0;
        }
    }

    /**
     * Whether {@code fd} is a pipe or a socket: a write to it wakes a reader (a file or a device
     * does not). False when it cannot tell (not open).
     */
    public static boolean wakesReader(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(Statx.SIZE, 8);
            if (Statx.call(Errno.state(), fd, arena.allocate(1), Flags.AT_EMPTY_PATH, buf) != 0) {
                return false;
            }
            int type = Statx.mode(Statx.words(buf)) & S_IFMT;
            return type == S_IFIFO || type == S_IFSOCK;
        }
    }

    public static int getpid() {
        return (int) sys(Syscall.GETPID, 0, 0, 0, 0);
    }

    /** A display form of a byte path (invalid UTF-8 replaced): for messages only. */
    public static String display(byte[] path) {
        return new String(path, StandardCharsets.UTF_8);
    }

    /** Sets a pollfd at {@code index}: descriptor and events, revents cleared. */
    public static void pollfd(MemorySegment fds, int index, int fd, short events) {
        long base = (long) index * Flags.POLLFD_SIZE;
        fds.set(ValueLayout.JAVA_INT, base, fd);
        fds.set(ValueLayout.JAVA_SHORT, base + 4, events);
        fds.set(ValueLayout.JAVA_SHORT, base + 6, (short) 0);
    }

    /** The revents of the pollfd at {@code index}. */
    public static short revents(MemorySegment fds, int index) {
        return fds.get(ValueLayout.JAVA_SHORT, (long) index * Flags.POLLFD_SIZE + 6);
    }
}
