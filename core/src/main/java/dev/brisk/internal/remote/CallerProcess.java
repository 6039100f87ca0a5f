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
 * its own threads; the resource limits are the JVM's until {@link #limit} gives the started
 * process the caller's; the signal dispositions are the JVM's.
 */
public final class CallerProcess {
    /** prlimit64(2), which no other brisk code calls yet. */
    private static final long PRLIMIT64 = "aarch64".equals(System.getProperty("os.arch")) ? 261 : 302;

    private CallerProcess() {}

    /**
     * Gives the process {@code pid} (a child just started, before it starts anything of its own:
     * a worker shell waiting for its first job) the current caller's resource limits, so that the
     * jobs it forks have them as a direct run's would ({@code ulimit -v} before {@code brisk par}).
     * Nothing for a direct run. A limit the kernel refuses (a hard limit above the server's own)
     * is left as it was.
     */
    public static void limit(long pid) {
        long[][] limits = Caller.current().limits();
        if (limits == null) {
            return;
        }
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment rl = a.allocate(16, 8);
            for (int r = 0; r < limits.length; r++) {
                if (limits[r] == null) {
                    continue;
                }
                rl.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, limits[r][0]);
                rl.set(java.lang.foreign.ValueLayout.JAVA_LONG, 8, limits[r][1]);
                dev.brisk.internal.posix.Syscall.call(PRLIMIT64, pid, r, rl.address(), 0);
            }
        }
    }

    /**
     * A builder for {@code argv} with the caller's environment. For a server's client the
     * program is looked up on the caller's PATH here (the JDK would search the JVM's own).
     */
    public static ProcessBuilder builder(List<String> argv) {
        Caller c = Caller.current();
        if (!c.self() && !argv.isEmpty() && !argv.get(0).contains("/")) {
            dev.brisk.internal.posix.ProgramPath.Program found = dev.brisk.internal.posix.ProgramPath
                    .of(c.getenv("PATH")).find(argv.get(0).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            if (found.path() != null) {
                List<String> resolved = new java.util.ArrayList<>(argv);
                resolved.set(0, new String(found.path(), java.nio.charset.StandardCharsets.UTF_8));
                argv = resolved;
            }
        }
        ProcessBuilder pb = new ProcessBuilder(argv);
        if (!c.self()) {
            Map<String, String> env = pb.environment();
            env.clear();
            env.putAll(c.environment());
        }
        return pb;
    }

    /** As {@link #builder(List)}. */
    public static ProcessBuilder builder(String... argv) {
        return builder(List.of(argv));
    }
}
