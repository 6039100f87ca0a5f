// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

/** Which engine walks the tree. */
public enum Backend {
    /** The native engine where it works (Linux with native access enabled), else the portable one. */
    AUTO,
    /** {@code openat}, {@code getdents64} and {@code statx} through the FFM API (Linux only). */
    NATIVE,
    /** Plain {@code java.nio.file}: works anywhere, slower, and names pass through the platform charset. */
    PORTABLE
}
