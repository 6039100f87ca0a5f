// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.RemoteHost;
import dev.brisk.internal.remote.Prestart;
import java.util.List;
import java.util.function.Supplier;

/**
 * A command line's remote hosts connected before its run needs them ({@code brisk par -S},
 * {@code --slurm}): an ssh login or a Slurm step takes longer than reading the rest of the
 * options and building the runner. The connections are {@link Prestart}'s, kept per
 * {@code Caller}; a run's {@code Hosts} take them as they stand.
 */
public final class EarlyConnections {
    private EarlyConnections() {}

    /**
     * Starts the connections of the hosts {@code hosts} gives (called on a background thread,
     * which may throw); at most {@value Prestart#AT_ONCE}, as a run opens them. A command line
     * calls this as soon as it sees its hosts, and {@link #drop} when its run is over.
     */
    public static void start(Supplier<List<RemoteHost>> hosts) {
        Prestart.begin(() -> hosts.get().stream().filter(h -> !h.local()).map(RemoteHost::command).toList());
    }

    /** Kills the connections {@link #start} started that no run took (the full parse said otherwise). */
    public static void drop() {
        Prestart.discard();
    }
}
