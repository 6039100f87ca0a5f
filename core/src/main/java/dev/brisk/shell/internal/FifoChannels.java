// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A worker's three FIFOs in its directory: {@code s}, the shell's status lines (its stdout),
 * and {@code o} and {@code e}, each command's stdout and stderr. Java keeps a non-blocking read
 * end of each for the worker's life. While a command runs it also holds a write end of {@code o}
 * and {@code e} ({@link #begin}), so that poll sees no end of file, and wakes no one, before the
 * command has ended; once it has ({@link #endCommand}), they are closed and the output drained
 * to end of file or to a deadline, and a FIFO that a background child of the command still
 * holds at the deadline is replaced by a fresh one ({@link #replaceHeld}), so nothing it writes
 * later can reach another command's output.
 *
 * <p>Used by the thread that drives the worker's command; {@link #close} once no command runs.
 */
final class FifoChannels {
    /** The size of one read. */
    static final int CHUNK = 64 * 1024;
    private static final int READ_FLAGS = Flags.O_RDONLY | Flags.O_NONBLOCK | Flags.O_CLOEXEC;
    private static final int WRITE_FLAGS = Flags.O_WRONLY | Flags.O_NONBLOCK | Flags.O_CLOEXEC;

    private final int statusFd;
    /** Paths of {@code o} and {@code e}. */
    private final byte[][] outputPaths;
    /** Read ends of {@code o} and {@code e}, kept from command to command. */
    private final int[] readFds;
    /** The current command's outputs not yet at end of file: their read ends, else -1. */
    private final int[] live = {-1, -1};
    /** The write ends Java holds while a command runs, else -1. */
    private final int[] writeFds = {-1, -1};
    private long drainDeadline = Long.MAX_VALUE;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment buf = arena.allocate(CHUNK, 8);
    /** The poll set: the status FIFO (or what stands in its place), then {@code o} and {@code e}. */
    private final MemorySegment pollfds = arena.allocate(3L * Flags.POLLFD_SIZE, 8);
    private final byte[] statusBytes = new byte[CHUNK];
    private final StatusLines statusLines = new StatusLines();

    private FifoChannels(int statusFd, int[] readFds, byte[][] outputPaths) {
        this.statusFd = statusFd;
        this.readFds = readFds;
        this.outputPaths = outputPaths;
    }

    /** Makes FIFOs {@code s}, {@code o} and {@code e} (mode 0600) in {@code dir} and opens their read ends. */
    static FifoChannels create(Path dir) throws PosixException {
        byte[][] paths = {bytes(dir.resolve("s")), bytes(dir.resolve("o")), bytes(dir.resolve("e"))};
        int[] fds = {-1, -1, -1};
        try {
            for (int i = 0; i < 3; i++) {
                fds[i] = makeFifo(paths[i]);
            }
        } catch (PosixException | RuntimeException e) {
            for (int fd : fds) {
                Libc.close(fd);
            }
            throw e;
        }
        return new FifoChannels(fds[0], new int[] {fds[1], fds[2]}, new byte[][] {paths[1], paths[2]});
    }

    private static int makeFifo(byte[] path) throws PosixException {
        Libc.mkfifo(path, 0600);
        return Libc.open(path, READ_FLAGS, 0);
    }

    private static byte[] bytes(Path p) {
        return p.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The status FIFO's read end, for poll. */
    int statusFd() {
        return statusFd;
    }

    /** The paths of {@code o} and {@code e}, for a command spawned without the shell. Not to be changed. */
    byte[][] outputPaths() {
        return outputPaths;
    }

    /** Starts a command: takes the write ends of {@code o} and {@code e}; both outputs are open. */
    void begin() throws PosixException {
        drainDeadline = Long.MAX_VALUE;
        live[0] = readFds[0];
        live[1] = readFds[1];
        writeFds[0] = Libc.open(outputPaths[0], WRITE_FLAGS, 0);
        writeFds[1] = Libc.open(outputPaths[1], WRITE_FLAGS, 0);
    }

    /**
     * The command has ended: lets go of the write ends and reads what the outputs hold (usually
     * all there is, with the writers gone: end of file without a poll), into {@code out} and
     * {@code err} when {@code deliver}; the rest is to be read by {@code deadline}.
     */
    void endCommand(long deadline, OutputSink out, OutputSink err, boolean deliver) throws PosixException {
        drainDeadline = deadline;
        releaseWriteEnds();
        drain(0, out, deliver);
        drain(1, err, deliver);
    }

    /** When the output still open must be read by, after {@link #endCommand}; else {@code Long.MAX_VALUE}. */
    long drainDeadline() {
        return drainDeadline;
    }

    /** Whether the ended command's output is all read, or its deadline has passed at {@code now}. */
    boolean drained(long now) {
        return (live[0] < 0 && live[1] < 0) || now >= drainDeadline;
    }

    /** Output {@code i}'s read end while it is not at end of file, else -1 (for poll, where -1 is skipped). */
    int outputFd(int i) {
        return live[i];
    }

    /**
     * Waits up to {@code millis} for {@code first} (the status FIFO, a descriptor polled in its
     * place, or -1 for none) or an output still open to be readable; false when nothing was.
     */
    boolean poll(int first, int millis) throws PosixException {
        Libc.pollfd(pollfds, 0, first, Flags.POLLIN);
        Libc.pollfd(pollfds, 1, live[0], Flags.POLLIN);
        Libc.pollfd(pollfds, 2, live[1], Flags.POLLIN);
        return Libc.poll(pollfds, 3, millis) != 0;
    }

    /** Whether the last {@link #poll} found {@code first} readable (or at end of file, or in error). */
    boolean firstReady() {
        return Libc.revents(pollfds, 0) != 0;
    }

    /** Drains each output the last {@link #poll} found readable, as {@link #drain} does. */
    void drainReady(OutputSink out, OutputSink err, boolean deliver) throws PosixException {
        if (live[0] >= 0 && Libc.revents(pollfds, 1) != 0) {
            drain(0, out, deliver);
        }
        if (live[1] >= 0 && Libc.revents(pollfds, 2) != 0) {
            drain(1, err, deliver);
        }
    }

    /**
     * Reads all that output {@code i} holds now, handing it to {@code sink} when {@code deliver}
     * and the sink has not failed (a failure lands in {@link OutputSink#failure}; the rest is
     * read and dropped). At end of file the output is done for this command (its read end stays
     * open for the next).
     */
    void drain(int i, OutputSink sink, boolean deliver) throws PosixException {
        int fd = live[i];
        while (fd >= 0) {
            long n = Libc.read(fd, buf, CHUNK);
            if (n < 0) {
                return;
            }
            if (n == 0) {
                live[i] = -1;
                return;
            }
            if (deliver && sink.failure == null) {
                try {
                    sink.accept(buf, (int) n);
                } catch (IOException e) {
                    sink.failure = e;
                }
            }
        }
    }

    /**
     * Reads the status lines waiting and passes them to {@code l}; true when the status FIFO is
     * at end of file: the shell is gone.
     */
    boolean readStatus(StatusLines.Listener l) throws PosixException {
        while (true) {
            long n = Libc.read(statusFd, buf, CHUNK);
            if (n < 0) {
                return false;
            }
            if (n == 0) {
                return true;
            }
            MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, statusBytes, 0, (int) n);
            statusLines.feed(statusBytes, (int) n, l);
            if (n < CHUNK) {
                return false; // a short read took all there was: no need to ask again
            }
        }
    }

    /**
     * After the drain: puts a new FIFO in the place of each output that has not reached end of
     * file, since a background child of the command still holds it open.
     */
    void replaceHeld() throws PosixException {
        for (int i = 0; i < 2; i++) {
            if (live[i] >= 0) {
                live[i] = -1;
                Libc.close(readFds[i]);
                readFds[i] = -1;
                try {
                    Libc.unlink(outputPaths[i]);
                } catch (PosixException ignored) {
                    // mkfifo then says why
                }
                readFds[i] = makeFifo(outputPaths[i]);
            }
        }
    }

    /** Closes the write ends if this side still holds them (idempotent). */
    void releaseWriteEnds() {
        Libc.close(writeFds[0]);
        Libc.close(writeFds[1]);
        writeFds[0] = -1;
        writeFds[1] = -1;
    }

    /** Closes every descriptor and frees the buffer; the FIFOs stay in the directory. */
    void close() {
        releaseWriteEnds();
        Libc.close(statusFd);
        Libc.close(readFds[0]);
        Libc.close(readFds[1]);
        arena.close();
    }
}
