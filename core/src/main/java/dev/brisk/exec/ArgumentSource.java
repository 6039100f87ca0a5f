// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The argument tuples of a run: one value per input source, combined as GNU parallel does. The
 * sources form groups; the sources of a group are linked ({@code :::+}, {@code ::::+}: the
 * first values together, then the second, ..., ending with the shortest), and the groups are
 * combined as a cartesian product, the first group varying slowest ({@code ::: a b ::: 1 2}
 * gives {@code a 1}, {@code a 2}, {@code b 1}, {@code b 2}). A group without items counts as
 * one tuple of empty values, unless every group is without items (then there is no tuple), as in
 * GNU parallel. The first group is read as it streams; the others are read whole at the start.
 *
 * <p>Not thread-safe. Closing closes every source.
 */
public final class ArgumentSource implements Closeable {
    private final List<List<ItemSource>> groups;
    private final List<List<List<byte[]>>> fixed = new ArrayList<>();
    private final int[] index;
    private ColumnRules columns = ColumnRules.NONE;
    private Runnable nulWarning;
    private boolean emptyMeansNone;
    /** With {@link #recycled}: every item each source gave, its position in them once it ended. */
    private List<List<byte[]>> seen;
    private int[] again;
    private List<byte[]> head;
    private boolean started;
    /** The first group had no items: its one tuple of empty values has been given. */
    private boolean headEnded;
    private boolean done;

    private ArgumentSource(List<List<ItemSource>> groups) {
        this.groups = groups;
        this.index = new int[groups.size()];
    }

    /** A single source, one value per tuple. */
    public static ArgumentSource of(ItemSource source) {
        return new ArgumentSource(List.of(List.of(source)));
    }

    /**
     * Groups of linked sources, combined as a product.
     *
     * @throws IllegalArgumentException if there is no group or an empty one
     */
    public static ArgumentSource of(List<List<ItemSource>> groups) {
        Objects.requireNonNull(groups, "groups");
        if (groups.isEmpty() || groups.stream().anyMatch(List::isEmpty)) {
            throw new IllegalArgumentException("every input group needs at least one source");
        }
        List<List<ItemSource>> copy = new ArrayList<>();
        for (List<ItemSource> g : groups) {
            copy.add(List.copyOf(g));
        }
        return new ArgumentSource(List.copyOf(copy));
    }

    /**
     * Sources linked as GNU parallel's {@code --link} (or {@code --xapply}) links them: one
     * tuple per item of the longest source, a shorter source starting again from its first item
     * when it ends (an empty one gives empty values). Keeps every item read.
     *
     * @throws IllegalArgumentException if there is no source
     */
    public static ArgumentSource recycled(List<ItemSource> sources) {
        ArgumentSource a = of(List.of(sources));
        a.seen = new ArrayList<>();
        for (int k = 0; k < sources.size(); k++) {
            a.seen.add(new ArrayList<>());
        }
        a.again = new int[sources.size()];
        java.util.Arrays.fill(a.again, -1);
        return a;
    }

    /**
     * This source with each tuple split into columns and trimmed by {@code rules}
     * ({@code --colsep}, {@code --trim}): a tuple's width is then its number of columns. Call
     * before the first {@link #next}.
     */
    public ArgumentSource columns(ColumnRules rules) {
        this.columns = Objects.requireNonNull(rules, "rules");
        return this;
    }

    /**
     * This source without GNU parallel's rule for a group without items: any such group means
     * no tuple at all (sources that are not input, such as {@code --pipe}'s blocks, where an
     * empty value would stand for a block that does not exist). Call before the first {@link #next}.
     */
    public ArgumentSource emptyMeansNone() {
        this.emptyMeansNone = true;
        return this;
    }

    /**
     * This source with each NUL byte of a value (but a first byte) written as the two bytes
     * {@code \0}, as GNU parallel does, since no argument can hold a NUL; {@code warning} runs
     * once for each tuple it changes. Call before the first {@link #next}.
     */
    public ArgumentSource nulReplaced(Runnable warning) {
        this.nulWarning = Objects.requireNonNull(warning, "warning");
        return this;
    }

    /** How many values each tuple holds (before {@link #columns} splits them). */
    public int width() {
        return groups.stream().mapToInt(List::size).sum();
    }

