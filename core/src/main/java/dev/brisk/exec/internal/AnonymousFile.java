// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.Syscall;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A temporary file that has no name from the moment it exists ({@code O_TMPFILE}, or create
 * and unlink at once where the file system lacks it), so nothing is left behind however the
 * JVM ends, even by SIGKILL. Other processes reach it as {@code /proc/PID/fd/FD} while it is
 * open. Not thread-safe; the owner closes it.
 */
public final class AnonymousFile implements AutoCloseable {
    private static final long PID = ProcessHandle.current().pid();

    private final int fd;
    private final FileChannel channel;
    /** Where the bytes not yet consumed start: output files are read on from here, not truncated each time. */
    private long mark;

    private AnonymousFile(int fd, FileChannel channel) {
        this.fd = fd;
        this.channel = channel;
    }

    /**
     * Makes an anonymous file in {@code dir} (mode 0600).
     *
     * @throws IOException if the directory is not writable
     */
    public static AnonymousFile create(Path dir) throws IOException {
        // a relative dir as it is: the kernel takes it from this thread's directory (a server's call has its own)
        byte[] d = (dir.toString().isEmpty() ? "." : dir.toString()).getBytes(StandardCharsets.UTF_8);
        int fd = Libc.openOrErrno(d, Flags.O_TMPFILE | Flags.O_RDWR | Flags.O_CLOEXEC, 0600);
        if (fd < 0) {
            fd = createAndUnlink(d);
        }
        try {
            FileChannel ch = FileChannel.open(Path.of("/proc/self/fd/" + fd), StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            return new AnonymousFile(fd, ch);
        } catch (IOException | RuntimeException e) {
            Libc.close(fd);
            throw e;
        }
    }

    private static int createAndUnlink(byte[] dir) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            byte[] name = (new String(dir, StandardCharsets.UTF_8) + "/.brisk-"
                    + Long.toHexString(ThreadLocalRandom.current().nextLong())).getBytes(StandardCharsets.UTF_8);
            int fd = Libc.openOrErrno(name, Flags.O_RDWR | Flags.O_CREAT | Flags.O_EXCL | Flags.O_CLOEXEC, 0600);
            if (fd >= 0) {
                Libc.unlinkOrErrno(name);
                return fd;
            }
            if (-fd != Errno.EEXIST) {
                throw new IOException("cannot make a temporary file in " + Libc.display(dir) + ": "
                        + Libc.strerror(-fd));
            }
        }
        throw new IOException("cannot make a temporary file in " + Libc.display(dir));
    }

    /** A path by which another process of this user can open the file while it is open. */
    public String procPath() {
        return "/proc/" + PID + "/fd/" + fd;
    }

    /** The file's descriptor (for {@code sendfile}); the channel is the way to read and write it. */
    public int fd() {
        return fd;
    }

    /** The channel to read, write and truncate the file. */
    public FileChannel channel() {
        return channel;
    }

    /** Where the bytes not yet consumed start. */
    public long mark() {
        return mark;
    }

    /**
     * Marks the first {@code consumed} bytes from the mark as consumed; beyond 1 MiB of them the
     * file is emptied (one ftruncate), so it stays small without a truncate per use.
     */
    public void consume(long consumed) throws IOException {
        mark += consumed;
        if (mark > 1 << 20) {
            truncate();
        }
    }

    /** Empties the file with one ftruncate (the channel's truncate also stats and seeks); the mark goes back to 0. */
    public void truncate() throws IOException {
        long r = Syscall.call(Syscall.FTRUNCATE, fd, 0, 0, 0);
        if (r < 0) {
            throw new IOException("ftruncate: " + Libc.strerror((int) -r));
        }
        mark = 0;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing to flush: the file is gone with its last descriptor
        }
        Libc.close(fd);
    }
}
