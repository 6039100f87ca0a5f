// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.JobControls;
import dev.brisk.exec.JobOptions;
import dev.brisk.internal.posix.Caller;
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

    private final Runnable stopYoungest;
    private long[] swapSample;
    private long swapSampledAt;
    private boolean swapping;

    /**
     * {@code stopped}: true once the run takes no more jobs (the wait for resources then ends);
     * {@code stopYoungest}: kills the youngest running job ({@code --limit}'s status 2).
     */
    Pacing(JobOptions options, BooleanSupplier stopped, Runnable stopYoungest) {
        this.options = options;
        this.stopped = stopped;
        this.stopYoungest = stopYoungest;
        this.environment = options.controls().limit() == null ? null : Caller.current().environment();
        this.directory = options.controls().limit() == null ? null : Caller.workingDirectory();
    }

    /** The caller's environment and directory, for {@code --limit} (also run on a timer's thread, which has neither). */
    private final java.util.Map<String, String> environment;
    private final String directory;

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

    /**
     * {@code --load}, {@code --memfree}, {@code --memsuspend}, {@code --noswap} and
     * {@code --limit}: wait (checking every 100 ms) until the machine has room.
     */
    private void waitForResources() {
        JobControls c = options.controls();
        if (options.maxLoad() <= 0 && options.memFree() <= 0 && !c.gatesStarts()) {
            return;
        }
        long memory = options.memFree() + c.memSuspend(); // as GNU parallel's memlimit
        while (!stopped.getAsBoolean()) {
            boolean loadOk = options.maxLoad() <= 0 || SystemLoad.loadNow() < options.maxLoad();
            boolean memOk = memory <= 0 || SystemLoad.availableMemory() >= memory;
            if (loadOk && memOk && !(c.noSwap() && swapping()) && (c.limit() == null || limit(c.limit()) == 0)) {
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

    /**
     * {@code --limit CMD}: runs {@code CMD} with {@code sh -c} in the caller's directory and
     * environment ({@code SSHLOGIN=:}, as GNU parallel sets it) and returns its status: 0 lets a
     * job start, 2 (checked while jobs run, {@link #checkLimit}) kills the youngest, any other
     * waits. GNU parallel's {@code mem SIZE} and {@code load N} are its scripts of those names.
     */
    int limit(String command) {
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", LimitScripts.expand(command))
                .directory(new java.io.File(directory))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        pb.environment().putAll(environment);
        pb.environment().put("SSHLOGIN", ":");
        try {
            return pb.start().waitFor();
        } catch (java.io.IOException e) {
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** {@code --limit} while jobs run: a status of 2 kills the youngest running job, as GNU parallel's wait loop does. */
    void checkLimit() {
        String command = options.controls().limit();
        if (command != null && !stopped.getAsBoolean() && limit(command) == 2) {
            stopYoungest.run();
        }
    }

    /**
     * {@code --noswap}: whether pages were both swapped in and out ({@code /proc/vmstat}'s
     * {@code pswpin}, {@code pswpout}) over the last second, sampled at most once a second.
     */
    private synchronized boolean swapping() {
        long now = System.nanoTime();
        if (swapSample != null && now - swapSampledAt < 1_000_000_000L) {
            return swapping;
        }
        long[] sample = SystemLoad.swapCounts();
        swapping = swapSample != null && sample[0] > swapSample[0] && sample[1] > swapSample[1];
        swapSample = sample;
        swapSampledAt = now;
        return swapping;
    }
}
