// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorStream;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code -files0-from FILE}: the starting points, NUL-separated, from FILE ({@code -} for standard
 * input, the caller's), as bytes. A zero-length name is skipped with GNU find's message; a last name without
 * its NUL still counts. Stateless; blocks while reading.
 */
final class Files0 {
    private Files0() {}

    /** The names in {@code file}; adds a message to {@code errors} for each zero-length one. */
    static List<byte[]> read(byte[] file, List<String> errors) throws UsageError {
        byte[] all;
        boolean stdin = file.length == 1 && file[0] == '-';
        try {
            all = stdin ? DescriptorStream.input(Caller.current().stdin()).readAllBytes() : readFile(file);
        } catch (PosixException e) {
            throw new UsageError("cannot open " + Quote.q(file) + " for reading: " + Libc.strerror(e.errno()));
        } catch (IOException e) {
            throw new UsageError(Quote.q(file) + ": read error: " + e.getMessage());
        }
        String shown = stdin ? Quote.q("(standard input)") : Quote.q(file);
        List<byte[]> names = new ArrayList<>();
        int start = 0, item = 0;
        for (int i = 0; i <= all.length; i++) {
            if (i == all.length || all[i] == 0) {
                if (i == all.length && start == i) {
                    break; // the list ended with its NUL
                }
                item++;
                if (i == start) {
                    errors.add(shown + ":" + item + ": invalid zero-length file name");
                } else {
                    names.add(java.util.Arrays.copyOfRange(all, start, i));
                }
                start = i + 1;
            }
        }
        return names;
    }

    /** The file's bytes; a PosixException when it cannot be opened, another IOException (strerror's words) when it cannot be read. */
    private static byte[] readFile(byte[] file) throws IOException {
        int fd = Libc.open(file, Flags.O_RDONLY, 0);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(65536);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (true) {
                long n;
                try {
                    n = Libc.read(fd, buf, buf.byteSize());
                } catch (PosixException e) {
                    throw new IOException(Libc.strerror(e.errno()));
                }
                if (n <= 0) {
                    return out.toByteArray();
                }
                out.write(buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), 0, (int) n);
            }
        } finally {
            Libc.close(fd);
        }
    }
}
