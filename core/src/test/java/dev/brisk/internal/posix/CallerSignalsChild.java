// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Run in a child JVM by {@link CallerSpawnTest}, started with SIGHUP ignored (a server under
 * nohup): prints the ignored-signal mask of a child it starts for a client that ignores SIGINT
 * only, then of one it starts for itself. Argument {@code posix}: with glibc's posix_spawn.
 */
public final class CallerSignalsChild {
    private CallerSignalsChild() {}

    public static void main(String[] args) {
        boolean posix = args.length > 0 && args[0].equals("posix");
        Caller client = new Caller(-1, 0, 1, 2, null, null, -1, 1L << (Signals.SIGINT - 1), 0, 0);
        Caller.set(client);
        int status = run(posix, "client");
        Caller.set(Caller.SELF);
        status |= run(posix, "self");
        System.exit(status);
    }

    /** Starts sh printing {@code name} and its SigIgn line; returns its status. */
    private static int run(boolean posix, String name) {
        Spawn s = new Spawn();
        if (posix) {
            s.posixSpawn();
        }
        try (s) {
            s.defaultSignals(Spawn.CALLER_IGNORED);
            String script = "echo \"" + name + " $(grep SigIgn /proc/self/status)\"";
            int pid = s.start("/bin/sh".getBytes(StandardCharsets.UTF_8), List.of("sh".getBytes(StandardCharsets.UTF_8),
                    "-c".getBytes(StandardCharsets.UTF_8), script.getBytes(StandardCharsets.UTF_8)), null);
            return pid < 0 ? 1 : WaitStatus.shellStatus(WaitStatus.waitFor(pid));
        }
    }
}
