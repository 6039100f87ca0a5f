// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * One input source: a stream of items (arguments), each a byte array. Items come from
 * delimited input ({@link #delimited}), a list ({@link #of}), or a tree ({@link TreeItems}).
 *
 * <p>Not thread-safe: one reader. {@link #next} blocks while the underlying input does. The
 * source owns what it reads from: {@link #close} closes it.
 */
public interface ItemSource extends Closeable {
    /** The next item, or null at the end. */
    byte[] next() throws IOException;

    @Override
    default void close() throws IOException {}

    /** How many items are left when the source knows without reading (a list), else -1. */
    default long remaining() {
        return -1;
    }

    /** Items from a list (not copied). */
    static ItemSource of(List<byte[]> items) {
        Objects.requireNonNull(items, "items");
        Iterator<byte[]> it = items.iterator();
        return new ItemSource() {
            private long taken;

            @Override
            public byte[] next() {
                if (!it.hasNext()) {
                    return null;
                }
                taken++;
                return it.next();
            }

            @Override
            public long remaining() {
                return Math.max(0, items.size() - taken);
            }
        };
    }

    /**
     * Items of {@code in} separated by {@code delimiter} (a final delimiter ends the last item
     * and makes no empty item). Any item length works, up to the array limit (2 GiB).
     */
    static ItemSource delimited(InputStream in, byte delimiter) {
        return new DelimitedSource(in, new byte[] {delimiter});
    }

    /**
     * Items of {@code in} separated by {@code delimiter}, a string of one or more bytes (GNU
     * parallel's {@code -d '\n\n'}), as {@link #delimited(InputStream, byte)}.
     *
     * @throws IllegalArgumentException if {@code delimiter} is empty
     */
    static ItemSource delimited(InputStream in, byte[] delimiter) {
        return new DelimitedSource(in, delimiter);
    }

    /**
     * The items of {@code values} each cut at {@code delimiter} (every piece an item, empty ones
     * too: {@code "a:"} gives {@code a} and an empty item), as GNU parallel reads its {@code :::}
     * values: written to a file, each followed by the delimiter, and read back.
     *
     * @throws IllegalArgumentException if {@code delimiter} is empty
     */
    static ItemSource split(List<byte[]> values, byte[] delimiter) {
        if (delimiter.length == 0) {
            throw new IllegalArgumentException("the delimiter is empty");
        }
        List<byte[]> items = new ArrayList<>(values.size());
        for (byte[] v : values) {
            int from = 0;
            for (int at; (at = DelimitedSource.find(v, from, v.length, delimiter)) >= 0; from = at + delimiter.length) {
                items.add(java.util.Arrays.copyOfRange(v, from, at));
            }
            items.add(from == 0 ? v : java.util.Arrays.copyOfRange(v, from, v.length));
        }
        return of(items);
    }

    /**
     * The items of {@code sources}, one source's after another's (GNU parallel's
     * {@code --pipepart} over several files: every part of the first, then of the next). The
     * source owns {@code sources}: {@link #close} closes them all.
     */
    static ItemSource concat(List<ItemSource> sources) {
        List<ItemSource> all = List.copyOf(sources);
        return new ItemSource() {
            private int at;

            @Override
            public byte[] next() throws IOException {
                for (; at < all.size(); at++) {
                    byte[] v = all.get(at).next();
                    if (v != null) {
                        return v;
                    }
                }
                return null;
            }

            @Override
            public long remaining() {
                long sum = 0;
                for (int k = at; k < all.size(); k++) {
                    long r = all.get(k).remaining();
                    if (r < 0) {
                        return -1;
                    }
                    sum += r;
                }
                return sum;
            }

            @Override
            public void close() throws IOException {
                IOException first = null;
                for (ItemSource s : all) {
                    try {
                        s.close();
                    } catch (IOException e) {
                        if (first == null) {
                            first = e;
                        } else {
                            first.addSuppressed(e);
                        }
                    }
                }
                if (first != null) {
                    throw first;
                }
            }
        };
    }

    /** Reads every remaining item. */
    default List<byte[]> readAll() throws IOException {
        List<byte[]> all = new ArrayList<>();
        for (byte[] v; (v = next()) != null; ) {
            all.add(v);
        }
        return all;
    }
}
