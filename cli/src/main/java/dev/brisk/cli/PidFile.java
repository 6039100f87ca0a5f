// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.internal.posix.Caller;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * pv's {@code --pidfile FILE}: the process ID and a newline, written to a temporary file beside
 * FILE and renamed over it (so a reader never sees a half-written number), removed at exit. The
 * process is the {@link Caller}'s (a warm server's client: its pid, which a signal reaches), and a
 * relative FILE is the calling thread's working directory's (a server's call has its own).
 */
final class PidFile {
    private PidFile() {}

    /**
     * Writes the pid file.
     *
     * @return its path, for {@link #remove}
     * @throws IOException whose message is the reason alone ({@code Permission denied}), for
     *                     pv's {@code FILE: reason}
     */
    static Path write(String file) throws IOException {
        // not toAbsolutePath(): user.dir is the JVM's directory, the thread's may be a client's
        Path target = Path.of(file).isAbsolute() ? Path.of(file)
                : Files.readSymbolicLink(Path.of("/proc/thread-self/cwd")).resolve(file);
        Path tmp = null;
        try {
            tmp = Files.createTempFile(target.getParent(), ".pv-pid-", ".tmp");
            Files.writeString(tmp, Caller.current().pid() + "\n");
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException e) {
            if (tmp != null) {
                Files.deleteIfExists(tmp);
            }
            throw new IOException(e instanceof NoSuchFileException ? "No such file or directory"
                    : e instanceof AccessDeniedException ? "Permission denied"
                    : e instanceof java.nio.file.DirectoryNotEmptyException || Files.isDirectory(target) ? "Is a directory"
                    : e.getMessage(), e);
        }
    }

    /** Removes the pid file if there is one; quietly, as the process is ending. */
    static void remove(Path pidFile) {
        if (pidFile != null) {
            try {
                Files.deleteIfExists(pidFile);
            } catch (IOException e) {
                // nothing to do at exit
            }
        }
    }
}
