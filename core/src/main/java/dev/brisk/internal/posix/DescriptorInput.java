// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A run's input from a warm server's client: its standard input, by descriptor number
 * ({@link Caller#stdin()}), blocking or not. Each read first polls, a tenth of a second at a
 * time, so that a client's signal ({@link Caller#signal()}) ends the read at once, as end of
 * file: a run stopped that way must not go on reading (a terminal's next line is its shell's).
 * Never closes the descriptor. Not thread-safe.
 */
public final class DescriptorInput extends InputStream {
    private static final int RECHECK_MILLIS = 100;
    private static final int CHUNK = 64 << 10;

    private final int fd;
    private final Caller caller;
    /** Made at the first read. */
    private MemorySegment buffer;
    private final MemorySegment pollfd = Arena.ofAuto().allocate(Flags.POLLFD_SIZE, 4);

    /** Input from {@code caller}'s descriptor {@code fd} (its number in this process). */
    public DescriptorInput(int fd, Caller caller) {
        this.fd = fd;
        this.caller = caller;
    }

    /** {@link #DescriptorInput(int, Caller)}, typed as the JDK's stream. */
    public static InputStream of(int fd, Caller caller) {
        return new DescriptorInput(fd, caller);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n <= 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (caller.signal() == 0) {
            Libc.pollfd(pollfd, 0, fd, Flags.POLLIN);
            if (Libc.poll(pollfd, 1, RECHECK_MILLIS) <= 0) {
                continue;
            }
            if (buffer == null) {
                buffer = Arena.ofAuto().allocate(CHUNK);
            }
            long r = Libc.read(fd, buffer, Math.min(len, CHUNK));
            if (r < 0) {
                continue; // EAGAIN: another reader took what poll saw
            }
            if (r == 0) {
                return -1;
            }
            MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, b, off, (int) r);
            return (int) r;
        }
        return -1;
    }
}
