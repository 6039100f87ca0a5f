// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * {@code -k} with {@code --line-buffer}, as GNU parallel's: the oldest job whose output is not
 * all out (the live one) prints its lines as they come; a later job's lines are held until it is
 * the oldest, then printed (its stdout, then its stderr), and from then on its lines come as they come. The jobs' order is
 * {@link InputOrder}'s: {@link #advance} is called as each job's turn ends. Every method is
 * called under the run's output lock.
 */
final class LineOrder {
    private final OutputStream out;
    private long live = 1;
    /** Held lines by job: each chunk with the stream it goes to, in the order they came. */
    private final TreeMap<Long, List<Chunk>> held = new TreeMap<>();

    private record Chunk(OutputStream target, byte[] bytes) {}

    /** {@code out}: the run's standard output, whose held lines come before the other stream's. */
    LineOrder(OutputStream out) {
        this.out = out;
    }

    /** Writes a job's whole lines: at once when it is the live job, else held. */
    void write(long seq, OutputStream target, byte[] b, int off, int len) throws IOException {
        if (seq == live) {
            target.write(b, off, len);
            target.flush();
            return;
        }
        held.computeIfAbsent(seq, s -> new ArrayList<>()).add(new Chunk(target, java.util.Arrays.copyOfRange(b, off, off + len)));
    }

    /** Job {@code seq}'s turn has ended: what the jobs before {@code seq + 1} held is printed, and it is live. */
    void advance(long seq) throws IOException {
        live = seq + 1;
        flushBelow(live + 1);
    }

    /** The end of the run: everything held, in the jobs' order. */
    void flushAll() throws IOException {
        flushBelow(Long.MAX_VALUE);
    }

    private void flushBelow(long end) throws IOException {
        while (!held.isEmpty() && held.firstKey() < end) {
            List<Chunk> chunks = held.pollFirstEntry().getValue();
            // as GNU parallel's: a held job's stdout, then its stderr
            for (boolean stdout : new boolean[] {true, false}) {
                for (Chunk c : chunks) {
                    if ((c.target() == out) == stdout) {
                        c.target().write(c.bytes());
                        c.target().flush();
                    }
                }
            }
        }
    }
}
