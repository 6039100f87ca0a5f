// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Signal numbers (Linux, x86-64 and aarch64), and the signals this process ignores. */
public final class Signals {
    public static final int SIGHUP = 1, SIGINT = 2, SIGQUIT = 3, SIGABRT = 6, SIGKILL = 9, SIGSEGV = 11,
            SIGPIPE = 13, SIGALRM = 14, SIGTERM = 15, SIGCHLD = 17, SIGCONT = 18, SIGSTOP = 19;

    /**
     * glibc's two internal signals, 32 (SIGCANCEL) and 33 (SIGSETXID), as bits of a
     * {@link #ignored()} mask. glibc's posix_spawn leaves both ignored in every child unless they
     * are named among the signals to default, which its sigaddset refuses; the JDK's
     * ProcessBuilder starts its children that way. After fork and exec (a shell, GNU find) they
     * are at their default.
     */
    public static final long GLIBC_INTERNAL = 1L << 31 | 1L << 32;

    private Signals() {}

    /**
     * The signals this process ignores (bit N-1 for signal N): those the JVM was started with
     * ignored ({@code nohup}, {@code trap '' HUP}). A shell's children inherit them ignored and
     * cannot undo that, so a spawn that stands in for a shell keeps them
     * ({@link Spawn#defaultSignals}).
     */
    public static long ignored() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return Long.parseUnsignedLong(line.substring(7).trim(), 16);
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: assume none
        }
        return 0;
    }
}
