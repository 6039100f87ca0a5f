// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The last names of this mount namespace's mount points, by length, from
 * {@code /proc/self/mountinfo}: a directory entry with one of them may be a mount point, and a
 * mount point's directory entry carries the type of the file it covers, not of the mounted one
 * ({@code /dev/null} bind-mounted on a regular file reads as {@code DT_REG}). The walker stats
 * such an entry instead of trusting its type, as bfs does. The table is read once and again only
 * when the kernel says it changed (poll on the open mountinfo reports {@code POLLPRI}), so a
 * long-lived server pays one poll per walk.
 */
final class MountNames {
    private static final byte[][][] NONE = new byte[0][][];
    private static final byte[] MOUNTINFO = "/proc/self/mountinfo".getBytes(StandardCharsets.US_ASCII);
    private static final short POLLPRI = 0x2;
    /** The open mountinfo polled for changes; -2 before the first look, -1 when it cannot be read. */
    private static int watch = -2;
    private static byte[][][] names = NONE;

    private MountNames() {}

    /** The names by length (index: length; null: none of it), as mounted now. */
    static synchronized byte[][][] current() {
        if (watch == -2) {
            watch = Libc.openOrErrno(MOUNTINFO, Flags.O_RDONLY | Flags.O_CLOEXEC, 0);
            if (watch < 0) {
                watch = -1;
                return names;
            }
            changed();
            names = parse(readAll());
        } else if (watch >= 0 && changed()) {
            names = parse(readAll());
        }
        return names;
    }

    /** Whether {@code name[off, off+len)} is the last name of a mount point. */
    static boolean mightBe(byte[][][] byLength, byte[] name, int off, int len) {
        if (len >= byLength.length) {
            return false;
        }
        byte[][] same = byLength[len];
        if (same == null) {
            return false;
        }
        for (byte[] n : same) {
            if (Arrays.equals(name, off, off + len, n, 0, len)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the mount table changed since the last poll (the poll itself resets the mark). */
    private static boolean changed() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(Flags.POLLFD_SIZE, 8);
            Libc.pollfd(fds, 0, watch, POLLPRI);
            return Libc.poll(fds, 1, 0) > 0 && (Libc.revents(fds, 0) & (POLLPRI | Flags.POLLERR)) != 0;
        } catch (PosixException e) {
            return true;
        }
    }

    /** The whole mount table, read from a descriptor of its own; empty when it cannot be read. */
    private static byte[] readAll() {
        int fd = Libc.openOrErrno(MOUNTINFO, Flags.O_RDONLY | Flags.O_CLOEXEC, 0);
        if (fd < 0) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(65536);
            for (long n; (n = Libc.read(fd, buf, buf.byteSize())) > 0; ) {
                out.write(buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), 0, (int) n);
            }
        } catch (PosixException e) {
            // what was read is kept
        } finally {
            Libc.close(fd);
        }
        return out.toByteArray();
    }

    /** The last name of each line's mount point (its fifth field, octal escapes undone), by length. */
    static byte[][][] parse(byte[] table) {
        List<List<byte[]>> byLength = new ArrayList<>();
        int line = 0;
        while (line < table.length) {
            int end = line;
            while (end < table.length && table[end] != '\n') {
                end++;
            }
            int field = line;
            for (int i = 0; i < 4 && field < end; i++) {
                while (field < end && table[field] != ' ') {
                    field++;
                }
                field++;
            }
            int fieldEnd = field;
            while (fieldEnd < end && table[fieldEnd] != ' ') {
                fieldEnd++;
            }
            int slash = fieldEnd - 1;
            while (slash >= field && table[slash] != '/') {
                slash--;
            }
            byte[] name = unescape(table, slash + 1, fieldEnd);
            if (name.length > 0 && field < end) {
                while (byLength.size() <= name.length) {
                    byLength.add(null);
                }
                if (byLength.get(name.length) == null) {
                    byLength.set(name.length, new ArrayList<>());
                }
                byLength.get(name.length).add(name);
            }
            line = end + 1;
        }
        byte[][][] result = new byte[byLength.size()][][];
        for (int i = 0; i < result.length; i++) {
            List<byte[]> same = byLength.get(i);
            result[i] = same == null ? null : same.toArray(new byte[0][]);
        }
        return result;
    }

    /** {@code b[from, to)} with the kernel's {@code \ooo} escapes (blank, tab, newline, backslash) undone. */
    private static byte[] unescape(byte[] b, int from, int to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(0, to - from));
        for (int i = from; i < to; i++) {
            if (b[i] == '\\' && i + 3 < to && isOctal(b, i + 1) && isOctal(b, i + 2) && isOctal(b, i + 3)) {
                out.write((b[i + 1] - '0') << 6 | (b[i + 2] - '0') << 3 | (b[i + 3] - '0'));
                i += 3;
            } else {
                out.write(b[i]);
            }
        }
        return out.toByteArray();
    }

    private static boolean isOctal(byte[] b, int i) {
        return b[i] >= '0' && b[i] <= '7';
    }
}
