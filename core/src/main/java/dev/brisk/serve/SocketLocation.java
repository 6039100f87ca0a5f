// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve;

import dev.brisk.serve.internal.SocketDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where servers listen and clients connect by default: {@code $BRISK_SOCKET} if set, else
 * {@code $XDG_RUNTIME_DIR/brisk/serve.sock}, else {@code /tmp/brisk-$UID/serve.sock}.
 * Stateless.
 */
public final class SocketLocation {
    private SocketLocation() {}

    /**
     * Creates the socket directory {@code dir} (mode 0700) or checks the one there (chg's rule:
     * a directory owned by this user that no group or other user may enter).
     *
     * @throws IOException with a one-line message when it is unsafe or cannot be made
     */
    public static void prepareDirectory(Path dir) throws IOException {
        SocketDirectory.prepare(dir);
    }

    /** The default socket path under this process's environment. */
    public static Path defaultPath() {
        return defaultPath(System.getenv());
    }

    /** The default socket path under {@code env}. */
    public static Path defaultPath(Map<String, String> env) {
        String explicit = env.get("BRISK_SOCKET");
        if (explicit != null && !explicit.isEmpty()) {
            return Path.of(explicit).toAbsolutePath();
        }
        String runtime = env.get("XDG_RUNTIME_DIR");
        if (runtime != null && runtime.startsWith("/")) {
            return Path.of(runtime, "brisk", "serve.sock");
        }
        try {
            return Path.of("/tmp", "brisk-" + SocketDirectory.currentUid(), "serve.sock");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot learn this process's uid: " + e.getMessage(), e);
        }
    }
}
