// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One output stream of a finished job, as a slot reads it once: from an {@link AnonymousFile}
 * (the bytes from its mark on) or from memory (a pure builtin's stdout off the status pipe).
 * A file's bytes are read with one {@code pread} into a small buffer; only when that fills is
 * the file's size asked for, and the bytes stay in the file. {@link #consume} then moves the
 * file's mark past them, so a job costs no {@code fstat} and no {@code ftruncate}. Not
 * thread-safe: one per stream of a slot.
 */
public final class CapturedStream {
    /** A job's output up to this size is read into memory at once. */
    static final int SMALL = 4096;

    private byte[] buffer;
    private byte[] bytes;
    private int length;
    private AnonymousFile file;
    private long from;
    private long size;

    /** Reads what {@code f} holds from its mark on. */
    public void readFrom(AnonymousFile f) throws IOException {
        if (buffer == null) {
            buffer = new byte[SMALL];
        }
        file = f;
        from = f.mark();
        ByteBuffer b = ByteBuffer.wrap(buffer);
        // one pread: on Linux a regular file's read returns less than asked for only at the
        // file's end (page-cache reads are not cut short by a signal), so a short read is the
        // whole output, and no second pread is needed to see the end
        f.channel().read(b, from);
        if (b.hasRemaining()) {
            bytes = buffer;
            length = b.position();
            size = length;
        } else {
            bytes = null;
            size = f.channel().size() - from;
        }
    }

    /** Takes the first {@code n} bytes of {@code data} (not copied: valid until the next job). */
    public void readFrom(byte[] data, int n) {
        file = null;
        bytes = data;
        length = n;
        size = n;
    }

    /** Nothing (no job has run, or its worker is gone). */
    public void clear() {
        file = null;
        bytes = null;
        size = 0;
    }

    public long size() {
        return size;
    }

    /** Writes the bytes to {@code out}. */
    public void writeTo(OutputStream out) throws IOException {
        if (size == 0) {
            return;
        }
        if (bytes != null) {
            out.write(bytes, 0, length);
        } else {
            HeldOutput.copy(file, from, size, out);
        }
    }

    /** Copies the bytes to hold them for later (in memory while {@code budget} allows). */
    public HeldOutput hold(AtomicLong budget, Path tmpdir) throws IOException {
        if (size == 0) {
            return HeldOutput.empty();
        }
        if (bytes != null) {
            return HeldOutput.copyOf(bytes, length, budget, tmpdir);
        }
        return HeldOutput.copyOf(file.channel(), from, size, budget, tmpdir);
    }

    /** Marks the bytes as consumed in their file; the next job's output follows them. */
    public void consume() throws IOException {
        if (file != null && size > 0) {
            file.consume(size);
        }
        clear();
    }
}
