// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.meter.CopyResult.Outcome;
import dev.brisk.meter.CopyResult.Problem;
import dev.brisk.meter.MeterOptions.Counting;
import dev.brisk.meter.internal.ChannelTransfer;
import dev.brisk.meter.internal.Counter;
import dev.brisk.meter.internal.DirectIo;
import dev.brisk.meter.internal.FdInfo;
import dev.brisk.meter.internal.FdTransfer;
import dev.brisk.meter.internal.Reporter;
import dev.brisk.meter.internal.Sys;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A metered copy: moves data from inputs to an output while a {@link ProgressListener} watches
 * bytes (or lines), rates and the ETA, optionally under a shared {@link RateLimiter}.
 *
 * <p>{@link #copy(List, Output)} works on file descriptors, like pv: {@code splice(2)} when
 * either side is a pipe (our pipes are raised to 256 KiB with {@code F_SETPIPE_SZ}),
 * {@code copy_file_range(2)} or {@code sendfile(2)} from files, read/write with one reused buffer
 * otherwise. {@link #copy(ReadableByteChannel, WritableByteChannel)} and
 * {@link #copy(InputStream, OutputStream)} serve JVM callers.
 *
 * <p>A {@code Meter} is immutable and may run several copies, on several threads at once; each
 * copy blocks its calling thread and reports from one extra daemon thread. The meter closes what
 * it opened (named files), never the caller's descriptors, channels or streams. A reader that
 * goes away (EPIPE) ends the copy quietly with {@link Outcome#OUTPUT_CLOSED}.
 *
 * <p>Standard input and output ({@link Input#stdin()}, {@link Output#stdout()}) are the current
 * {@link Caller}'s, as are the descriptors a display draws on: a warm server's call copies
 * between its client's descriptors, zero-copy all the same. Interrupting the copying thread ends
 * the copy as {@link Outcome#INTERRUPTED}; for a server's client, promptly even while its
 * descriptors are idle.
 *
 * <pre>{@code
 * Meter meter = new Meter(MeterOptions.builder().rateLimiter(new RateLimiter(10 << 20)).build(),
 *         p -> System.err.printf("%d bytes, %.0f B/s%n", p.bytes(), p.rate()));
 * CopyResult r = meter.copy(List.of(Input.file(Path.of("big.iso"))), Output.stdout());
 * }</pre>
 */
public final class Meter {
    /**
     * Our pipes' size: big enough that the writer and reader beside us block and wake far less
     * often than with the default 64 KiB, small enough that what is in flight stays in the cache
     * (with 1 MiB pipes, head | brisk pv | cat of 8 GiB took 11.4-12.3 s here, 8.8 s with
     * 256 KiB or 64 KiB, 2026-12-01; git log -p -- docs/PERFORMANCE-HISTORY.md, "Scale").
     */
    private static final int PIPE_SIZE = 256 << 10;

    private final MeterOptions options;
    private final ProgressListener listener;
    private final LiveSettings live;

    public Meter(MeterOptions options, ProgressListener listener) {
        this(options, listener, null);
    }

    /** A meter whose copies also follow {@code live} (size and interval changed mid-copy), if not null. */
    public Meter(MeterOptions options, ProgressListener listener, LiveSettings live) {
        this.options = options;
        this.listener = listener == null ? ProgressListener.none() : listener;
        this.live = live;
    }

    /**
     * Copies each input in turn to {@code output}. An input that cannot be opened, or that is the
     * output file itself, is reported to the listener and skipped; a read error ends that input.
     *
     * @throws IOException if the output file cannot be opened
     */
    public CopyResult copy(List<Input> inputs, Output output) throws IOException {
        int out = -1;
        boolean closeOut = false;
        Caller caller = Caller.current();
        if (output.isDescriptor()) {
            out = output.isStdout() ? caller.stdout() : output.fd();
        } else if (!output.isDiscard()) {
            out = Libc.open(output.rawPath(), Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC, 0666);
            closeOut = true;
        }
        if (options.directIo() && out >= 0) {
            DirectIo.set(out, true); // as pv: set on the output where it can be, ignored where not (a pipe)
        }
        try {
            FdInfo outInfo = out >= 0 ? Sys.fstat(out) : null;
            boolean outPipe = outInfo != null && outInfo.kind() == FdInfo.Kind.PIPE;
            if (outPipe) {
                raisePipe(out);
            }
            long size = options.size() >= 0 ? options.size() : options.counting() == Counting.BYTES ? totalSize(inputs, caller) : -1;
            // pv 1.9.42: a size given explicitly is a hard limit, 0 included (nothing is read)
            long limit = !options.stopAtSize() ? -1 : options.size() >= 0 ? options.size() : size > 0 ? size : -1;
            Counter counter = new Counter(options.ticker(), options.tailLength(), options.previousLine());
            Reporter reporter = reporter(size, counter, outPipe ? out : -1);
            Set<Problem> problems = EnumSet.noneOf(Problem.class);
            Outcome outcome = Outcome.END_OF_INPUT;
            int opened = 0;
            reporter.start();
            try (FdTransfer transfer = new FdTransfer(options, counter, limit, reporter::problem)) {
                if (outPipe && output.watchesHangup()) {
                    transfer.watchHangup(out);
                }
                for (Input input : inputs) {
                    int in = input.isStdin() ? caller.stdin() : input.fd();
                    if (!input.isDescriptor()) {
                        try {
                            in = Libc.open(input.rawPath(), Flags.O_RDONLY | Flags.O_CLOEXEC
                                    | (options.directIo() ? DirectIo.O_DIRECT : 0), 0);
                        } catch (PosixException e) {
                            problems.add(Problem.INPUT_UNREADABLE);
                            reporter.problem(directRefused(e, input.displayName()).getMessage());
                            continue;
                        }
                    } else if (options.directIo()) {
                        DirectIo.set(in, true);
                    }
                    try {
                        opened++;
                        FdInfo inInfo = Sys.fstat(in);
                        if (inInfo != null && outInfo != null && outInfo.kind() == FdInfo.Kind.REGULAR && inInfo.sameFile(outInfo)) {
                            problems.add(Problem.INPUT_IS_OUTPUT);
                            reporter.problem("input file is output file: " + input.displayName());
                            continue;
                        }
                        if (input.isDescriptor() && inInfo != null && inInfo.kind() == FdInfo.Kind.PIPE) {
                            raisePipe(in);
                        }
                        outcome = transfer.copy(in, inInfo, input.displayName(), out, outInfo);
                    } finally {
                        if (!input.isDescriptor()) {
                            Libc.close(in);
                        }
                    }
                    if (outcome != Outcome.END_OF_INPUT) {
                        break;
                    }
                }
                transfer.finish(out);
                problems.addAll(transfer.problems());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                outcome = Outcome.INTERRUPTED;
            }
            if (opened == 0 && !inputs.isEmpty()) {
                problems.add(Problem.NO_INPUT_OPENED);
            }
            reporter.finish();
            return new CopyResult(counter.bytes(), counter.lines(), outcome, problems);
        } finally {
            if (closeOut) {
                Libc.close(out);
            }
        }
    }

    /**
     * Copies {@code in} to {@code out} until {@code in} ends (or the size is reached). The size
     * is found from {@code in} when it is a {@link FileChannel} and the options give none.
     *
     * @throws IOException from either channel; a closed output ends the copy as
     *                     {@link Outcome#OUTPUT_CLOSED} only if it is reported as a closed channel
     */
    public CopyResult copy(ReadableByteChannel in, WritableByteChannel out) throws IOException {
        long size = options.size();
        if (size < 0 && options.counting() == Counting.BYTES && in instanceof FileChannel f) {
            size = Math.max(0, f.size() - f.position());
        }
        long limit = options.stopAtSize() && size > 0 ? size : -1;
        Counter counter = new Counter(options.ticker(), options.tailLength(), options.previousLine());
        Reporter reporter = reporter(size, counter, -1);
        Outcome outcome;
        reporter.start();
        try {
            outcome = new ChannelTransfer(options, counter, limit).copy(in, out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = Outcome.INTERRUPTED;
        } finally {
            reporter.finish();
        }
        return new CopyResult(counter.bytes(), counter.lines(), outcome, Set.of());
    }

    /** Copies a stream to a stream; see {@link #copy(ReadableByteChannel, WritableByteChannel)}. */
    public CopyResult copy(InputStream in, OutputStream out) throws IOException {
        CopyResult r = copy(Channels.newChannel(in), Channels.newChannel(out));
        out.flush();
        return r;
    }

    private Reporter reporter(long size, Counter counter, int pipeFd) {
        ProgressTracker tracker = new ProgressTracker(size, options.averageWindow());
        return new Reporter(tracker, counter, listener, options.ticker(), options.interval().toNanos(),
                options.counting() != Counting.BYTES, options.waitFirstByte(), pipeFd, live);
    }

    /** The bytes left to read in the inputs that are regular files (or descriptors open on one), or -1 if none is. */
    private static long totalSize(List<Input> inputs, Caller caller) {
        long total = 0;
        for (Input input : inputs) {
            if (input.isDescriptor()) {
                int fd = input.isStdin() ? caller.stdin() : input.fd();
                FdInfo info = Sys.fstat(fd);
                if (info != null && info.kind() == FdInfo.Kind.REGULAR) {
                    total += Math.max(0, info.size() - Math.max(0, Sys.lseek(fd, 0, Sys.SEEK_CUR)));
                }
                continue;
            }
            FdInfo info = Sys.stat(input.rawPath()); // a missing file is reported when the copy reaches it
            if (info != null && info.kind() == FdInfo.Kind.REGULAR) {
                total += info.size();
            }
        }
        return total > 0 ? total : -1;
    }

    /** An O_DIRECT open the file system refused (EINVAL) says so; other failures pass unchanged. */
    private IOException directRefused(PosixException e, String name) {
        if (options.directIo() && e.errno() == Errno.EINVAL) {
            return new IOException(name + ": " + Libc.strerror(e.errno()) + " (its file system refuses O_DIRECT, -K)");
        }
        return e;
    }

    private static void raisePipe(int fd) {
        try {
            if (Libc.fcntl(fd, Flags.F_GETPIPE_SZ, 0) < PIPE_SIZE) {
                Libc.fcntl(fd, Flags.F_SETPIPE_SZ, PIPE_SIZE);
            }
        } catch (PosixException e) {
            // over the user's pipe quota (EPERM) or not a pipe: the default size still works
        }
    }
}
