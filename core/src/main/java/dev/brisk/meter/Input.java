// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * One input of a metered copy: standard input, another open descriptor, or a file named by
 * bytes (names are bytes; the String form is for messages only). Immutable.
 */
public final class Input {
    private static final Input STDIN = new Input(null, 0);
    private final byte[] path;
    private final int fd;

    private Input(byte[] path, int fd) {
        this.path = path;
        this.fd = fd;
    }

    /**
     * Standard input, which the meter never closes: descriptor 0, or the client's when a warm
     * server runs the copy (the current {@link dev.brisk.internal.posix.Caller}'s, when the copy starts).
     */
    public static Input stdin() {
        return STDIN;
    }

    /**
     * The open descriptor {@code fd} (the read end of a command's pipe, say), which stays the
     * caller's: the meter never closes it.
     */
    public static Input descriptor(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("negative descriptor " + fd);
        }
        return fd == 0 ? STDIN : new Input(null, fd);
    }

    /** The file at {@code path} (bytes as the kernel sees them); {@code -} is a file named "-". */
    public static Input file(byte[] path) {
        if (path == null || path.length == 0) {
            throw new IllegalArgumentException("empty input file name");
        }
        return new Input(path.clone(), -1);
    }

    /** The file at {@code path}. */
    public static Input file(Path path) {
        return file(path.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** True for standard input. */
    public boolean isStdin() {
        return path == null && fd == 0;
    }

    /** True for standard input or another open descriptor: nothing to open or close. */
    public boolean isDescriptor() {
        return path == null;
    }

    /** The descriptor of {@link #isDescriptor() a descriptor input}, else -1. */
    public int fd() {
        return fd;
    }

    /** The file name bytes (a copy), or null for standard input or a descriptor. */
    public byte[] path() {
        return path == null ? null : path.clone();
    }

    byte[] rawPath() {
        return path;
    }

    /** The name for messages: the file name, {@code (standard input)} or {@code (descriptor N)}. */
    public String displayName() {
        return path != null ? new String(path, java.nio.charset.StandardCharsets.UTF_8)
                : fd == 0 ? "(standard input)" : "(descriptor " + fd + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Input i && Arrays.equals(path, i.path) && fd == i.fd;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(path) * 31 + fd;
    }

    @Override
    public String toString() {
        return displayName();
    }
}
