// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import java.util.Arrays;

/**
 * A directory's place in a {@link DirWalker}'s stack: where its path ends in the walker's path
 * buffer, its depth, and the entries still to handle, packed into one byte array. Its
 * descriptor is the {@link DescriptorCache}'s at the same level. Confined to its walker's thread.
 */
final class Frame {
    /** gnulib fts's rule, which GNU find's order follows: a batch of more entries than this is sorted by inode number. */
    static final int INODE_SORT_THRESHOLD = 10_000, READDIR_BATCH = 100_000;

    int pathLen;
    int nameOff;
    int depth;
    boolean read;
    /**
     * Pending subdirectories: per name, its length (2 bytes) and its bytes. In a sequential
     * walk, every pending entry instead: its length (2 bytes), its d_type (1 byte), its bytes.
     */
    byte[] subs = new byte[256];
    int subsLen, subsPos;
    /**
     * In a parallel walk: descriptors opened ahead for the next pending subdirectories, in their
     * order, from {@code aheadPos} to {@code aheadLen} (-1: open it the usual way).
     */
    int[] ahead = new int[0];
    int aheadPos, aheadLen;
    /** In a sequential walk: the entries read, and each one's inode number (for fts's inode sort). */
    int count;
    private long[] inos = new long[16];

    void reset(int pathLen, int nameOff, int depth) {
        this.pathLen = pathLen;
        this.nameOff = nameOff;
        this.depth = depth;
        this.read = false;
        this.subsLen = 0;
        this.subsPos = 0;
        this.count = 0;
        this.aheadPos = 0;
        this.aheadLen = 0;
    }

    /** The length of the next pending name. */
    int nextLength() {
        return lengthAt(subsPos);
    }

    /** The length of the pending name whose record starts at {@code subs[pos]}. */
    int lengthAt(int pos) {
        return ((subs[pos] & 0xff) << 8) | (subs[pos + 1] & 0xff);
    }

    /** Records the subdirectory named {@code path[off, off+len)} to enter (parallel walk). */
    void addSub(byte[] path, int off, int len) {
        if (subsLen + 2 + len > subs.length) {
            subs = Arrays.copyOf(subs, Math.max(subs.length * 2, subsLen + 2 + len));
        }
        subs[subsLen] = (byte) (len >>> 8);
        subs[subsLen + 1] = (byte) len;
        System.arraycopy(path, off, subs, subsLen + 2, len);
        subsLen += 2 + len;
    }

    /** Keeps the entry of the dirent record at {@code d[at]}, named {@code d[nameAt, nameAt+len)} (sequential walk). */
    void keep(byte[] d, int at, int nameAt, int len) {
        if (subsLen + 3 + len > subs.length) {
            subs = Arrays.copyOf(subs, Math.max(subs.length * 2, subsLen + 3 + len));
        }
        subs[subsLen] = (byte) (len >>> 8);
        subs[subsLen + 1] = (byte) len;
        subs[subsLen + 2] = d[at + Dirents.TYPE_AT];
        System.arraycopy(d, nameAt, subs, subsLen + 3, len);
        subsLen += 3 + len;
        if (count == inos.length) {
            inos = Arrays.copyOf(inos, count * 2);
        }
        inos[count++] = Dirents.ino(d, at);
    }

    /**
     * Reorders the kept entries as fts hands them to find: in batches of {@link #READDIR_BATCH}
     * in the kernel's order, each batch of more than {@link #INODE_SORT_THRESHOLD} entries
     * sorted by inode number.
     */
    void sortByInode() {
        int[] at = new int[count];
        for (int i = 0, pos = 0; i < count; i++) {
            at[i] = pos;
            pos += 3 + (((subs[pos] & 0xff) << 8) | (subs[pos + 1] & 0xff));
        }
        byte[] out = new byte[subs.length];
        int outLen = 0;
        for (int from = 0; from < count; from += READDIR_BATCH) {
            int to = Math.min(count, from + READDIR_BATCH);
            Integer[] order = new Integer[to - from];
            for (int i = from; i < to; i++) {
                order[i - from] = i;
            }
            if (to - from > INODE_SORT_THRESHOLD) {
                long[] ids = inos;
                Arrays.sort(order, (a, b) -> Long.compareUnsigned(ids[a], ids[b]));
            }
            for (int i : order) {
                int len = 3 + (((subs[at[i]] & 0xff) << 8) | (subs[at[i] + 1] & 0xff));
                System.arraycopy(subs, at[i], out, outLen, len);
                outLen += len;
            }
        }
        subs = out;
    }
}
