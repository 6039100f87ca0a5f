// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.exec.ArgumentSource;
import dev.brisk.exec.ItemSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code brisk par --pipe} with input sources ({@code -a FILE}, {@code :::}, {@code ::::}), as
 * GNU parallel 20221122 runs it: the blocks still come from stdin, and the job of block K gets
 * the K-th tuple of the sources as its arguments ({@code {}}, {@code {1}}...), empty values once
 * they have ended; tuples left when the blocks end are not used.
 */
final class ParPipeArgs {
    private ParPipeArgs() {}

    /**
     * One linked group: {@code blocks} first, then a column per value of the tuples of
     * {@code argGroups} (combined as a product, as without {@code --pipe}).
     */
    static List<List<ItemSource>> withBlocks(ItemSource blocks, List<List<ItemSource>> argGroups) {
        ArgumentSource tuples = ArgumentSource.of(argGroups);
        int width = tuples.width();
        AtomicReference<List<byte[]>> current = new AtomicReference<>(List.of());
        List<ItemSource> group = new ArrayList<>();
        group.add(blocks);
        for (int k = 0; k < width; k++) {
            int column = k;
            group.add(new ItemSource() {
                @Override
                public byte[] next() throws IOException {
                    if (column == 0) {
                        List<byte[]> t = tuples.next();
                        current.set(t == null ? List.of() : t);
                    }
                    List<byte[]> t = current.get();
                    return column < t.size() ? t.get(column) : new byte[0];
                }

                @Override
                public void close() throws IOException {
                    if (column == 0) {
                        tuples.close();
                    }
                }
            });
        }
        return List.of(group);
    }
}
