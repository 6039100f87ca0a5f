// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A run's output to a warm server's client: its standard output or error, by descriptor number
 * ({@link Caller#stdout()}), with {@link #sendfile} for output held in a file. The client's
 * descriptor may be non-blocking: a write that finds it full waits for it with poll.
 *
 * <p>Once the client has relayed a signal ({@link Caller#signal()}) nothing more is written: the
 * server has answered it, and the run's remaining output is dropped silently, except on a
 * thread inside {@link #atExit} (the run's exit hook writing what its batched output holds, as a
 * direct run's shutdown hook does). A wait for a full descriptor gives up then too.
 *
 * <p>Thread-safe; each write is whole with respect to the others. Never closes the descriptor.
 */
public final class DescriptorOutput extends OutputStream {
    private static final ScopedValue<Boolean> AT_EXIT = ScopedValue.newInstance();
    /** How long a wait for a full descriptor sleeps before it looks at the caller's signal again. */
    private static final int RECHECK_MILLIS = 100;
    private static final int CHUNK = 64 << 10;

    private final int fd;
    private final Caller caller;
    /** Made at the first write (a call's stderr is seldom written): guarded by {@code this}. */
    private MemorySegment buffer;

    /** Output to {@code caller}'s descriptor {@code fd} (one of its numbers in this process). */
    public DescriptorOutput(int fd, Caller caller) {
        this.fd = fd;
        this.caller = caller;
    }

    /** {@link #DescriptorOutput(int, Caller)}, typed as the JDK's stream. */
    public static OutputStream of(int fd, Caller caller) {
        return new DescriptorOutput(fd, caller);
    }

    /** The descriptor's number in this process. */
    public int fd() {
        return fd;
    }

    /** Runs {@code r} on this thread with the writes of an exit hook allowed after the caller's signal. */
    public static void atExit(Runnable r) {
        ScopedValue.where(AT_EXIT, Boolean.TRUE).run(r);
    }

    /** Whether the call has ended by a signal and this thread may no longer write. */
    private boolean stopped() {
        return caller.signal() != 0 && !AT_EXIT.isBound();
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        while (len > 0 && !stopped()) {
            int n = Math.min(len, CHUNK);
            if (buffer == null) {
                buffer = Arena.ofAuto().allocate(CHUNK);
            }
            MemorySegment.copy(b, off, buffer, ValueLayout.JAVA_BYTE, 0, n);
            long done = 0;
            while (done < n) {
                long w;
                try {
                    w = Libc.write(fd, buffer.asSlice(done), n - done);
                } catch (PosixException e) {
                    throw PosixException.plain(e.errno()); // worded as FileOutputStream words it
                }
                if (w < 0) {
                    if (!awaitWritable()) {
                        return;
                    }
                    continue;
                }
                done += w;
            }
            off += n;
            len -= n;
        }
    }

    /**
     * Writes {@code size} bytes of the file open as {@code source} from offset {@code from}, by
     * {@code sendfile} (the file's offset does not move).
     */
    public synchronized void sendfile(int source, long from, long size) throws IOException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment offset = a.allocate(ValueLayout.JAVA_LONG);
            offset.set(ValueLayout.JAVA_LONG, 0, from);
            long end = from + size;
            while (offset.get(ValueLayout.JAVA_LONG, 0) < end && !stopped()) {
                long left = end - offset.get(ValueLayout.JAVA_LONG, 0);
                long r = Syscall.call(Syscall.SENDFILE, fd, source, offset.address(), Math.min(left, 1L << 30));
                if (r == 0) {
                    return; // the file is shorter than it was said to be
                }
                if (r == -Errno.EAGAIN) {
                    if (!awaitWritable()) {
                        return;
                    }
                } else if (r < 0 && r != -Errno.EINTR) {
                    throw new PosixException("sendfile", null, (int) -r);
                }
            }
        }
    }

    /** Waits until the descriptor takes bytes again; false when the caller's signal ended the wait. */
    private boolean awaitWritable() throws PosixException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(Flags.POLLFD_SIZE, 4);
            while (!stopped()) {
                Libc.pollfd(p, 0, fd, Flags.POLLOUT);
                if (Libc.poll(p, 1, RECHECK_MILLIS) > 0) {
                    return true; // writable, or an error the next write reports
                }
            }
            return false;
        }
    }
}
