// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

/**
 * Receives the entries of a walk. With more than one thread the walk calls it from several
 * threads at once, so an implementation must be thread-safe then; an entry is valid only during
 * the call that receives it (copy {@link WalkEntry#path()} to keep it).
 */
@FunctionalInterface
public interface WalkVisitor {
    /** Called once per entry (roots included); returns what the walk does next. */
    Visit visit(WalkEntry entry);

    /** Called for each error; the walk goes on. The default ignores it. */
    default void failed(WalkError error) {}
}
