// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.nio.charset.StandardCharsets;

/**
 * Where a metered copy writes: standard output, a file (created or truncated, mode 0666 less the
 * umask), or nowhere. Immutable.
 */
public final class Output {
    private static final Output STDOUT = new Output(null, false);
    private static final Output DISCARD = new Output(null, true);
    private final byte[] path;
    private final boolean discard;

    private Output(byte[] path, boolean discard) {
        this.path = path;
        this.discard = discard;
    }

    /** The process's standard output (descriptor 1), which the meter never closes. */
    public static Output stdout() {
        return STDOUT;
    }

    /** The file at {@code path} (bytes), truncated first. */
    public static Output file(byte[] path) {
        if (path == null || path.length == 0) {
            throw new IllegalArgumentException("empty output file name");
        }
        return new Output(path.clone(), false);
    }

    /** No output at all: data is read and counted, then dropped. */
    public static Output discard() {
        return DISCARD;
    }

    /** True for standard output. */
    public boolean isStdout() {
        return path == null && !discard;
    }

    /** True for {@link #discard()}. */
    public boolean isDiscard() {
        return discard;
    }

    byte[] rawPath() {
        return path;
    }

    /** The name for messages. */
    public String displayName() {
        return discard ? "(discard)" : path == null ? "(standard output)" : new String(path, StandardCharsets.UTF_8);
    }
}
