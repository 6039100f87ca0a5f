// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.nio.charset.StandardCharsets;

/**
 * Where a metered copy writes: standard output, another open descriptor, a file (created or
 * truncated, mode 0666 less the umask), or nowhere. Immutable.
 */
public final class Output {
    private static final Output STDOUT = new Output(null, false, 1);
    private static final Output DISCARD = new Output(null, true, -1);
    private final byte[] path;
    private final boolean discard;
    private final int fd;

    private Output(byte[] path, boolean discard, int fd) {
        this.path = path;
        this.discard = discard;
        this.fd = fd;
    }

    /**
     * Standard output, which the meter never closes: descriptor 1, or the client's when a warm
     * server runs the copy (the current {@link dev.brisk.internal.posix.Caller}'s, when the copy starts).
     */
    public static Output stdout() {
        return STDOUT;
    }

    /**
     * The open descriptor {@code fd} (the write end of a command's pipe, say), which stays the
     * caller's: the meter never closes it. When it is a pipe, the copy waits for input beside it
     * and ends ({@link CopyResult.Outcome#OUTPUT_CLOSED}) as soon as its reader has gone, even
     * while the input is idle (one extra poll(2) per chunk).
     */
    public static Output descriptor(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("negative descriptor " + fd);
        }
        return new Output(null, false, fd);
    }

    /** The file at {@code path} (bytes), truncated first. */
    public static Output file(byte[] path) {
        if (path == null || path.length == 0) {
            throw new IllegalArgumentException("empty output file name");
        }
        return new Output(path.clone(), false, -1);
    }

    /** No output at all: data is read and counted, then dropped. */
    public static Output discard() {
        return DISCARD;
    }

    /** True for standard output. */
    public boolean isStdout() {
        return this == STDOUT;
    }

    /** True for {@link #discard()}. */
    public boolean isDiscard() {
        return discard;
    }

    /** True for standard output or another open descriptor: nothing to open or close. */
    public boolean isDescriptor() {
        return path == null && !discard;
    }

    /** The descriptor of {@link #isDescriptor() a descriptor output}, else -1. */
    public int fd() {
        return fd;
    }

    /** Whether the copy watches for the reader's departure while its input is idle. */
    boolean watchesHangup() {
        return isDescriptor() && this != STDOUT;
    }

    byte[] rawPath() {
        return path;
    }

    /** The name for messages. */
    public String displayName() {
        return discard ? "(discard)" : path != null ? new String(path, StandardCharsets.UTF_8)
                : fd == 1 ? "(standard output)" : "(descriptor " + fd + ")";
    }
}
