// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A stream over a file descriptor whose writes may wait in memory ({@link BatchedOutput}):
 * {@link #sync} writes them, so that bytes written to {@link #raw}'s descriptor another way
 * ({@code sendfile} on its channel) come after.
 */
public interface Sequenced {
    /** Writes whatever this stream (or the stream it follows) holds back. */
    void sync() throws IOException;

    /** The stream over the descriptor itself. */
    OutputStream raw();
}
