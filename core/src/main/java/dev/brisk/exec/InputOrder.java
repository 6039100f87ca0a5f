// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Hands finished jobs on in input order ({@code -k}): a job that ends early waits until every
 * job before it has been handed on (or skipped). Thread-safe; {@code emit} is called under this
 * object's lock, one job at a time, in sequence order.
 *
 * @param <T> what a finished job carries
 */
final class InputOrder<T> {
    private final TreeMap<Long, T> waiting = new TreeMap<>();
    private final Consumer<T> emit;
    private long next = 1;

    /** {@code emit} receives each job in order; null values mark skipped jobs and are not passed on. */
    InputOrder(Consumer<T> emit) {
        this.emit = emit;
    }

    /** Job {@code seq} will not run (a resumed run skips it). */
    synchronized void skip(long seq) {
        waiting.put(seq, null);
        drain();
    }

    /** Job {@code seq} has finished with {@code value}. */
    synchronized void complete(long seq, T value) {
        waiting.put(seq, value);
        drain();
    }

    /** At the end of a run: hands on whatever is left, gaps and all (a halted run leaves gaps). */
    synchronized void drainAll() {
        while (!waiting.isEmpty()) {
            pass(waiting.pollFirstEntry().getValue());
        }
    }

    private void drain() {
        while (!waiting.isEmpty() && waiting.firstKey() == next) {
            pass(waiting.pollFirstEntry().getValue());
            next++;
        }
    }

    private void pass(T value) {
        if (value != null) {
            emit.accept(value);
        }
    }
}
