// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import dev.brisk.meter.CopyResult.Outcome;
import dev.brisk.meter.MeterOptions;
import dev.brisk.meter.MeterOptions.Counting;
import dev.brisk.meter.RateLimiter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * The meter's copy loop for JVM channels: {@link FileChannel#transferTo} between files when no
 * buffer is needed (the JDK then uses the kernel's zero-copy calls), otherwise one reused direct
 * buffer. One instance per copy and thread; it closes nothing.
 */
public final class ChannelTransfer {
    private static final int DEFAULT_BUFFER = 256 << 10;
    private static final long FILE_CHUNK = 16 << 20;

    private final MeterOptions options;
    private final Counter counter;
    private final long sizeLimit;

    public ChannelTransfer(MeterOptions options, Counter counter, long sizeLimit) {
        this.options = options;
        this.counter = counter;
        this.sizeLimit = sizeLimit;
    }

    /** Copies until end of input, the size limit, or a closed output (IOException "Broken pipe"). */
    public Outcome copy(ReadableByteChannel in, WritableByteChannel out) throws IOException, InterruptedException {
        RateLimiter limiter = options.rateLimiter();
        if (in instanceof FileChannel f && out instanceof FileChannel && !options.needsBuffer()) {
            while (true) {
                long want = FILE_CHUNK;
                if (sizeLimit >= 0) {
                    want = Math.min(want, sizeLimit - counter.bytes());
                    if (want <= 0) {
                        return Outcome.SIZE_REACHED;
                    }
                }
                if (limiter != null) {
                    want = limiter.acquire(want);
                }
                long n = f.transferTo(f.position(), want, out);
                if (limiter != null) {
                    limiter.refund(want - n);
                }
                if (n <= 0) {
                    return Outcome.END_OF_INPUT;
                }
                f.position(f.position() + n);
                counter.spliced();
                counter.add(n, 0);
            }
        }
        boolean lines = options.counting() != Counting.BYTES;
        byte delimiter = (byte) Math.max(0, options.counting().delimiter());
        ByteBuffer buf = ByteBuffer.allocateDirect(options.bufferSize() > 0 ? options.bufferSize() : DEFAULT_BUFFER);
        MemorySegment seg = MemorySegment.ofBuffer(buf);
        while (true) {
            long want = buf.capacity();
            if (sizeLimit >= 0 && !lines) {
                want = Math.min(want, sizeLimit - counter.bytes());
                if (want <= 0) {
                    return Outcome.SIZE_REACHED;
                }
            }
            if (limiter != null) {
                want = limiter.acquire(want);
            }
            buf.clear().limit((int) want);
            int n = in.read(buf);
            if (limiter != null && (!lines || n <= 0)) {
                limiter.refund(want - Math.max(0, n));
            }
            if (n < 0) {
                return Outcome.END_OF_INPUT;
            }
            long count = 0;
            boolean last = false;
            if (lines) {
                if (sizeLimit >= 0) {
                    long prefix = LineCounter.prefixWith(seg, n, delimiter, sizeLimit - counter.lines());
                    if (prefix >= 0) {
                        n = (int) prefix;
                        last = true;
                    }
                }
                count = LineCounter.count(seg, n, delimiter);
                if (limiter != null) {
                    limiter.refund(want - count); // the limit is in lines, as in pv
                }
            }
            if (!options.discard()) {
                buf.flip().limit(n);
                while (buf.hasRemaining()) {
                    try {
                        out.write(buf);
                    } catch (ClosedChannelException e) {
                        return Outcome.OUTPUT_CLOSED;
                    }
                }
                if (options.sync() && out instanceof FileChannel fc) {
                    fc.force(false);
                }
            }
            counter.tail(seg, n);
            counter.add(n, count);
            if (last) {
                return Outcome.SIZE_REACHED;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }
}
