// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

/** How a walk treats symbolic links, after find's {@code -P}, {@code -H} and {@code -L}. */
public enum SymlinkMode {
    /** Never follow a link: a link is an entry of type {@link EntryType#SYMLINK} ({@code -P}). */
    PHYSICAL,
    /** Follow links named as roots only ({@code -H}). */
    ROOTS,
    /** Follow every link; a link to an ancestor is reported as a loop, not entered ({@code -L}). */
    LOGICAL
}