    /**
     * At most how many tuples this source gives, when every source knows how many items it has
     * (lists: {@code :::}), before the first {@link #next}; else -1. A run needs no more job
     * slots than that.
     */
    public long maxTuples() {
        if (started) {
            return -1;
        }
        long product = 1;
        boolean any = false;
        for (List<ItemSource> group : groups) {
            long least = Long.MAX_VALUE;
            for (ItemSource s : group) {
                long r = s.remaining();
                if (r < 0) {
                    return -1;
                }
                least = Math.min(least, r);
            }
            any |= least > 0;
            if (least == 0 && emptyMeansNone) {
                return 0;
            }
            least = Math.max(1, least); // a source without items gives one empty value
            product = product > Long.MAX_VALUE / least ? Long.MAX_VALUE : product * least;
        }
        return any ? product : 0;
    }

    /** The next tuple, or null at the end. */
    public List<byte[]> next() throws IOException {
        if (done) {
            return null;
        }
        if (!started) {
            started = true;
            boolean any = false;
            for (int g = 1; g < groups.size(); g++) {
                List<List<byte[]>> rows = new ArrayList<>();
                for (List<byte[]> row; (row = linked(groups.get(g))) != null; ) {
                    rows.add(row);
                }
                any |= !rows.isEmpty();
                fixed.add(rows);
            }
            head = linked(groups.get(0));
            if (head == null && !any || emptyMeansNone && (head == null || fixed.stream().anyMatch(List::isEmpty))) {
                done = true;
                return null;
            }
            // as GNU parallel: a source without items gives one empty value, unless every one is empty
            if (head == null) {
                head = empties(groups.get(0).size());
                headEnded = true;
            }
            for (int g = 1; g < groups.size(); g++) {
                if (fixed.get(g - 1).isEmpty()) {
                    fixed.get(g - 1).add(empties(groups.get(g).size()));
                }
            }
        } else {
            int g = groups.size() - 1;
            while (g >= 1) {
                if (++index[g] < fixed.get(g - 1).size()) {
                    break;
                }
                index[g] = 0;
                g--;
            }
            if (g == 0) {
                head = headEnded ? null : linked(groups.get(0));
                if (head == null) {
                    done = true;
                    return null;
                }
            }
        }
        List<byte[]> tuple = new ArrayList<>(head);
        for (int f = 1; f < groups.size(); f++) {
            tuple.addAll(fixed.get(f - 1).get(index[f]));
        }
        List<byte[]> values = columns.apply(tuple);
        return nulWarning == null ? values : withoutNul(values);
    }

    private List<byte[]> withoutNul(List<byte[]> values) {
        boolean warned = false;
        for (int k = 0; k < values.size(); k++) {
            byte[] v = values.get(k);
            int at = 1;
            while (at < v.length && v[at] != 0) {
                at++;
            }
            if (at >= v.length) {
                continue;
            }
            if (!warned) {
                warned = true;
                nulWarning.run();
            }
            java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream(v.length + 8);
            b.write(v, 0, at);
            for (int i = at; i < v.length; i++) {
                if (v[i] == 0) {
                    b.write('\\');
                    b.write('0');
                } else {
                    b.write(v[i]);
                }
            }
            values.set(k, b.toByteArray());
        }
        return values;
    }

    private static List<byte[]> empties(int width) {
        List<byte[]> row = new ArrayList<>(width);
        for (int k = 0; k < width; k++) {
            row.add(new byte[0]);
        }
        return row;
    }

    private List<byte[]> linked(List<ItemSource> group) throws IOException {
        if (seen != null) {
            return recycle(group);
        }
        List<byte[]> row = new ArrayList<>(group.size());
        for (ItemSource s : group) {
            byte[] v = s.next();
            if (v == null) {
                return null;
            }
            row.add(v);
        }
        return row;
    }

    /** The next row of {@link #recycled} sources, or null when every one has ended. */
    private List<byte[]> recycle(List<ItemSource> group) throws IOException {
        List<byte[]> row = new ArrayList<>(group.size());
        boolean fresh = false;
        for (int k = 0; k < group.size(); k++) {
            List<byte[]> before = seen.get(k);
            byte[] v = again[k] < 0 ? group.get(k).next() : null;
            if (v != null) {
                before.add(v);
                fresh = true;
            } else {
                again[k] = before.isEmpty() ? 0 : (again[k] + 1) % before.size();
                v = before.isEmpty() ? new byte[0] : before.get(again[k]);
            }
            row.add(v);
        }
        return fresh ? row : null;
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (List<ItemSource> g : groups) {
            for (ItemSource s : g) {
                try {
                    s.close();
                } catch (IOException e) {
                    first = first == null ? e : first;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
