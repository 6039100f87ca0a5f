// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.util.concurrent.locks.LockSupport;

/**
 * A token bucket that limits one or several copies to a shared number of bytes per second.
 *
 * <p>Tokens accrue continuously at the rate and are granted in quanta of a tenth of a second's
 * worth (at least one byte), so a copy moves data in steady chunks rather than byte by byte; the
 * bucket holds at most one quantum, so an idle copy cannot burst later. It starts empty, so a
 * copy of {@code N} bytes takes {@code N / rate} seconds from its first request.
 *
 * <p>Thread-safe: several copies may share one limiter and together stay under its rate.
 * {@link #acquire} blocks (parks) the calling thread; {@link #tryAcquire} and
 * {@link #nanosToWait} never block and are what tests drive with a fake {@link Ticker}.
 *
 * <pre>{@code
 * RateLimiter limit = new RateLimiter(1 << 20);   // 1 MiB/s shared by both copies
 * MeterOptions o = MeterOptions.builder().rateLimiter(limit).build();
 * }</pre>
 */
public final class RateLimiter {
    private final long bytesPerSecond;
    private final long quantum;
    private final Ticker ticker;
    private double tokens; // guarded by this
    private long refilledAt; // guarded by this

    /** A limiter at {@code bytesPerSecond} on the system clock. */
    public RateLimiter(long bytesPerSecond) {
        this(bytesPerSecond, Ticker.system());
    }

    /** A limiter at {@code bytesPerSecond} on {@code ticker}; the rate must be positive. */
    public RateLimiter(long bytesPerSecond, Ticker ticker) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("rate must be positive, got " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
        this.quantum = Math.max(1, bytesPerSecond / 10);
        this.ticker = ticker;
        this.refilledAt = ticker.nanoTime();
    }

    /** The limit in bytes per second. */
    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    /**
     * Takes up to {@code max} bytes' worth of tokens if at least a quantum (or {@code max}, if
     * smaller) is available now; returns how many were taken, 0 if the caller must wait.
     */
    public synchronized long tryAcquire(long max) {
        if (max <= 0) {
            return 0;
        }
        refill();
        long need = Math.min(max, quantum);
        if (tokens < need) {
            return 0;
        }
        long granted = Math.min(max, (long) tokens);
        tokens -= granted;
        return granted;
    }

    /** How long until {@link #tryAcquire}({@code max}) would grant something; 0 if now. */
    public synchronized long nanosToWait(long max) {
        refill();
        double missing = Math.min(Math.max(max, 1), quantum) - tokens;
        return missing <= 0 ? 0 : (long) Math.ceil(missing * 1e9 / bytesPerSecond);
    }

    /**
     * Blocks until tokens are available and takes up to {@code max} bytes' worth.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public long acquire(long max) throws InterruptedException {
        while (true) {
            long got = tryAcquire(max);
            if (got > 0 || max <= 0) {
                return got;
            }
            LockSupport.parkNanos(this, Math.max(1000, nanosToWait(max)));
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    /** Returns tokens a caller took but did not use (a short transfer). */
    public synchronized void refund(long unused) {
        if (unused > 0) {
            tokens = Math.min(quantum, tokens + unused);
        }
    }

    private void refill() {
        long now = ticker.nanoTime();
        long elapsed = now - refilledAt;
        if (elapsed > 0) {
            tokens = Math.min(quantum, tokens + elapsed * (double) bytesPerSecond / 1e9);
            refilledAt = now;
        }
    }
}
