// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.ArgumentSource;
import dev.brisk.exec.ItemSource;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code brisk par --pipe} with input sources ({@code -a FILE}, {@code :::}, {@code ::::}), as
 * GNU parallel 20221122 runs it: the blocks still come from stdin, and the job of each block gets
 * the next N tuples of the sources as its arguments ({@code -N N}, {@code -n N}; default 1;
 * {@code {}}, {@code {1}}...), fewer where they end, one tuple of empty values once they have
 * ended; tuples left when the blocks end are not used.
 *
 * <p>A job's tuples reach {@link JobFeed} as consecutive rows of one linked group, its block
 * first in each: {@link #MORE} in all but the last, which holds the block, so the feed knows a
 * job's end without reading the next block; once the sources have ended, a job's one row has
 * {@link #ENDED} values, and the job one empty argument, as GNU's.
 */
public final class PipeArguments {
    /** A row's block value when the job's next row holds more of its arguments (compared by identity). */
    static final byte[] MORE = new byte[0];
    /** The values of a job's row once the sources have ended: the job has one empty argument (compared by identity). */
    static final byte[] ENDED = new byte[0];

    private PipeArguments() {}

    /**
     * One linked group: a block column, then a column per value of the tuples of
     * {@code argGroups} (combined as a product, as without {@code --pipe}), up to
     * {@code perJob} rows for each block.
     *
     * @throws IllegalArgumentException if {@code perJob} is less than 1
     */
    public static List<List<ItemSource>> withBlocks(ItemSource blocks, List<List<ItemSource>> argGroups, int perJob) {
        if (perJob < 1) {
            throw new IllegalArgumentException("perJob must be at least 1, got " + perJob);
        }
        ArgumentSource tuples = ArgumentSource.of(argGroups);
        int width = tuples.width();
        ArrayDeque<List<byte[]>> job = new ArrayDeque<>();
        AtomicReference<List<byte[]>> current = new AtomicReference<>(List.of());
        List<ItemSource> group = new ArrayList<>();
        group.add(new ItemSource() {
            private byte[] block;

            @Override
            public byte[] next() throws IOException {
                if (job.isEmpty()) {
                    block = blocks.next();
                    if (block == null) {
                        return null;
                    }
                    for (List<byte[]> t; job.size() < perJob && (t = tuples.next()) != null; ) {
                        job.add(t);
                    }
                    if (job.isEmpty()) {
                        job.add(List.of());
                    }
                }
                current.set(job.poll());
                return job.isEmpty() ? block : MORE;
            }

            @Override
            public void close() throws IOException {
                try (tuples) {
                    blocks.close();
                }
            }
        });
        for (int k = 0; k < width; k++) {
            int column = k;
            group.add(new ItemSource() {
                @Override
                public byte[] next() {
                    List<byte[]> t = current.get();
                    return column < t.size() ? t.get(column) : ENDED;
                }
            });
        }
        return List.of(group);
    }
}
