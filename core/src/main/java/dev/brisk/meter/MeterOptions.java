// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.time.Duration;

/**
 * How a {@link Meter} copies and counts; immutable and validated on construction. Build one with
 * {@link #builder()}; every setting has pv's default.
 *
 * @param size           expected total (bytes, or lines in line mode); -1 to find it from the
 *                       inputs when they are regular files (never in line mode)
 * @param counting       what to count: bytes, newline-terminated or NUL-terminated lines
 * @param stopAtSize     stop once {@code size} has been copied (pv {@code -S})
 * @param rateLimiter    the limiter to obey, or null for none (pv {@code -L}); its tokens are
 *                       lines when counting lines, as pv's limit is
 * @param bufferSize     read/write buffer in bytes, 0 for the default (pv {@code -B})
 * @param transfer       {@link Transfer#AUTO} picks splice/copy_file_range/sendfile;
 *                       {@link Transfer#READ_WRITE} always copies through the buffer (pv {@code -C})
 * @param skipErrors     0: a read error ends that input; 1: skip the bad block, writing zeros and
 *                       reporting each skip; 2: the same, reporting once per input (pv {@code -E})
 * @param sync           fdatasync the output after every write (pv {@code -Y})
 * @param discard        read and count but write nothing (pv {@code -X})
 * @param interval       time between progress snapshots (pv {@code -i})
 * @param averageWindow  window of the average rate and ETA (pv {@code -m})
 * @param waitFirstByte  start the clock and the snapshots at the first byte (pv {@code -W})
 * @param tailLength     keep the last this many bytes written for {@link Progress#tail()} (pv {@code -A})
 * @param ticker         the clock
 * @param sparse         seek over all-zero blocks of a regular output file instead of writing
 *                       them, so the copy stays sparse (pv {@code -O})
 * @param directIo       open inputs and the output with {@code O_DIRECT} (pv {@code -K})
 * @param skipBlock      with {@code skipErrors}, the block a read error skips to the end of;
 *                       0 for pv's default of 512 bytes (pv {@code -Z})
 * @param previousLine   keep the start of the last complete line written for
 *                       {@link Progress#previousLine()} (pv's {@code %L})
 */
public record MeterOptions(long size, Counting counting, boolean stopAtSize, RateLimiter rateLimiter,
        int bufferSize, Transfer transfer, int skipErrors, boolean sync, boolean discard,
        Duration interval, Duration averageWindow, boolean waitFirstByte, int tailLength, Ticker ticker,
        boolean sparse, boolean directIo, long skipBlock, boolean previousLine) {

    /** What the meter counts. */
    public enum Counting {
        BYTES, LINES, NUL_LINES;

        /** The line terminator, or -1 when counting bytes. */
        public int delimiter() {
            return switch (this) {
                case BYTES -> -1;
                case LINES -> '\n';
                case NUL_LINES -> 0;
            };
        }
    }

    /** How data moves. */
    public enum Transfer {
        /** Zero-copy system calls where the descriptor types allow, read/write otherwise. */
        AUTO,
        /** Always read into the meter's buffer and write from it. */
        READ_WRITE
    }

    public MeterOptions {
        if (size < -1) {
            throw new IllegalArgumentException("size must be -1 (unknown) or at least 0, got " + size);
        }
        if (counting == null || transfer == null || interval == null || averageWindow == null || ticker == null) {
            throw new IllegalArgumentException("counting, transfer, interval, averageWindow and ticker are required");
        }
        if (bufferSize < 0 || bufferSize > (1 << 30)) {
            throw new IllegalArgumentException("buffer size must be between 0 (default) and 1 GiB, got " + bufferSize);
        }
        if (skipErrors < 0 || skipErrors > 2) {
            throw new IllegalArgumentException("skipErrors must be 0, 1 or 2, got " + skipErrors);
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive, got " + interval);
        }
        if (averageWindow.isNegative()) {
            throw new IllegalArgumentException("average window must not be negative, got " + averageWindow);
        }
        if (skipBlock < 0) {
            throw new IllegalArgumentException("skip block must not be negative, got " + skipBlock);
        }
        if (tailLength < 0 || tailLength > 256) {
            throw new IllegalArgumentException("tail length must be between 0 and 256, got " + tailLength);
        }
    }

    /** A builder with pv's defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder().size(size).counting(counting).stopAtSize(stopAtSize).rateLimiter(rateLimiter)
                .bufferSize(bufferSize).transfer(transfer).skipErrors(skipErrors).sync(sync).discard(discard)
                .interval(interval).averageWindow(averageWindow).waitFirstByte(waitFirstByte).tailLength(tailLength)
                .ticker(ticker).sparse(sparse).directIo(directIo).skipBlock(skipBlock).previousLine(previousLine);
    }

    /** Whether the copy must pass data through the buffer (lines, tail, skipping, discarding). */
    public boolean needsBuffer() {
        return transfer == Transfer.READ_WRITE || counting != Counting.BYTES || tailLength > 0
                || skipErrors > 0 || discard || sparse || directIo || previousLine;
    }

    /** Builds {@link MeterOptions}; not thread-safe. */
    public static final class Builder {
        private long size = -1;
        private Counting counting = Counting.BYTES;
        private boolean stopAtSize;
        private RateLimiter rateLimiter;
        private int bufferSize;
        private Transfer transfer = Transfer.AUTO;
        private int skipErrors;
        private boolean sync;
        private boolean discard;
        private Duration interval = Duration.ofSeconds(1);
        private Duration averageWindow = Duration.ofSeconds(30);
        private boolean waitFirstByte;
        private int tailLength;
        private Ticker ticker = Ticker.system();
        private boolean sparse;
        private boolean directIo;
        private long skipBlock;
        private boolean previousLine;

        private Builder() {}

        public Builder size(long v) { size = v; return this; }
        public Builder counting(Counting v) { counting = v; return this; }
        public Builder stopAtSize(boolean v) { stopAtSize = v; return this; }
        public Builder rateLimiter(RateLimiter v) { rateLimiter = v; return this; }
        public Builder bufferSize(int v) { bufferSize = v; return this; }
        public Builder transfer(Transfer v) { transfer = v; return this; }
        public Builder skipErrors(int v) { skipErrors = v; return this; }
        public Builder sync(boolean v) { sync = v; return this; }
        public Builder discard(boolean v) { discard = v; return this; }
        public Builder interval(Duration v) { interval = v; return this; }
        public Builder averageWindow(Duration v) { averageWindow = v; return this; }
        public Builder waitFirstByte(boolean v) { waitFirstByte = v; return this; }
        public Builder tailLength(int v) { tailLength = v; return this; }
        public Builder ticker(Ticker v) { ticker = v; return this; }
        public Builder sparse(boolean v) { sparse = v; return this; }
        public Builder directIo(boolean v) { directIo = v; return this; }
        public Builder skipBlock(long v) { skipBlock = v; return this; }
        public Builder previousLine(boolean v) { previousLine = v; return this; }

        public MeterOptions build() {
            return new MeterOptions(size, counting, stopAtSize, rateLimiter, bufferSize, transfer, skipErrors,
                    sync, discard, interval, averageWindow, waitFirstByte, tailLength, ticker,
                    sparse, directIo, skipBlock, previousLine);
        }
    }
}
