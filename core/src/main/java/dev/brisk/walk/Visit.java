// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

/** What a {@link WalkVisitor} tells the walk to do after an entry. */
public enum Visit {
    /** Go on, descending into the entry if it is a directory. */
    CONTINUE,
    /** Go on, but do not descend into this directory (find's {@code -prune}). */
    SKIP_SUBTREE,
    /** End the walk as soon as possible (find's {@code -quit}). */
    STOP
}
