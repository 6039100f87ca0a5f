// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.meter.CopyResult.Outcome;
import dev.brisk.meter.CopyResult.Problem;
import dev.brisk.meter.MeterOptions.Counting;
import dev.brisk.meter.MeterOptions;
import dev.brisk.meter.RateLimiter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Copies descriptor to descriptor by the fastest path their types allow: {@code splice(2)} when
 * either side is a pipe, {@code copy_file_range(2)} then {@code sendfile(2)} from a regular file,
 * else read/write through one reused buffer; a zero-copy call that the kernel refuses falls back
 * to the next path for the rest of that input.
 *
 * <p>EINTR is retried, EAGAIN (a non-blocking descriptor shared with another process) waits in
 * poll(2) for the side that is not ready, short writes are finished, and EPIPE ends the whole
 * copy quietly as {@link Outcome#OUTPUT_CLOSED}. Counts are 64-bit: files over 4 GiB are nothing
 * special.
 *
 * <p>Interrupting the copying thread ends the copy ({@link InterruptedException}) at the next
 * chunk. A copy for a warm server's client (a {@link Caller} other than {@link Caller#SELF} when
 * the transfer is made) must also end while its descriptors are idle, when the client's signal
 * ends the call: it splices with {@code SPLICE_F_NONBLOCK}, polls a side that would block anyway
 * (a terminal, socket or device) and each side of a read/write copy before the call, and waits in
 * poll(2) with a short timeout, looking at the interrupt between waits; that costs a poll now and
 * then, which a direct run does not pay. A write larger than the room left in a pipe whose
 * reader has stopped reading can still block it.
 *
 * <p>One instance serves one copy on one thread; it owns its buffer (freed by {@link #close}) but
 * not the descriptors.
 */
public final class FdTransfer implements AutoCloseable {
    private static final long PIPE_CHUNK = 1 << 20;
    private static final long FILE_CHUNK = 16 << 20;
    private static final int DEFAULT_BUFFER = 256 << 10;
    private static final int SKIP_BLOCK = 512;
    private static final int SPARSE_BLOCK = 4096;
    private static final int DIRECT_BLOCK = 4096;
    private static final int SPLICE_F_NONBLOCK = 2;
    /** How long an interruptible copy waits in one poll before it looks at the interrupt again. */
    private static final int INTERRUPTIBLE_WAIT_MILLIS = 100;

    private enum Path { SPLICE, COPY_FILE_RANGE, SENDFILE, READ_WRITE }

    private final MeterOptions options;
    private final Counter counter;
    private final Consumer<String> report;
    private final Set<Problem> problems = EnumSet.noneOf(Problem.class);
    private final Arena arena = Arena.ofShared();
    private final MemorySegment pollfds = arena.allocate(2L * Flags.POLLFD_SIZE, 8);
    private final byte delimiter;
    private final boolean countLines;
    private final boolean interruptible;
    private final int waitMillis;
    private MemorySegment buffer;
    private MemorySegment zeros;
    private long sizeLimit;
    private boolean sparseOut;
    private boolean holeAtEnd;
    private int hangupWatch = -1;
    /** An interruptible copy's sides that may block a transfer call (not a pipe, file or disk): polled first. */
    private boolean pollIn, pollOut;

    /**
     * @param sizeLimit the count (bytes or lines) at which to stop, or -1 for none
     * @param report    receives one-line problem messages (without a program prefix)
     */
    public FdTransfer(MeterOptions options, Counter counter, long sizeLimit, Consumer<String> report) {
        this.options = options;
        this.counter = counter;
        this.sizeLimit = sizeLimit;
        this.report = report;
        this.countLines = options.counting() != Counting.BYTES;
        this.delimiter = (byte) Math.max(0, options.counting().delimiter());
        this.interruptible = !Caller.current().self();
        this.waitMillis = interruptible ? INTERRUPTIBLE_WAIT_MILLIS : 1000;
    }

    /**
     * Makes every later copy wait for input in poll(2) beside {@code out}, a pipe's write end, and
     * end as {@link Outcome#OUTPUT_CLOSED} as soon as its reader goes away, even while the input
     * is idle (a monitored command that exits without reading all of it must not leave the copy
     * blocked in a read). One poll per chunk; without it, only the next write notices (EPIPE).
     */
    public void watchHangup(int out) {
        hangupWatch = out;
    }

    /** The problems met so far. */
    public Set<Problem> problems() {
        return problems;
    }

    /**
     * Copies {@code in} to {@code out} (-1 to discard) until the input ends, the size limit is
     * reached, or the output goes away. Read problems are reported and end this input only.
     */
    public Outcome copy(int in, FdInfo inInfo, String name, int out, FdInfo outInfo) throws InterruptedException {
        sparseOut = options.sparse() && outInfo != null && outInfo.kind() == FdInfo.Kind.REGULAR;
        pollIn = interruptible && mayBlock(inInfo);
        pollOut = interruptible && out >= 0 && mayBlock(outInfo);
        Path path = choose(inInfo, out, outInfo);
        while (path != Path.READ_WRITE) {
            long r = zeroCopy(path, in, out);
            if (r == DONE) {
                return Outcome.END_OF_INPUT;
            } else if (r == LIMIT) {
                return Outcome.SIZE_REACHED;
            } else if (r == CLOSED) {
                return Outcome.OUTPUT_CLOSED;
            }
            path = path == Path.COPY_FILE_RANGE ? Path.SENDFILE : Path.READ_WRITE;
        }
        return readWrite(in, name, out);
    }

    private static final long DONE = 0, LIMIT = 1, CLOSED = 2, FALL_BACK = 3;

    /**
     * Whether a transfer call may block on this side even with SPLICE_F_NONBLOCK: a terminal, a
     * socket or a device, whose reads (or writes) the kernel does not make non-blocking for
     * splice; a pipe's side obeys the flag, and files and disks do not wait on other processes.
     */
    private static boolean mayBlock(FdInfo info) {
        return info == null || switch (info.kind()) {
            case PIPE, REGULAR, BLOCK_DEVICE -> false;
            default -> true;
        };
    }

    private Path choose(FdInfo in, int out, FdInfo outInfo) {
        if (options.needsBuffer() || out < 0 || in == null || outInfo == null) {
            return Path.READ_WRITE;
        }
        if (in.kind() == FdInfo.Kind.PIPE || outInfo.kind() == FdInfo.Kind.PIPE) {
            return Path.SPLICE;
        }
        if (in.kind() == FdInfo.Kind.REGULAR || in.kind() == FdInfo.Kind.BLOCK_DEVICE) {
            return outInfo.kind() == FdInfo.Kind.REGULAR ? Path.COPY_FILE_RANGE : Path.SENDFILE;
        }
        return Path.READ_WRITE;
    }

    /** One zero-copy path until its end: DONE, LIMIT, CLOSED or FALL_BACK (data so far is counted). */
    private long zeroCopy(Path path, int in, int out) throws InterruptedException {
        long chunkMax = path == Path.SPLICE ? PIPE_CHUNK : FILE_CHUNK;
        int spliceFlags = Sys.SPLICE_F_MOVE | Sys.SPLICE_F_MORE | (interruptible ? SPLICE_F_NONBLOCK : 0);
        RateLimiter limiter = options.rateLimiter();
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long want = chunkMax;
            if (sizeLimit >= 0) {
                want = Math.min(want, sizeLimit - counter.bytes());
                if (want <= 0) {
                    return LIMIT;
                }
            }
            if (hangupWatch >= 0 && !inputOrHangup(in)) {
                return CLOSED;
            }
            if (limiter != null) {
                want = limiter.acquire(want);
            }
            if (pollIn) {
                ready(in, Flags.POLLIN);
            }
            if (pollOut) {
                ready(out, Flags.POLLOUT);
            }
            long n = switch (path) {
                case SPLICE -> Sys.splice(in, out, want, spliceFlags);
                case COPY_FILE_RANGE -> Sys.copyFileRange(in, out, want);
                default -> Sys.sendfile(out, in, want);
            };
            if (limiter != null) {
                limiter.refund(want - Math.max(0, n));
            }
            if (n > 0) {
                counter.spliced();
                counter.add(n, 0);
                sync(out);
                continue;
            }
            if (n == 0) {
                return DONE;
            }
            int e = (int) -n;
            if (e == Errno.EAGAIN) {
                await(in, out);
            } else if (e == Errno.EPIPE) {
                return CLOSED;
            } else {
                // EINVAL, ENOSYS, EXDEV, EBADF...: this pair cannot use the call; read/write will
                // either work or name the failing side properly
                return FALL_BACK;
            }
        }
    }

    private Outcome readWrite(int in, String name, int out) throws InterruptedException {
        MemorySegment buf = buffer();
        RateLimiter limiter = options.rateLimiter();
        boolean reportedSkip = false;
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long want = buf.byteSize();
            if (sizeLimit >= 0 && countLines && counter.lines() >= sizeLimit) {
                return Outcome.SIZE_REACHED; // read nothing more once the lines are all there
            }
            if (sizeLimit >= 0 && !countLines) {
                want = Math.min(want, sizeLimit - counter.bytes());
                if (want <= 0) {
                    return Outcome.SIZE_REACHED;
                }
            }
            if (hangupWatch >= 0) {
                if (!inputOrHangup(in)) {
                    return Outcome.OUTPUT_CLOSED;
                }
            } else if (interruptible) {
                ready(in, Flags.POLLIN);
            }
            if (limiter != null) {
                want = limiter.acquire(want);
            }
            if (options.directIo() && want > DIRECT_BLOCK) {
                want -= want % DIRECT_BLOCK; // O_DIRECT reads whole blocks
            }
            long n;
            try {
                n = Libc.read(in, buf, want);
            } catch (PosixException e) {
                if (limiter != null) {
                    limiter.refund(want);
                }
                if (e.errno() == Errno.EINVAL && options.directIo() && DirectIo.set(in, false)) {
                    continue; // an unaligned remainder (a size limit): read it through the cache
                }
                if (options.skipErrors() == 0) {
                    problem(Problem.TRANSFER_ERROR, name + ": read failed: " + Libc.strerror(e.errno()));
                    return Outcome.END_OF_INPUT;
                }
                long skipped = skip(in, out);
                if (skipped <= 0) {
                    problem(Problem.TRANSFER_ERROR, name + ": read failed: " + Libc.strerror(e.errno()));
                    return Outcome.END_OF_INPUT;
                }
                if (options.skipErrors() == 1 || !reportedSkip) {
                    report.accept(name + ": warning: read error: " + Libc.strerror(e.errno())
                            + ": skipped " + skipped + " bytes");
                    reportedSkip = true;
                }
                continue;
            }
            if (limiter != null && (!countLines || n <= 0)) {
                limiter.refund(want - Math.max(0, n));
            }
            if (n < 0) {
                awaitOne(in, Flags.POLLIN);
                continue;
            }
            if (n == 0) {
                return Outcome.END_OF_INPUT;
            }
            long lines = 0;
            boolean last = false;
            if (countLines) {
                if (sizeLimit >= 0) {
                    long prefix = LineCounter.prefixWith(buf, n, delimiter, sizeLimit - counter.lines());
                    if (prefix >= 0) {
                        n = prefix;
                        last = true;
                    }
                }
                lines = LineCounter.count(buf, n, delimiter);
                if (limiter != null) {
                    // pv's rule: in line mode the limit is in lines; a read of at most as many
                    // bytes as there are tokens holds at most that many lines
                    limiter.refund(want - lines);
                }
            }
            Outcome o = sparseOut ? writeSparse(buf, n, out, name) : writeAll(buf, n, out, name);
            if (o != null) {
                return o;
            }
            counter.tail(buf, n);
            counter.add(n, lines);
            if (last) {
                return Outcome.SIZE_REACHED;
            }
        }
    }

    /** Writes {@code buf[0, n)} fully; null on success, else why the copy must stop. */
    private Outcome writeAll(MemorySegment buf, long n, int out, String name) throws InterruptedException {
        if (out < 0) {
            return null;
        }
        long done = 0;
        while (done < n) {
            counter.buffered(n - done, buffer().byteSize()); // what -T shows while the output holds us up
            if (interruptible) {
                ready(out, Flags.POLLOUT);
            }
            long w;
            try {
                w = Libc.write(out, buf.asSlice(done), n - done);
            } catch (PosixException e) {
                if (e.errno() == Errno.EPIPE) {
                    return Outcome.OUTPUT_CLOSED;
                }
                if (e.errno() == Errno.EINVAL && options.directIo() && DirectIo.set(out, false)) {
                    continue; // O_DIRECT takes whole blocks only: the last, partial one goes through the cache
                }
                problem(Problem.TRANSFER_ERROR, "write failed: " + Libc.strerror(e.errno()));
                return Outcome.WRITE_FAILED;
            }
            if (w < 0) {
                awaitOne(out, Flags.POLLOUT);
            } else {
                done += w;
            }
        }
        counter.buffered(0, buffer().byteSize());
        sync(out);
        holeAtEnd = false;
        return null;
    }

    /**
     * Writes {@code buf[0, n)} as {@link #writeAll} does, but seeks over each all-zero 4 KiB block
     * instead of writing it, leaving a hole; {@link #finish} sets the length if the copy ends in one.
     */
    private Outcome writeSparse(MemorySegment buf, long n, int out, String name) throws InterruptedException {
        if (zeros == null) {
            zeros = arena.allocate(SPARSE_BLOCK, 4096);
        }
        long at = 0;
        while (at < n) {
            long end = at;
            boolean zero = isZero(buf, at, n);
            while (end < n && isZero(buf, end, n) == zero) {
                end += Math.min(SPARSE_BLOCK, n - end);
            }
            if (zero && Sys.lseek(out, end - at, Sys.SEEK_CUR) >= 0) {
                holeAtEnd = true;
            } else {
                Outcome o = writeAll(buf.asSlice(at), end - at, out, name);
                if (o != null) {
                    return o;
                }
            }
            at = end;
        }
        return null;
    }

    private boolean isZero(MemorySegment buf, long at, long n) {
        long len = Math.min(SPARSE_BLOCK, n - at);
        return MemorySegment.mismatch(buf, at, at + len, zeros, 0, len) < 0;
    }

    /**
     * Ends the output: a sparse copy that ended in a hole gets its length set with ftruncate(2),
     * since seeking alone does not extend a file.
     */
    public void finish(int out) {
        if (holeAtEnd && out >= 0) {
            long end = Sys.lseek(out, 0, Sys.SEEK_CUR);
            try {
                if (end > 0) {
                    Libc.ftruncate(out, end);
                }
            } catch (PosixException e) {
                problem(Problem.TRANSFER_ERROR, "write failed: " + Libc.strerror(e.errno()));
            }
            holeAtEnd = false;
        }
    }

    /** Steps over a bad block after a read error, writing zeros in its place; bytes skipped or 0. */
    private long skip(int in, int out) throws InterruptedException {
        long at = Sys.lseek(in, 0, Sys.SEEK_CUR);
        FdInfo info = Sys.fstat(in);
        if (at < 0 || info == null || info.size() <= at) {
            return 0;
        }
        long block = options.skipBlock() > 0 ? options.skipBlock() : SKIP_BLOCK;
        long len = Math.min(Math.min(block - at % block, info.size() - at), buffer().byteSize());
        if (Sys.lseek(in, at + len, Sys.SEEK_SET) < 0) {
            return 0;
        }
        MemorySegment zeros = buffer().asSlice(0, len).fill((byte) 0);
        if (writeAll(zeros, len, out, "") != null) {
            return 0;
        }
        counter.add(len, 0);
        return len;
    }

    private void sync(int out) {
        if (options.sync() && out >= 0) {
            Sys.fdatasync(out);
        }
    }

    private void problem(Problem p, String message) {
        problems.add(p);
        report.accept(message);
    }

    private MemorySegment buffer() {
        if (buffer == null) {
            int size = options.bufferSize() > 0 ? options.bufferSize() : DEFAULT_BUFFER;
            buffer = arena.allocate(size, 4096);
        }
        return buffer;
    }

    /**
     * After EAGAIN from a transfer call: waits for the side that is not ready (a non-blocking
     * input with nothing to read, or an output that is full). Waiting for either would spin
     * while the other one stays ready.
     */
    private void await(int in, int out) throws InterruptedException {
        Libc.pollfd(pollfds, 0, in, Flags.POLLIN);
        Libc.pollfd(pollfds, 1, out, Flags.POLLOUT);
        poll(2, 0);
        if (Libc.revents(pollfds, 0) == 0) {
            ready(in, Flags.POLLIN);
        } else if (Libc.revents(pollfds, 1) == 0) {
            ready(out, Flags.POLLOUT);
        }
    }

    /** Waits until {@code fd} is ready for {@code events} (or in error, or hung up). */
    private void ready(int fd, short events) throws InterruptedException {
        do {
            Libc.pollfd(pollfds, 0, fd, events);
            poll(1, waitMillis);
        } while (Libc.revents(pollfds, 0) == 0);
    }

    /** Waits until {@code in} is readable (true) or the watched output's reader has gone (false). */
    private boolean inputOrHangup(int in) throws InterruptedException {
        while (true) {
            Libc.pollfd(pollfds, 0, in, Flags.POLLIN);
            Libc.pollfd(pollfds, 1, hangupWatch, (short) 0); // POLLERR comes unasked once no reader is left
            poll(2, waitMillis);
            if ((Libc.revents(pollfds, 1) & (Flags.POLLERR | Flags.POLLHUP | Flags.POLLNVAL)) != 0) {
                return false;
            }
            if (Libc.revents(pollfds, 0) != 0) {
                return true; // readable, at its end, or in error: the read says which
            }
        }
    }

    private void awaitOne(int fd, short events) throws InterruptedException {
        Libc.pollfd(pollfds, 0, fd, events);
        poll(1, waitMillis);
    }

    private void poll(int count, int timeoutMillis) throws InterruptedException {
        try {
            Libc.poll(pollfds, count, timeoutMillis);
        } catch (PosixException e) {
            throw new AssertionError("poll on our own descriptors failed", e);
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
