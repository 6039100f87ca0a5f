// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.DescriptorStream;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.walk.FileStat;
import dev.brisk.walk.Walker;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The file of {@code -fprint}, {@code -fprint0}, {@code -fprintf} or {@code -fls}: opened
 * (created or truncated) by its name as bytes when the command line is parsed, as find does, and
 * written through {@link Output}'s whole-record buffers; or the caller's standard error, for the
 * name {@code /dev/stderr} (GNU find writes there unbuffered, so each record goes out at once).
 * Writes come from one thread at a time (Output locks); the run flushes it at its end
 * ({@link #finish}) and closes it (a server's JVM outlives the run).
 */
final class FileOutput extends OutputStream {
    /** The name as given, for messages. */
    final byte[] name;
    private final int fd;
    private final OutputStream stream;
    /** The file's device and inode, so that names of one file share it (-1 when unknown). */
    final long dev, ino;
    private volatile Output output;

    private FileOutput(byte[] name, int fd, OutputStream stream, long dev, long ino) {
        this.name = name;
        this.fd = fd;
        this.stream = stream;
        this.dev = dev;
        this.ino = ino;
    }

    /** Opens {@code name}; a failure is the one-line usage error find gives. */
    static FileOutput open(byte[] name) throws UsageError {
        int fd;
        try {
            fd = Libc.open(name, Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC, 0666);
        } catch (PosixException e) {
            throw new UsageError(Quote.q(name) + ": " + Libc.strerror(e.errno()));
        }
        FileStat st = Walker.stat(name, true);
        return new FileOutput(name, fd, null, st == null ? -1 : st.dev(), st == null ? -1 : st.ino());
    }

    /** The caller's standard error ({@code -fprint /dev/stderr}), named as GNU names it in messages. */
    static FileOutput standardError() {
        return new FileOutput("standard error".getBytes(java.nio.charset.StandardCharsets.US_ASCII), -1,
                DescriptorStream.stderr(), -1, -1);
    }

    /** Whether records go out as soon as each is whole (standard error, unbuffered in C). */
    boolean unbuffered() {
        return stream != null;
    }

    /** Whether this is the same file as {@code other} (by device and inode, as GNU's sharefile compares). */
    boolean sameFile(FileOutput other) {
        return dev != -1 && dev == other.dev && ino == other.ino;
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

    /**
     * Writes out every thread's buffered records, if anything was written, and returns GNU's
     * message for a failed write to this file ({@code ‘NAME’: No space left on device}), or null.
     */
    String finish() {
        Output o = output;
        if (o == null) {
            return null;
        }
        o.flushAll();
        if (o.failures() == 0) {
            return null;
        }
        return (stream != null ? Quote.q("standard error") : Quote.q(name)) + ": " + o.lastError();
    }

    /** Closes the file's descriptor (and drops the calling thread's buffer); nothing may be written after. */
    @Override
    public void close() {
        Output o = output;
        if (o != null) {
            o.release();
        }
        if (fd >= 0) {
            Libc.close(fd);
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (stream != null) {
            stream.write(b, off, len);
            return;
        }
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
