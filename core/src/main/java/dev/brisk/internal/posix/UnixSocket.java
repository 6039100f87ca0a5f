// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A connected stream socket of the UNIX domain, read and written with system calls on its
 * descriptor. Unlike a {@link java.nio.channels.SocketChannel} it is no
 * {@link java.nio.channels.InterruptibleChannel}: an interrupt of a thread in {@link #write} or
 * {@link #read} leaves the socket open (the call finishes; the thread keeps its interrupt status),
 * so one connection can serve threads that are interrupted at will. {@link #shutdown} ends a
 * {@link #read} blocked in another thread (it returns end of stream) and a blocked
 * {@link #write} (it fails); {@link #close} then frees the descriptor.
 *
 * <p>One thread reads and one writes at a time (callers serialize their writes). Writes never
 * raise SIGPIPE ({@code MSG_NOSIGNAL}): a peer that went away is an {@code EPIPE} error.
 */
public final class UnixSocket implements ReadableByteChannel, WritableByteChannel {
    private static final int AF_UNIX = 1, SOCK_STREAM = 1, SOCK_CLOEXEC = 02000000, SHUT_RDWR = 2,
            MSG_NOSIGNAL = 0x4000, SUN_PATH = 108, CHUNK = 64 * 1024, SOL_SOCKET = 1, SO_RCVTIMEO = 20,
            SO_SNDTIMEO = 21;

    private final int fd;
    private final MemorySegment readBuf;
    private final MemorySegment writeBuf;
    private volatile boolean open = true;
    private volatile long timeoutMillis;

    private UnixSocket(int fd) {
        this.fd = fd;
        Arena arena = Arena.ofAuto();
        this.readBuf = arena.allocate(CHUNK);
        this.writeBuf = arena.allocate(CHUNK);
    }

    /**
     * Connects to the socket at {@code path} (its bytes as the JDK gives them to the system),
     * waiting at most {@code timeoutMillis} for room in a full listening queue; reads and writes
     * keep that limit until {@link #timeout} changes it (0: none), so a handshake cannot hang.
     *
     * @throws IOException with the system's reason ({@code connect: Connection refused}), when
     *         the path is longer than a socket address holds (107 bytes), or on the timeout
     */
    public static UnixSocket connect(Path path, long timeoutMillis) throws IOException {
        byte[] name = path.toString().getBytes(jnuCharset());
        if (name.length >= SUN_PATH) {
            throw new IOException("the socket path is " + name.length + " bytes long; a UNIX socket's path holds at most "
                    + (SUN_PATH - 1));
        }
        long fd = Syscall.call(Syscall.SOCKET, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, 0);
        if (fd < 0) {
            throw new PosixException("socket", null, (int) -fd);
        }
        try (Arena arena = Arena.ofConfined()) {
            try {
                timeout((int) fd, timeoutMillis);
            } catch (IOException e) {
                Libc.close((int) fd);
                throw e;
            }
            MemorySegment addr = arena.allocate(2 + SUN_PATH, 2);
            addr.set(ValueLayout.JAVA_SHORT, 0, (short) AF_UNIX);
            MemorySegment.copy(name, 0, addr, ValueLayout.JAVA_BYTE, 2, name.length);
            long r;
            do {
                r = Syscall.call(Syscall.CONNECT, fd, addr.address(), 2 + name.length + 1, 0);
            } while (r == -Errno.EINTR);
            if (r < 0) {
                Libc.close((int) fd);
                if (r == -Errno.EAGAIN) {
                    throw new IOException("connect: no room in the listening queue within " + timeoutMillis + " ms");
                }
                throw new PosixException("connect", null, (int) -r);
            }
        }
        UnixSocket s = new UnixSocket((int) fd);
        s.timeoutMillis = timeoutMillis;
        return s;
    }

    /** Limits each later read and write to {@code millis} without progress (0: no limit). */
    public void timeout(long millis) throws IOException {
        ensureOpen();
        timeout(fd, millis);
        timeoutMillis = millis;
    }

    private static void timeout(int fd, long millis) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tv = arena.allocate(16, 8);
            tv.set(ValueLayout.JAVA_LONG, 0, millis / 1000);
            tv.set(ValueLayout.JAVA_LONG, 8, (millis % 1000) * 1000);
            for (int opt : new int[] {SO_RCVTIMEO, SO_SNDTIMEO}) {
                long r = Syscall.call6(Errno.state(), Syscall.SETSOCKOPT, fd, SOL_SOCKET, opt, tv.address(), 16, 0);
                if (r < 0) {
                    throw new PosixException("setsockopt", null, Errno.last());
                }
            }
        }
    }

    private IOException failure(String call, long negErrno) {
        if (negErrno == -Errno.EAGAIN) {
            return new IOException(call + ": no progress within " + timeoutMillis + " ms");
        }
        return new PosixException(call, null, (int) -negErrno);
    }

    private static Charset jnuCharset() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }

    /** Reads what is there, up to {@code dst}'s room; blocks until something is; -1 at end of stream. */
    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        int want = Math.min(dst.remaining(), CHUNK);
        if (want == 0) {
            return 0;
        }
        long n;
        do {
            n = Syscall.call(Syscall.READ, fd, readBuf.address(), want, 0);
        } while (n == -Errno.EINTR);
        Reference.reachabilityFence(this); // readBuf's memory lives as long as this object
        if (n < 0) {
            throw failure("read", n);
        }
        if (n == 0) {
            return -1;
        }
        dst.put(readBuf.asSlice(0, n).asByteBuffer());
        return (int) n;
    }

    /** Writes some of {@code src} (a short write is possible), blocking until the peer has room. */
    @Override
    public int write(ByteBuffer src) throws IOException {
        ensureOpen();
        int len = Math.min(src.remaining(), CHUNK);
        if (len == 0) {
            return 0;
        }
        MemorySegment.copy(MemorySegment.ofBuffer(src), 0, writeBuf, 0, len);
        long n;
        do {
            n = Syscall.call(Syscall.SENDTO, fd, writeBuf.address(), len, MSG_NOSIGNAL);
        } while (n == -Errno.EINTR);
        Reference.reachabilityFence(this);
        if (n < 0) {
            throw failure("write", n);
        }
        src.position(src.position() + (int) n);
        return (int) n;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    /** Shuts both directions down: a read blocked in another thread returns end of stream. */
    public synchronized void shutdown() {
        if (open) {
            Syscall.call(Syscall.SHUTDOWN, fd, SHUT_RDWR, 0, 0);
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /**
     * Frees the descriptor. Call it once no thread reads or writes any more ({@link #shutdown}
     * first, and wait for them): a descriptor closed under a blocked call could be reused by the
     * time the call touches it. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (open) {
            open = false;
            Libc.close(fd);
        }
    }
}
