// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.internal.posix.DescriptorOutput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One stream of a finished job's output, held until it may be printed ({@code -k}): in memory
 * while it is small and the run's memory budget allows, else in an {@link AnonymousFile}, so
 * output larger than memory passes and a killed JVM leaves no file. Not thread-safe; the owner
 * {@link #close}s it after writing it.
 */
public final class HeldOutput implements AutoCloseable {
    /** Output up to this size per stream stays in memory (if the budget allows). */
    static final long SMALL = 1 << 20;
    /** Output up to this size is copied through the heap; beyond it, by the kernel. */
    private static final int SMALL_COPY = 64 << 10;

    private final byte[] bytes;
    private final AnonymousFile file;
    private final long size;
    private final AtomicLong budget;

    private HeldOutput(byte[] bytes, AnonymousFile file, long size, AtomicLong budget) {
        this.bytes = bytes;
        this.file = file;
        this.size = size;
        this.budget = budget;
    }

    /** Nothing. */
    public static HeldOutput empty() {
        return new HeldOutput(new byte[0], null, 0, null);
    }

    /**
     * Copies the first {@code size} bytes of {@code source}: into memory when {@code size} is
     * small and {@code budget} (bytes of memory the run may still hold) allows, else into an
     * anonymous file in {@code tmpdir}.
     */
    public static HeldOutput copyOf(FileChannel source, long size, AtomicLong budget, Path tmpdir) throws IOException {
        return copyOf(source, 0, size, budget, tmpdir);
    }

    /** As {@link #copyOf(FileChannel, long, AtomicLong, Path)}, the {@code size} bytes from {@code from} on. */
    public static HeldOutput copyOf(FileChannel source, long from, long size, AtomicLong budget, Path tmpdir)
            throws IOException {
        if (size == 0) {
            return empty();
        }
        if (size <= SMALL && budget.addAndGet(-size) >= 0) {
            ByteBuffer b = ByteBuffer.allocate((int) size);
            while (b.hasRemaining()) {
                if (source.read(b, from + b.position()) < 0) {
                    break;
                }
            }
            return new HeldOutput(b.array(), null, size, budget);
        }
        if (size <= SMALL) {
            budget.addAndGet(size);
        }
        AnonymousFile f = AnonymousFile.create(tmpdir);
        try {
            long done = 0;
            while (done < size) {
                long n = source.transferTo(from + done, size - done, f.channel());
                if (n <= 0) {
                    break;
                }
                done += n;
            }
            return new HeldOutput(null, f, done, null);
        } catch (IOException e) {
            f.close();
            throw e;
        }
    }

    /**
     * Copies the first {@code length} bytes of {@code data}: into memory when the budget allows,
     * else into an anonymous file in {@code tmpdir}.
     */
    public static HeldOutput copyOf(byte[] data, int length, AtomicLong budget, Path tmpdir) throws IOException {
        if (length == 0) {
            return empty();
        }
        if (budget.addAndGet(-length) >= 0) {
            return new HeldOutput(Arrays.copyOf(data, length), null, length, budget);
        }
        budget.addAndGet(length);
        AnonymousFile f = AnonymousFile.create(tmpdir);
        try {
            ByteBuffer b = ByteBuffer.wrap(data, 0, length);
            while (b.hasRemaining()) {
                f.channel().write(b, b.position());
            }
            return new HeldOutput(null, f, length, null);
        } catch (IOException e) {
            f.close();
            throw e;
        }
    }

    /** Holds {@code data} as it is (not copied). */
    public static HeldOutput of(byte[] data) {
        return new HeldOutput(data, null, data.length, null);
    }

    /** Whether the bytes are in memory (not in a file of their own). */
    public boolean inMemory() {
        return bytes != null;
    }

    public long size() {
        return size;
    }

    /** The bytes, read from the file when spilled: only for callers that asked to capture output. */
    public byte[] toByteArray() throws IOException {
        if (bytes != null) {
            return bytes;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(size, Integer.MAX_VALUE - 16));
        writeTo(out);
        return out.toByteArray();
    }

    /** Writes everything to {@code out}. */
    public void writeTo(OutputStream out) throws IOException {
        if (bytes != null) {
            out.write(bytes, 0, (int) size);
            return;
        }
        copy(file, 0, size, out);
    }

    /**
     * Writes the first {@code size} bytes of {@code ch} to {@code out}, by {@code sendfile} when
     * {@code out} is a file stream.
     */
    public static void copy(FileChannel ch, long size, OutputStream out) throws IOException {
        copy(ch, 0, size, out);
    }

    /** As {@link #copy(FileChannel, long, OutputStream)}, the {@code size} bytes from {@code from} on. */
    public static void copy(FileChannel ch, long from, long size, OutputStream out) throws IOException {
        copy(ch, -1, from, size, out);
    }

    /** As {@link #copy(FileChannel, long, long, OutputStream)}, from {@code file}. */
    public static void copy(AnonymousFile file, long from, long size, OutputStream out) throws IOException {
        copy(file.channel(), file.fd(), from, size, out);
    }

    /**
     * The copy: by {@code sendfile} to a file stream (the JDK's, on its channel) or to a client's
     * {@link DescriptorOutput} when {@code fd}, {@code ch}'s descriptor, is known (not -1).
     */
    private static void copy(FileChannel ch, int fd, long from, long size, OutputStream out) throws IOException {
        if (size == 0) {
            return;
        }
        if (size <= SMALL_COPY) {
            // one pread and one write: transferTo would stat both ends and try copy_file_range first
            byte[] b = new byte[(int) size];
            ByteBuffer buf = ByteBuffer.wrap(b);
            int n;
            do {
                n = ch.read(buf, from + buf.position());
            } while (n > 0 && buf.hasRemaining());
            out.write(b, 0, buf.position());
            return;
        }
        OutputStream raw = out;
        if (out instanceof Sequenced s) {
            s.sync(); // what waits in memory goes before the file's bytes
            raw = s.raw();
        }
        WritableByteChannel target;
        if (raw instanceof java.io.FileOutputStream f) {
            target = f.getChannel();
        } else if (raw instanceof DescriptorOutput d && fd >= 0) {
            d.sendfile(fd, from, size);
            return;
        } else {
            target = Channels.newChannel(raw);
        }
        long done = 0;
        while (done < size) {
            long n = ch.transferTo(from + done, size - done, target);
            if (n <= 0) {
                break;
            }
            done += n;
        }
    }

    @Override
    public void close() {
        if (file != null) {
            file.close();
        }
        if (budget != null) {
            budget.addAndGet(size);
        }
    }
}
