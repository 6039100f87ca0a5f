// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.JobOptions;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * When the next job may start: not before {@code --delay} after the last start, and not while
 * the machine is above {@code --load} or below {@code --memfree} (checked every 100 ms until the
 * run stops). Thread-safe: the slots' threads share one.
 */
final class Pacing {
    private final JobOptions options;
    private final BooleanSupplier stopped;
    private long lastStart;

    /** {@code stopped}: true once the run takes no more jobs (the wait for resources then ends). */
    Pacing(JobOptions options, BooleanSupplier stopped) {
        this.options = options;
        this.stopped = stopped;
    }

    /**
     * Blocks the calling slot until its next job may start; false when the run stopped taking
     * jobs meanwhile ({@code --halt soon} during a {@code --delay}): as GNU parallel, which
     * checks before each start, that job is not started.
     */
    boolean awaitTurn() {
        waitForResources();
        long end = System.nanoTime() + reserve(System.nanoTime());
        for (long left = end - System.nanoTime(); left > 0 && !stopped.getAsBoolean(); left = end - System.nanoTime()) {
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return !stopped.getAsBoolean();
    }

    /**
     * Takes the next start slot at or after {@code now} ({@link System#nanoTime}) and returns how
     * long to wait for it: {@code --delay} apart from the previous one, 0 without a delay.
     */
    synchronized long reserve(long now) {
        if (options.delay().isZero()) {
            return 0;
        }
        long next = lastStart == 0 ? now : Math.max(now, lastStart + options.delay().toNanos());
        lastStart = next;
        return next - now;
    }

    /** {@code --load} and {@code --memfree}: wait (checking every 100 ms) until the machine has room. */
    private void waitForResources() {
        if (options.maxLoad() <= 0 && options.memFree() <= 0) {
            return;
        }
        while (!stopped.getAsBoolean()) {
            boolean loadOk = options.maxLoad() <= 0 || SystemLoad.loadAverage() < options.maxLoad();
            boolean memOk = options.memFree() <= 0 || SystemLoad.availableMemory() >= options.memFree();
            if (loadOk && memOk) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
