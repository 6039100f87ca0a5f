// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * {@code --ssh-delay}: the logins of a run start at least the delay apart, whichever threads
 * start them. Thread-safe: the threads that log in share one.
 */
public final class LoginSpacing {
    private final long delay;
    private long last;

    /** Logins at least {@code delay} apart (zero: no waiting). */
    public LoginSpacing(Duration delay) {
        this.delay = delay.toNanos();
    }

    /** Blocks the calling thread until its login may start, and takes that turn. */
    public void await() throws InterruptedException {
        if (delay == 0) {
            return;
        }
        long wait;
        synchronized (this) {
            long now = System.nanoTime();
            long next = last == 0 ? now : Math.max(now, last + delay);
            last = next;
            wait = next - now;
        }
        TimeUnit.NANOSECONDS.sleep(wait);
    }
}
