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
 * The rate may change while copies run ({@link #setBytesPerSecond}, pv {@code -R}); a limiter made
 * by {@link #unlimited()} grants everything at once until it is given a rate.
 *
 * <pre>{@code
 * RateLimiter limit = new RateLimiter(1 << 20);   // 1 MiB/s shared by both copies
 * MeterOptions o = MeterOptions.builder().rateLimiter(limit).build();
 * }</pre>
 */
public final class RateLimiter {
    private volatile long bytesPerSecond; // 0: no limit; written under this
    private long quantum; // guarded by this
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

    private RateLimiter(Ticker ticker) {
        this.ticker = ticker;
        this.refilledAt = ticker.nanoTime();
    }

    /** A limiter that limits nothing until {@link #setBytesPerSecond} gives it a rate. */
    public static RateLimiter unlimited() {
        return new RateLimiter(Ticker.system());
    }

    /** The limit in bytes per second, 0 when there is none. */
    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    /**
     * Changes the rate from now on (pv {@code -R PID -L RATE}); the tokens already saved are kept
     * up to the new quantum.
     */
    public synchronized void setBytesPerSecond(long rate) {
        if (rate <= 0) {
            throw new IllegalArgumentException("rate must be positive, got " + rate);
        }
        refill();
        bytesPerSecond = rate;
        quantum = Math.max(1, rate / 10);
        tokens = Math.min(tokens, quantum);
    }

    /**
     * Takes up to {@code max} bytes' worth of tokens if at least a quantum (or {@code max}, if
     * smaller) is available now; returns how many were taken, 0 if the caller must wait.
     */
    public long tryAcquire(long max) {
        if (bytesPerSecond == 0) {
            return Math.max(0, max); // unlimited: no lock on the copy's path
        }
        return take(max);
    }

    private synchronized long take(long max) {
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
        if (bytesPerSecond == 0) {
            return 0;
        }
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
    public void refund(long unused) {
        if (unused > 0 && bytesPerSecond > 0) { // unlimited: no lock on the copy's path
            giveBack(unused);
        }
    }

    private synchronized void giveBack(long unused) {
        tokens = Math.min(quantum, tokens + unused);
    }

    private void refill() {
        long now = ticker.nanoTime();
        long elapsed = now - refilledAt;
        if (bytesPerSecond == 0) {
            refilledAt = now;
        } else if (elapsed > 0) {
            tokens = Math.min(quantum, tokens + elapsed * (double) bytesPerSecond / 1e9);
            refilledAt = now;
        }
    }
}
