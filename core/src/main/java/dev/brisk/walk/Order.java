// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

/** When a directory is visited relative to its contents. */
public enum Order {
    /** A directory before its contents; the visitor may skip the subtree. */
    PRE_ORDER,
    /** A directory after its contents (find's {@code -depth}); skipping has no effect. */
    POST_ORDER
}
