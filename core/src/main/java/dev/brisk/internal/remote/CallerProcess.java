// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import dev.brisk.internal.posix.Caller;
import java.util.List;
import java.util.Map;

/**
 * The JDK's {@link ProcessBuilder} for a helper the current command starts (ssh, sbatch,
 * squeue, scontrol): with the environment of its {@link Caller}, which is this JVM's own in a
 * direct run and a warm server's client's in its call ({@code SSH_AUTH_SOCK}, {@code SLURM_*},
 * {@code PATH}). The working directory is the starting thread's, which a server's call sets for
 * its own threads; the resource limits and signal dispositions are the JVM's.
 */
public final class CallerProcess {
    private CallerProcess() {}

    /** A builder for {@code argv} with the caller's environment. */
    public static ProcessBuilder builder(List<String> argv) {
        ProcessBuilder pb = new ProcessBuilder(argv);
        Caller c = Caller.current();
        if (!c.self()) {
            Map<String, String> env = pb.environment();
            env.clear();
            env.putAll(c.environment());
        }
        return pb;
    }

    /**
     * The working directory of this thread, as an absolute path: the JVM's {@code user.dir} in a
     * direct run; in a warm server's call, the client's, which the call's threads have of their
     * own ({@code unshare(CLONE_FS)}) and {@code user.dir} does not know.
     */
    public static String workingDirectory() {
        if (Caller.current().self()) {
            return System.getProperty("user.dir");
        }
        try {
            return java.nio.file.Path.of("/proc/thread-self/cwd").toRealPath().toString();
        } catch (java.io.IOException e) {
            return System.getProperty("user.dir"); // no /proc: the best there is
        }
    }

    /** As {@link #builder(List)}. */
    public static ProcessBuilder builder(String... argv) {
        return builder(List.of(argv));
    }
}
