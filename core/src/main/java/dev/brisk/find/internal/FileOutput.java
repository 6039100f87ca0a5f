// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The file of {@code -fprint}, {@code -fprint0} or {@code -fprintf}: opened (created or
 * truncated) by its name as bytes when the command line is parsed, as find does, and written
 * through {@link Output}'s whole-record buffers. Writes come from one thread at a time (Output
 * locks); the run closes it at its end (a server's JVM outlives the run).
 */
final class FileOutput extends OutputStream {
    private final int fd;
    private volatile Output output;

    /** Opens {@code name}; a failure is the one-line usage error find gives. */
    FileOutput(byte[] name) throws UsageError {
        try {
            fd = Libc.open(name, Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC, 0666);
        } catch (PosixException e) {
            throw new UsageError(Quote.q(name) + ": " + Libc.strerror(e.errno()));
        }
    }

    /** This file's record buffers, made on first use with the run's shared state (for %P and %H). */
    Output output(RunState shared) {
        Output o = output;
        if (o == null) {
            synchronized (this) {
                o = output;
                if (o == null) {
                    o = new Output(this, shared);
                    output = o;
                }
            }
        }
        return o;
    }

    /** Writes out every thread's buffered records, if anything was written. */
    void flushAll() {
        Output o = output;
        if (o != null) {
            o.flushAll();
        }
    }

    /** Closes the file's descriptor (and drops the calling thread's buffer); nothing may be written after. */
    @Override
    public void close() {
        Output o = output;
        if (o != null) {
            o.release();
        }
        Libc.close(fd);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try (Arena arena = Arena.ofConfined()) { // PosixException is an IOException
            MemorySegment buf = arena.allocate(Math.max(1, len));
            MemorySegment.copy(b, off, buf, ValueLayout.JAVA_BYTE, 0, len);
            long done = 0;
            while (done < len) {
                long n = Libc.write(fd, buf.asSlice(done), len - done);
                if (n <= 0) {
                    throw new IOException("short write");
                }
                done += n;
            }
        }
    }
}
