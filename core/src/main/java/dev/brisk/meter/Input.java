// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * One input of a metered copy: standard input, or a file named by bytes (names are bytes; the
 * String form is for messages only). Immutable.
 */
public final class Input {
    private static final Input STDIN = new Input(null);
    private final byte[] path;

    private Input(byte[] path) {
        this.path = path;
    }

    /** The process's standard input (descriptor 0), which the meter never closes. */
    public static Input stdin() {
        return STDIN;
    }

    /** The file at {@code path} (bytes as the kernel sees them); {@code -} is a file named "-". */
    public static Input file(byte[] path) {
        if (path == null || path.length == 0) {
            throw new IllegalArgumentException("empty input file name");
        }
        return new Input(path.clone());
    }

    /** The file at {@code path}. */
    public static Input file(Path path) {
        return file(path.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** True for standard input. */
    public boolean isStdin() {
        return path == null;
    }

    /** The file name bytes (a copy), or null for standard input. */
    public byte[] path() {
        return path == null ? null : path.clone();
    }

    byte[] rawPath() {
        return path;
    }

    /** The name for messages: the file name, or {@code (standard input)}. */
    public String displayName() {
        return path == null ? "(standard input)" : new String(path, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Input i && Arrays.equals(path, i.path);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(path);
    }

    @Override
    public String toString() {
        return displayName();
    }
}
