// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A job's stdout or stderr as it came back from a host: in memory up to {@value #IN_MEMORY}
 * bytes, in a temporary file beyond (deleted by {@link #close}), so output larger than the heap
 * passes.
 */
public final class Payload implements AutoCloseable {
    /** Bytes held in memory before the rest goes to a file. */
    public static final int IN_MEMORY = 8 << 20;

    private static final Payload EMPTY = new Payload(new byte[0], null, 0);

    private final byte[] bytes;
    private final Path file;
    private final long size;

    private Payload(byte[] bytes, Path file, long size) {
        this.bytes = bytes;
        this.file = file;
        this.size = size;
    }

    public static Payload of(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new Payload(bytes, null, bytes.length);
    }

    static Payload spilled(Path file, long size) {
        return new Payload(null, file, size);
    }

    public static Payload empty() {
        return EMPTY;
    }

    public long size() {
        return size;
    }

    /** Whether it is held in memory. */
    public boolean inMemory() {
        return file == null;
    }

    /** The file holding it, or null when it is in memory. */
    public Path file() {
        return file;
    }

    /** Its first {@code max} bytes (all of them when {@code max} is negative or larger). */
    public byte[] bytes(long max) {
        long n = max < 0 ? size : Math.min(max, size);
        if (n > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("output of " + size + " bytes does not fit in an array");
        }
        if (file == null) {
            return n == bytes.length ? bytes : Arrays.copyOf(bytes, (int) n);
        }
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes((int) n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void writeTo(OutputStream out) throws IOException {
        if (file == null) {
            out.write(bytes);
        } else {
            Files.copy(file, out);
        }
    }

    @Override
    public void close() {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a temporary file: best effort
            }
        }
    }
}
