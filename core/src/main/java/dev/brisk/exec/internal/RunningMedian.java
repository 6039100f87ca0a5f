// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.util.Collections;
import java.util.PriorityQueue;

/** The median of the values added so far (two heaps). Thread-safe (synchronized). */
public final class RunningMedian {
    private final PriorityQueue<Long> low = new PriorityQueue<>(Collections.reverseOrder());
    private final PriorityQueue<Long> high = new PriorityQueue<>();

    public synchronized void add(long v) {
        if (low.isEmpty() || v <= low.peek()) {
            low.add(v);
        } else {
            high.add(v);
        }
        if (low.size() > high.size() + 1) {
            high.add(low.poll());
        } else if (high.size() > low.size()) {
            low.add(high.poll());
        }
    }

    public synchronized int count() {
        return low.size() + high.size();
    }

    /** The median, or 0 when empty. */
    public synchronized long median() {
        if (low.isEmpty()) {
            return 0;
        }
        return low.size() > high.size() ? low.peek() : (low.peek() + high.peek()) / 2;
    }
}
