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
        return new DelimitedSource(in, delimiter);
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
