// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import dev.brisk.internal.posix.Caller;
import dev.brisk.meter.LiveSettings;
import dev.brisk.meter.Progress;
import dev.brisk.meter.ProgressListener;
import dev.brisk.meter.ProgressTracker;
import dev.brisk.meter.Ticker;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Samples a {@link Counter} once per interval on its own daemon thread and hands snapshots to the
 * listener, so the display keeps moving while the copy blocks in a system call. Problems from the
 * copying thread pass through the same lock, so listener calls never overlap.
 *
 * <p>When the output is a pipe, the bytes still unread in it (FIONREAD) are not counted as
 * delivered. {@link #finish} stops the thread and sends the final snapshot from the caller.
 *
 * <p>The thread starts when the first sample is due (one interval after {@link #start}), from
 * one timer thread shared by every reporter: a copy that ends sooner (a small file) never pays
 * for a thread, which costs as much as the whole copy in a warm server's call.
 */
public final class Reporter {
    private final ProgressTracker tracker;
    private final Counter counter;
    private final ProgressListener listener;
    private final Ticker ticker;
    private final long intervalNanos;
    private final boolean countLines;
    private final boolean waitFirstByte;
    private final int pipeFd;
    private final LiveSettings live;
    private final Object lock = new Object();
    private volatile boolean stopped;
    /** The sampling thread once started, and its start while it is pending; guarded by {@code this}. */
    private Thread thread;
    private ScheduledFuture<?> pending;

    /** The one timer that starts the reporters' threads when their first samples are due. */
    private static final class Starter {
        static final ScheduledThreadPoolExecutor TIMER = timer();

        private static ScheduledThreadPoolExecutor timer() {
            ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1,
                    Thread.ofPlatform().daemon().name("brisk-meter-start").factory());
            t.setRemoveOnCancelPolicy(true);
            return t;
        }
    }

    /**
     * @param pipeFd the output descriptor when it is a pipe (for FIONREAD), else -1
     * @param live   size and interval changed while the copy runs, or null
     */
    public Reporter(ProgressTracker tracker, Counter counter, ProgressListener listener, Ticker ticker,
            long intervalNanos, boolean countLines, boolean waitFirstByte, int pipeFd, LiveSettings live) {
        this.tracker = tracker;
        this.counter = counter;
        this.listener = listener;
        this.ticker = ticker;
        this.intervalNanos = intervalNanos;
        this.countLines = countLines;
        this.waitFirstByte = waitFirstByte;
        this.pipeFd = pipeFd;
        this.live = live;
    }

    /** Starts the clock (unless waiting for the first byte); the sampling thread starts when its first sample is due. */
    public void start() {
        if (!waitFirstByte) {
            tracker.start(ticker.nanoTime());
        }
        long first = System.nanoTime() + intervalNanos;
        Caller caller = Caller.current(); // the thread draws on this call's descriptors
        synchronized (this) {
            pending = Starter.TIMER.schedule(() -> begin(first, caller), intervalNanos, TimeUnit.NANOSECONDS);
        }
    }

    private synchronized void begin(long first, Caller caller) {
        if (stopped) {
            return;
        }
        thread = Thread.ofPlatform().daemon().name("brisk-meter-progress").start(() -> {
            Caller.set(caller);
            loop(first);
        });
    }

    /** Reports a problem to the listener, serialised with the snapshots. */
    public void problem(String message) {
        synchronized (lock) {
            listener.onProblem(message);
        }
    }

    /** Stops sampling and delivers the final snapshot; returns it. */
    public Progress finish() {
        stopped = true;
        Thread t;
        synchronized (this) {
            if (pending != null) {
                pending.cancel(false);
            }
            t = thread;
        }
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        startAtFirstByte();
        retune();
        long bytes = counter.bytes();
        Progress last = tracker.finish(bytes, countLines ? counter.lines() : bytes, ticker.nanoTime(),
                counter.wasSpliced(), counter.tail(), counter.previousLine()).withBufferPercent(counter.bufferPercent());
        synchronized (lock) {
            listener.onProgress(last);
        }
        return last;
    }

    private void loop(long first) {
        long next = first;
        while (!stopped) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
                continue;
            }
            next += live != null && live.intervalNanos() > 0 ? live.intervalNanos() : intervalNanos;
            retune();
            if (waitFirstByte && !startAtFirstByte()) {
                continue;
            }
            long bytes = counter.bytes();
            if (pipeFd >= 0 && !countLines) {
                bytes = Math.max(0, bytes - Sys.unread(pipeFd));
            }
            Progress p = tracker.update(bytes, countLines ? counter.lines() : bytes, ticker.nanoTime(),
                    counter.wasSpliced(), counter.tail(), counter.previousLine()).withBufferPercent(counter.bufferPercent());
            synchronized (lock) {
                if (!stopped) {
                    listener.onProgress(p);
                }
            }
        }
    }

    private void retune() {
        if (live != null && live.size() > 0 && live.size() != tracker.size()) {
            tracker.resize(live.size());
        }
    }

    private boolean startAtFirstByte() {
        long first = counter.firstByteAt();
        if (first != 0) {
            tracker.start(first);
        }
        return tracker.started();
    }
}
