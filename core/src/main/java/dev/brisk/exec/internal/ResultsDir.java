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
import java.util.List;

/**
 * GNU parallel's {@code --results DIR} layout: {@code DIR/1/ARG1/2/ARG2/} holding {@code seq},
 * {@code stdout} and {@code stderr} for each job, argument bytes kept as they are except
 * {@code /} (written {@code \_}) and {@code \} (written {@code \\}). Paths are bytes, so any
 * argument works. Thread-safe.
 */
public final class ResultsDir {
    private final byte[] root;

    public ResultsDir(Path root) {
        this.root = root.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Creates the job's directory and returns its path (bytes, no trailing slash). */
    public byte[] directory(List<byte[]> tuple) throws IOException {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        p.writeBytes(root);
        mkdir(p.toByteArray());
        for (int i = 0; i < tuple.size(); i++) {
            p.write('/');
            p.writeBytes(Integer.toString(i + 1).getBytes(StandardCharsets.US_ASCII));
            mkdir(p.toByteArray());
            p.write('/');
            byte[] v = tuple.get(i);
            for (byte b : v) {
                if (b == '/') {
                    p.write('\\');
                    p.write('_');
                } else if (b == '\\') {
                    p.write('\\');
                    p.write('\\');
                } else {
                    p.write(b);
                }
            }
            mkdir(p.toByteArray());
        }
        return p.toByteArray();
    }

    private static void mkdir(byte[] path) throws IOException {
        try (Arena a = Arena.ofConfined()) {
            long r = Syscall.call(Syscall.MKDIRAT, Flags.AT_FDCWD, Libc.cString(a, path).address(), 0777, 0);
            if (r < 0 && r != -Errno.EEXIST) {
                throw new IOException("cannot create " + Libc.display(path) + ": " + Errno.message((int) -r));
            }
        }
    }

    /** Opens {@code dir/name} for writing, truncated; the caller closes the stream. */
    public static FileOutputStream create(byte[] dir, String name) throws IOException {
        byte[] path = (Libc.display(dir) + "/" + name).getBytes(StandardCharsets.UTF_8);
        byte[] full = new byte[dir.length + 1 + name.length()];
        System.arraycopy(dir, 0, full, 0, dir.length);
        full[dir.length] = '/';
        System.arraycopy(name.getBytes(StandardCharsets.US_ASCII), 0, full, dir.length + 1, name.length());
        int fd;
        try {
            fd = Libc.open(full, Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC, 0666);
        } catch (PosixException e) {
            throw new IOException("cannot write " + new String(path, StandardCharsets.UTF_8) + ": "
                    + Libc.strerror(e.errno()), e);
        }
        try {
            return new FileOutputStream("/proc/self/fd/" + fd);
        } finally {
            Libc.close(fd);
        }
    }
}
