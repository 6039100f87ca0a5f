// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.Syscall;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * GNU parallel's {@code --results DIR} layout: {@code DIR/1/ARG1/2/ARG2/} holding {@code seq},
 * {@code stdout} and {@code stderr} for each job, argument bytes kept as they are except
 * {@code \} (written {@code \\}), TAB ({@code \t}), NUL ({@code \0}) and {@code /} ({@code \_}).
 * An argument longer than a file name can be is cut, each at the longest name the file system
 * takes as GNU parallel finds it (its probe, within 5 bytes below the limit), once a directory
 * could not be made. Paths are bytes, so any argument works. Thread-safe.
 */
public final class ResultsDir {
    private final byte[] root;
    /** The longest name GNU parallel's probe finds under the root, once one was too long; 0 before. */
    private volatile int longest;

    /** The directory names of a job's values in their order (a value beyond them: its number). */
    private final List<byte[]> columns;

    public ResultsDir(Path root, List<String> columns) {
        this.root = root.toString().getBytes(StandardCharsets.UTF_8);
        this.columns = columns.stream().map(c -> c.getBytes(StandardCharsets.UTF_8)).toList();
    }

    /**
     * Creates the directory of a job with these argument tuples and returns its {@code stdout},
     * {@code stderr} and {@code seq} paths (bytes).
     */
    public byte[][] files(List<List<byte[]>> tuples) throws IOException {
        byte[] dir = path(tuples, longest);
        if (!mkdirs(dir)) {
            if (longest == 0) {
                longest = probeLongest();
            }
            dir = path(tuples, longest);
            if (!mkdirs(dir)) {
                throw new IOException("cannot create " + Libc.display(dir));
            }
        }
        return new byte[][] {join(dir, "/stdout"), join(dir, "/stderr"), join(dir, "/seq")};
    }

    /**
     * {@code --results} whose name held replacement strings, rendered as {@code out}: a
     * directory (made) holding the three files when it ends with {@code /}, else the file
     * {@code out} with {@code out.err} and {@code out.seq} beside it (its directory made).
     */
    public static byte[][] named(byte[] out) throws IOException {
        if (out.length > 0 && out[out.length - 1] == '/') {
            if (!mkdirs(out)) {
                throw new IOException("Cannot make dir '" + Libc.display(out) + "'.");
            }
            return new byte[][] {join(out, "stdout"), join(out, "stderr"), join(out, "seq")};
        }
        int slash = out.length - 1;
        while (slash >= 0 && out[slash] != '/') {
            slash--;
        }
        if (slash > 0) {
            mkdirs(Arrays.copyOf(out, slash));
        }
        return new byte[][] {out, join(out, ".err"), join(out, ".seq")};
    }

    /** The directory name of a job's {@code i}th value (from 0): its column's name, else its number. */
    private byte[] name(int i) {
        return i < columns.size() ? columns.get(i) : Integer.toString(i + 1).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The order of a job's {@code n} values in its path: as GNU parallel's, by their names read
     * as Perl reads a number, then as text ({@code a/I/b/III} for columns {@code b} and
     * {@code a}); numbered columns keep their order.
     */
    private List<Integer> order(int n) {
        List<Integer> cached = ordered;
        if (cached != null && cached.size() == n) {
            return cached;
        }
        List<Integer> o = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            o.add(i);
        }
        if (columns.isEmpty()) {
            return o;
        }
        o.sort(java.util.Comparator.<Integer>comparingDouble(i -> leadingNumber(name(i)))
                .thenComparing(i -> new String(name(i), StandardCharsets.ISO_8859_1)));
        ordered = o = List.copyOf(o);
        return o;
    }

    /** The last {@link #order}, for the next job (a run's jobs have the same number of values). */
    private volatile List<Integer> ordered;

    private static final java.util.regex.Pattern LEADING_NUMBER = java.util.regex.Pattern.compile("^\\s*([+-]?(\\d+\\.?\\d*|\\.\\d+))");

    /** The number a name starts with, as Perl reads a string as a number (0 when none). */
    private static double leadingNumber(byte[] name) {
        java.util.regex.Matcher m = LEADING_NUMBER.matcher(new String(name, StandardCharsets.ISO_8859_1));
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private byte[] path(List<List<byte[]>> tuples, int cut) {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        p.writeBytes(root);
        for (List<byte[]> tuple : tuples) {
            for (int i : order(tuple.size())) {
                p.write('/');
                p.writeBytes(name(i));
                p.write('/');
                ByteArrayOutputStream v = new ByteArrayOutputStream();
                for (byte b : tuple.get(i)) {
                    switch (b) {
                        case '/' -> v.writeBytes(new byte[] {'\\', '_'});
                        case '\\' -> v.writeBytes(new byte[] {'\\', '\\'});
                        case '\t' -> v.writeBytes(new byte[] {'\\', 't'});
                        case 0 -> v.writeBytes(new byte[] {'\\', '0'});
                        default -> v.write(b);
                    }
                }
                byte[] name = v.toByteArray();
                p.write(name, 0, cut > 0 ? Math.min(cut, name.length) : name.length);
            }
        }
        return p.toByteArray();
    }

    /**
     * The longest directory name GNU parallel's probe finds under the root: names of 8, 128,
     * 2048... {@code d}s made until one fails, then halved between the last two until within 5.
     */
    private int probeLongest() {
        int len = 8;
        do {
            rmdir(child(len));
            len *= 16;
        } while (len < 100_000_000 && mkdir(child(len)) == 0);
        int min = len / 16;
        int max = len;
        while (max - min > 5) {
            int test = (min + max) / 2;
            if (mkdir(child(test)) == 0) {
                rmdir(child(test));
                min = test;
            } else {
                max = test;
            }
        }
        return min;
    }

    private byte[] child(int length) {
        byte[] d = new byte[length];
        Arrays.fill(d, (byte) 'd');
        return join(join(root, "/"), new String(d, StandardCharsets.US_ASCII));
    }

    private static byte[] join(byte[] a, String b) {
        byte[] s = b.getBytes(StandardCharsets.US_ASCII);
        byte[] r = Arrays.copyOf(a, a.length + s.length);
        System.arraycopy(s, 0, r, a.length, s.length);
        return r;
    }

    /** {@code mkdir -p path}: whether it is a directory now. */
    private static boolean mkdirs(byte[] path) {
        for (int i = 1; i <= path.length; i++) {
            if (i == path.length || path[i] == '/') {
                long r = mkdir(Arrays.copyOf(path, i));
                if (r != 0 && r != -Errno.EEXIST) {
                    return false;
                }
            }
        }
        return true;
    }

    private static long mkdir(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return Syscall.call(Syscall.MKDIRAT, Flags.AT_FDCWD, Libc.cString(a, path).address(), 0777, 0);
        }
    }

    private static void rmdir(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            Syscall.call(Syscall.UNLINKAT, Flags.AT_FDCWD, Libc.cString(a, path).address(), 0x200 /* AT_REMOVEDIR */, 0);
        }
    }

    /** Opens {@code path} for writing, truncated; the caller closes the stream. */
    public static FileOutputStream create(byte[] path) throws IOException {
        int fd;
        try {
            fd = Libc.open(path, Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC, 0666);
        } catch (PosixException e) {
            throw new IOException("Cannot write to `" + Libc.display(path) + "'.", e);
        }
        try {
            return new FileOutputStream("/proc/self/fd/" + fd);
        } finally {
            Libc.close(fd);
        }
    }
}
