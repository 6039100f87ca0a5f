// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A {@code --pipe} job's standard input: a pipe that a thread of its own fills with the job's
 * block, so the job reads a pipe as under GNU parallel ({@code test -p /dev/stdin}) and a block
 * larger than the pipe's buffer flows while the job reads. The job's shell opens the read end by
 * {@link #path()}; {@link #close} (after the job ended) lets go of the read end, which ends a
 * write the job left unread (EPIPE), and waits for the writer. Two descriptors while a job runs.
 */
final class StdinPipe implements AutoCloseable {
    private static final long PID = ProcessHandle.current().pid();

    private int readEnd;
    private final Thread writer;

    StdinPipe(byte[] block) throws PosixException {
        int[] fds = Libc.pipe();
        readEnd = fds[0];
        int writeEnd = fds[1];
        // a platform thread: its write blocks in a system call while the pipe is full
        writer = Thread.ofPlatform().daemon().name("brisk-pipe-stdin").start(() -> fill(writeEnd, block));
    }

    /** The read end, for a job spawned with it as its stdin; {@link #release} once it has its copy. */
    int readEnd() {
        return readEnd;
    }

    /** Lets go of the read end (a spawned job holds its own), so a job that ends unread ends the write. */
    void release() {
        Libc.close(readEnd);
        readEnd = -1;
    }

    /** The path the job's shell opens the pipe by. */
    String path() {
        return "/proc/" + PID + "/fd/" + readEnd;
    }

    private static void fill(int fd, byte[] block) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(Math.max(1, block.length));
            MemorySegment.copy(block, 0, b, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, block.length);
            long at = 0;
            while (at < block.length) {
                long n = Libc.write(fd, b.asSlice(at), block.length - at);
                if (n <= 0) {
                    break;
                }
                at += n;
            }
        } catch (PosixException e) {
            // EPIPE: the job ended without reading all of its block, as a job may
        } finally {
            Libc.close(fd);
        }
    }

    @Override
    public void close() {
        if (readEnd >= 0) {
            release();
        }
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
