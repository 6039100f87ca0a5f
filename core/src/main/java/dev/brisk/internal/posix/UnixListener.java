// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A listening UNIX stream socket and the calls on its connections that the JDK's channels do
 * not make: the peer's uid ({@code SO_PEERCRED}) and descriptors passed with
 * {@code SCM_RIGHTS}. System calls only, so a connection is a plain descriptor the caller owns
 * and closes with {@link Libc#close}. The server of {@code brisk daemon} uses it.
 */
public final class UnixListener implements AutoCloseable {
    private static final int AF_UNIX = 1, SOCK_STREAM = 1, SOCK_CLOEXEC = 0x80000, SOL_SOCKET = 1, SO_PEERCRED = 17,
            SCM_RIGHTS = 1, MSG_CMSG_CLOEXEC = 0x40000000, SHUT_RDWR = 2, SUN_PATH = 108;

    private final int fd;
    private volatile boolean open = true;

    private UnixListener(int fd) {
        this.fd = fd;
    }

    /**
     * Listens on {@code path} (which must not exist: the caller removes a stale socket under its
     * lock), with a backlog of 128.
     */
    public static UnixListener bind(byte[] path) throws PosixException {
        if (path.length >= SUN_PATH) {
            throw new PosixException("bind", Libc.display(path), Errno.ENAMETOOLONG);
        }
        long fd = Syscall.call(Syscall.SOCKET, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, 0);
        if (fd < 0) {
            throw new PosixException("socket", null, (int) -fd);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment addr = arena.allocate(2 + SUN_PATH, 2);
            addr.set(ValueLayout.JAVA_SHORT, 0, (short) AF_UNIX);
            MemorySegment.copy(path, 0, addr, ValueLayout.JAVA_BYTE, 2, path.length);
            long r = Syscall.call(Syscall.BIND, fd, addr.address(), 2 + path.length + 1, 0);
            if (r == 0) {
                r = Syscall.call(Syscall.LISTEN, fd, 128, 0, 0);
            }
            if (r < 0) {
                Libc.close((int) fd);
                throw new PosixException("bind", Libc.display(path), (int) -r);
            }
        }
        return new UnixListener((int) fd);
    }

    /** The next connection's descriptor (close-on-exec); -1 once {@link #close} was called. */
    public int accept() throws PosixException {
        while (open) {
            long c = Syscall.call(Syscall.ACCEPT4, fd, 0, 0, SOCK_CLOEXEC);
            if (c >= 0) {
                return (int) c;
            }
            if (!open) {
                break;
            }
            if (c != -Errno.EINTR && c != -Errno.ECONNABORTED) {
                throw new PosixException("accept", null, (int) -c);
            }
        }
        return -1;
    }

    /**
     * The process at the other end of connection {@code conn} ({@code SO_PEERCRED}): its pid as
     * this process's pid namespace sees it (0 when it cannot) in the high 32 bits, its uid in the
     * low 32 bits; -1 when the kernel does not say.
     */
    public static long peer(int conn) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cred = arena.allocate(12, 4);
            MemorySegment len = arena.allocate(4, 4);
            len.set(ValueLayout.JAVA_INT, 0, 12);
            long r = Syscall.call6(Errno.state(), Syscall.GETSOCKOPT, conn, SOL_SOCKET, SO_PEERCRED, cred.address(),
                    len.address(), 0);
            return r < 0 ? -1 : (long) cred.get(ValueLayout.JAVA_INT, 0) << 32 | cred.get(ValueLayout.JAVA_INT, 4) & 0xffffffffL;
        }
    }

    /** The uid of a {@link #peer} answer, or -1. */
    public static int peerUid(long peer) {
        return peer == -1 ? -1 : (int) peer;
    }

    /** The pid of a {@link #peer} answer, or 0. */
    public static int peerPid(long peer) {
        return peer == -1 ? 0 : (int) (peer >>> 32);
    }

    /**
     * One {@code recvmsg(2)} into {@code buf} (up to {@code len} bytes) that also takes the
     * descriptors sent with it ({@code SCM_RIGHTS}, made close-on-exec) into {@code fds}.
     *
     * @return the bytes read (0 at end of stream) in the low 32 bits and the number of
     *         descriptors received in the high 32 bits
     */
    public static long receive(int conn, MemorySegment buf, long len, int[] fds) throws PosixException {
        try (Arena arena = Arena.ofConfined()) {
            int room = 16 + 4 * fds.length;
            MemorySegment control = arena.allocate(room + 8, 8);
            MemorySegment iov = arena.allocate(16, 8);
            iov.set(ValueLayout.JAVA_LONG, 0, buf.address());
            iov.set(ValueLayout.JAVA_LONG, 8, len);
            MemorySegment msg = arena.allocate(56, 8);
            msg.set(ValueLayout.JAVA_LONG, 16, iov.address());
            msg.set(ValueLayout.JAVA_LONG, 24, 1);
            msg.set(ValueLayout.JAVA_LONG, 32, control.address());
            msg.set(ValueLayout.JAVA_LONG, 40, control.byteSize());
            long n;
            do {
                n = Syscall.call(Syscall.RECVMSG, conn, msg.address(), MSG_CMSG_CLOEXEC, 0);
            } while (n == -Errno.EINTR);
            if (n < 0) {
                throw new PosixException("recvmsg", null, (int) -n);
            }
            int count = 0;
            long controlLen = msg.get(ValueLayout.JAVA_LONG, 40);
            long at = 0;
            while (at + 16 <= controlLen) {
                long cmsgLen = control.get(ValueLayout.JAVA_LONG, at);
                int level = control.get(ValueLayout.JAVA_INT, at + 8);
                int type = control.get(ValueLayout.JAVA_INT, at + 12);
                if (cmsgLen < 16) {
                    break;
                }
                if (level == SOL_SOCKET && type == SCM_RIGHTS) {
                    for (long p = at + 16; p + 4 <= at + cmsgLen; p += 4) {
                        int got = control.get(ValueLayout.JAVA_INT, p);
                        if (count < fds.length) {
                            fds[count++] = got;
                        } else {
                            Libc.close(got); // more than asked for: not ours to keep
                        }
                    }
                }
                at += (cmsgLen + 7) & ~7L;
            }
            return (n & 0xffffffffL) | ((long) count << 32);
        }
    }

    /** Wakes a blocked {@link #accept} and a blocked read on connection {@code conn}: {@code shutdown(2)}. */
    public static void shutdown(int conn) {
        Syscall.call(Syscall.SHUTDOWN, conn, SHUT_RDWR, 0, 0);
    }

    /** Stops listening: a blocked {@link #accept} returns -1. */
    @Override
    public void close() {
        if (open) {
            open = false;
            shutdown(fd);
            Libc.close(fd);
        }
    }
}
