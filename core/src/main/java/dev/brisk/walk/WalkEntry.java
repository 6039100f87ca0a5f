// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

import java.util.Arrays;

/**
 * One entry of a walk: its path as bytes (the root as given, then {@code /name} per level),
 * its type, its depth, and its attributes, fetched by a stat call only when asked for.
 *
 * <p>An entry handed to a {@link WalkVisitor} is a view over the walker's buffers: valid only
 * during that call and on that thread; {@link #snapshot()} makes a copy that stays valid.
 * Not thread-safe.
 */
public interface WalkEntry {
    /** The buffer holding the path in {@code [0, pathLength())}; do not modify it. */
    byte[] pathBuffer();

    /** The length of the path in {@link #pathBuffer()}. */
    int pathLength();

    /** Where the last path component starts in {@link #pathBuffer()}. */
    int nameOffset();

    /** The entry's type; under {@link SymlinkMode#LOGICAL} a link's target type (a dangling link stays a link). */
    EntryType type();

    /** 0 for a root, 1 for its entries, and so on. */
    int depth();

    /**
     * The entry's attributes (of a link's target when links are followed), from one stat call on
     * first use; null when the call fails (the entry vanished, say).
     */
    FileStat stat();

    /** True for a directory with no entries but {@code .} and {@code ..}; false otherwise or on error. */
    boolean isEmptyDirectory();

    /** The target of a symbolic link, or null when this is not a link or it cannot be read. */
    byte[] readLink();

    /** A copy of the path. */
    default byte[] path() {
        return Arrays.copyOf(pathBuffer(), pathLength());
    }

    /** A copy of the last path component (for a root, the root as given). */
    default byte[] name() {
        return Arrays.copyOfRange(pathBuffer(), nameOffset(), pathLength());
    }

    /** An immutable copy of this entry that stays valid after the visit (its stat is taken later by path if not yet known). */
    WalkEntry snapshot();
}
