// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Java streams over a descriptor number, for the descriptors a {@link Caller} names (the JDK
 * makes streams only over its own {@code FileDescriptor.in/out/err}). Unbuffered: each write is
 * one or more {@code write(2)} calls, retried on EINTR and short writes; a non-blocking
 * descriptor (a caller's pipe may be one) is waited on with poll. The stream never closes the
 * descriptor: whoever received it does.
 */
public final class DescriptorStream {
    private DescriptorStream() {}

    /** An output stream writing to {@code fd}; a failed write throws {@link PosixException} (EPIPE and all). */
    public static OutputStream output(int fd) {
        if (fd == 1 && Caller.current().self()) {
            return new java.io.FileOutputStream(java.io.FileDescriptor.out);
        }
        if (fd == 2 && Caller.current().self()) {
            return new java.io.FileOutputStream(java.io.FileDescriptor.err);
        }
        return new Out(fd);
    }

    /** A print stream on {@code fd} that flushes on every println (as System.err does); System.err for our own 2. */
    public static PrintStream print(int fd) {
        if (fd == 2 && Caller.current().self()) {
            return System.err;
        }
        if (fd == 1 && Caller.current().self()) {
            return System.out;
        }
        return new PrintStream(new Out(fd), true);
    }

    /** An input stream reading {@code fd}. */
    public static InputStream input(int fd) {
        if (fd == 0 && Caller.current().self()) {
            return new java.io.FileInputStream(java.io.FileDescriptor.in);
        }
        return new In(fd);
    }

    private static void waitFor(int fd, short events) throws PosixException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(8, 4);
            Libc.pollfd(p, 0, fd, events);
            Libc.poll(p, 1, -1);
        }
    }

    private static final class Out extends OutputStream {
        private final int fd;
        private final Arena arena = Arena.ofAuto();
        private final MemorySegment buf = arena.allocate(64 * 1024);

        Out(int fd) {
            this.fd = fd;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                int n = (int) Math.min(len, buf.byteSize());
                MemorySegment.copy(b, off, buf, ValueLayout.JAVA_BYTE, 0, n);
                long done = 0;
                while (done < n) {
                    long w = Libc.write(fd, buf.asSlice(done), n - done);
                    if (w < 0) {
                        waitFor(fd, (short) 4); // POLLOUT
                        continue;
                    }
                    done += w;
                }
                off += n;
                len -= n;
            }
        }
    }

    private static final class In extends InputStream {
        private final int fd;
        private final Arena arena = Arena.ofAuto();
        private final MemorySegment buf = arena.allocate(64 * 1024);

        In(int fd) {
            this.fd = fd;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n <= 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (true) {
                long r = Libc.read(fd, buf, Math.min(len, buf.byteSize()));
                if (r < 0) {
                    waitFor(fd, (short) 1); // POLLIN
                    continue;
                }
                if (r == 0) {
                    return -1;
                }
                MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, b, off, (int) r);
                return (int) r;
            }
        }
    }
}
