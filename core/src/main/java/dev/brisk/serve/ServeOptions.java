// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link BriskServer} runs.
 *
 * @param socket the socket's path; its directory must be private to this user (see {@link SocketLocation})
 * @param workers warm shells in the pool, at least 1
 * @param shell the pool's shell: {@code bash}, {@code dash}, or another name or path
 * @param idleExit how long without a connected client before the server ends itself, or null for never
 */
public record ServeOptions(Path socket, int workers, String shell, Duration idleExit) {
    public ServeOptions {
        Objects.requireNonNull(socket, "socket");
        Objects.requireNonNull(shell, "shell");
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
        if (idleExit != null && (idleExit.isNegative() || idleExit.isZero())) {
            throw new IllegalArgumentException("idle exit must be positive, got " + idleExit);
        }
        socket = socket.toAbsolutePath();
    }
}
