// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Hands finished jobs on in input order ({@code -k}): a job that ends early waits until every
 * job before it has been handed on (or skipped). Thread-safe; {@code emit} is called under this
 * object's lock, one job at a time, in sequence order.
 *
 * <p>Memory stays bounded however long an early job runs: at most {@code inMemory} waiting jobs
 * are kept as objects; beyond that a job is encoded by the {@link Codec} and appended to one
 * anonymous file (made on first use in {@code tmpdir}, gone when closed or when the JVM dies),
 * and only its place in the file is kept, 12 bytes a job. A job behind a slow first job among a
 * million others costs disk, not heap.
 *
 * @param <T> what a finished job carries
 */
final class InputOrder<T> implements AutoCloseable {
    /** Turns a waiting job into bytes and back. */
    interface Codec<T> {
        /** The bytes of {@code value}, releasing what it held; null to keep it as an object. */
        byte[] encode(T value);

        T decode(byte[] bytes);
    }

    private final TreeMap<Long, T> waiting = new TreeMap<>();
    private final Consumer<T> emit;
    private final Codec<T> codec;
    private final int inMemory;
    private final Path tmpdir;
    private long next = 1;
    /** Spilled jobs: sequence {@code spillBase + i} is at {@code offsets[i] - 1} (0 = not spilled). */
    private long[] offsets = new long[0];
    private int[] lengths = new int[0];
    private long spillBase = 1;
    private int spilledCount;
    private AnonymousFile spill;
    private long spillEnd;

    /** {@code emit} receives each job in order; null values mark skipped jobs and are not passed on. */
    InputOrder(Consumer<T> emit) {
        this(emit, null, Integer.MAX_VALUE, null);
    }

    /** As above, spilling waiting jobs beyond {@code inMemory} to a file in {@code tmpdir}. */
    InputOrder(Consumer<T> emit, Codec<T> codec, int inMemory, Path tmpdir) {
        this.emit = emit;
        this.codec = codec;
        this.inMemory = inMemory;
        this.tmpdir = tmpdir;
    }

    /** Job {@code seq} will not run (a resumed run skips it). */
    synchronized void skip(long seq) {
        waiting.put(seq, null);
        drain();
    }

    /** Job {@code seq} has finished with {@code value}. */
    synchronized void complete(long seq, T value) {
        if (seq != next && value != null && waiting.size() >= inMemory && codec != null) {
            byte[] b = codec.encode(value);
            if (b != null) {
                append(seq, b);
                return;
            }
        }
        waiting.put(seq, value);
        drain();
    }

    /** At the end of a run: hands on whatever is left, in order, gaps and all (a halted run leaves gaps). */
    synchronized void drainAll() {
        int i = 0;
        while (!waiting.isEmpty() || spilledCount > 0) {
            while (spilledCount > 0 && offsets[i] == 0) {
                i++;
            }
            long w = waiting.isEmpty() ? Long.MAX_VALUE : waiting.firstKey();
            long s = spilledCount > 0 ? spillBase + i : Long.MAX_VALUE;
            if (w < s) {
                pass(waiting.pollFirstEntry().getValue());
            } else {
                pass(takeSpilled(s));
            }
        }
    }

    /** Waiting jobs held as objects (the rest are in the spill file). */
    synchronized int inMemory() {
        return waiting.size();
    }

    /** Waiting jobs held in the spill file. */
    synchronized int spilled() {
        return spilledCount;
    }

    @Override
    public synchronized void close() {
        if (spill != null) {
            spill.close();
            spill = null;
        }
    }

    private void drain() {
        while (true) {
            if (!waiting.isEmpty() && waiting.firstKey() == next) {
                pass(waiting.pollFirstEntry().getValue());
            } else if (spilledCount > 0 && isSpilled(next)) {
                pass(takeSpilled(next));
            } else {
                return;
            }
            next++;
        }
    }

    private void pass(T value) {
        if (value != null) {
            emit.accept(value);
        }
    }

    private void append(long seq, byte[] b) {
        try {
            if (spill == null) {
                spill = AnonymousFile.create(tmpdir);
            }
            ByteBuffer buf = ByteBuffer.wrap(b);
            while (buf.hasRemaining()) {
                spill.channel().write(buf, spillEnd + buf.position());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot hold a job's output for -k: " + e.getMessage(), e);
        }
        compactIndex();
        long i = seq - spillBase;
        if (i >= offsets.length) {
            int n = (int) Math.max(i + 1, Math.max(16, offsets.length * 2L));
            offsets = Arrays.copyOf(offsets, n);
            lengths = Arrays.copyOf(lengths, n);
        }
        offsets[(int) i] = spillEnd + 1;
        lengths[(int) i] = b.length;
        spillEnd += b.length;
        spilledCount++;
    }

    /** Drops the part of the index below {@code next}, once it is half of the index. */
    private void compactIndex() {
        long gone = next - spillBase;
        if (gone > 0 && gone >= offsets.length / 2) {
            int g = (int) Math.min(gone, offsets.length);
            offsets = Arrays.copyOfRange(offsets, g, Math.max(g + 16, offsets.length));
            lengths = Arrays.copyOfRange(lengths, g, Math.max(g + 16, lengths.length));
            spillBase += g;
        }
    }

    private boolean isSpilled(long seq) {
        long i = seq - spillBase;
        return i >= 0 && i < offsets.length && offsets[(int) i] != 0;
    }

    private T takeSpilled(long seq) {
        int i = (int) (seq - spillBase);
        ByteBuffer buf = ByteBuffer.allocate(lengths[i]);
        try {
            while (buf.hasRemaining()) {
                if (spill.channel().read(buf, offsets[i] - 1 + buf.position()) < 0) {
                    throw new IOException("the spill file ended early");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a held job's output back: " + e.getMessage(), e);
        }
        offsets[i] = 0;
        spilledCount--;
        return codec.decode(buf.array());
    }
}
