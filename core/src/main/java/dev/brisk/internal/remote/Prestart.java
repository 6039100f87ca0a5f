// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Transports started ahead of need: the command line knows its hosts before it has parsed its
 * options, built its job runner and reached {@link RemoteShell#open}, and an ssh login (or a
 * Slurm step) takes far longer than all of that. {@link #begin} starts their processes on a
 * background thread at once; {@code open} takes the one whose argument vector it would spawn,
 * and sends the agent down its pipe as it would down a fresh one (the far side's shell waits for
 * it). Nothing here is guessed: a process nobody takes (the options turned out to say otherwise,
 * the run failed first) is killed by {@link #discard}, and in any case its pipe closes when brisk
 * exits, which ends the shell on the far side.
 */
public final class Prestart {
    /** At most this many at once, as {@code Hosts} opens them (below sshd's {@code MaxStartups}). */
    public static final int AT_ONCE = 8;

    private static final Map<List<String>, CompletableFuture<Process>> STARTED = new ConcurrentHashMap<>();
    private static volatile CountDownLatch listed;
    private static volatile boolean discarded;

    private Prestart() {}

    /**
     * Starts the transports {@code commands} gives (the first {@value #AT_ONCE}), on a daemon
     * thread; {@code commands} runs there too, and may throw (nothing is started then).
     */
    public static void begin(Supplier<List<List<String>>> commands) {
        CountDownLatch l = new CountDownLatch(1);
        listed = l;
        discarded = false;
        Thread.ofPlatform().daemon().name("brisk-prestart").start(() -> {
            List<List<String>> argvs;
            try {
                argvs = commands.get();
            } catch (RuntimeException e) {
                argvs = List.of();
            }
            List<List<String>> first = argvs.stream().distinct().limit(AT_ONCE).toList();
            // the futures stay here: an open may take its own from the map before its process starts
            List<CompletableFuture<Process>> futures = new java.util.ArrayList<>();
            for (List<String> argv : first) {
                CompletableFuture<Process> f = new CompletableFuture<>();
                futures.add(f);
                STARTED.put(argv, f);
            }
            l.countDown();
            for (int i = 0; i < first.size(); i++) {
                CompletableFuture<Process> f = futures.get(i);
                if (discarded) {
                    f.complete(null);
                    continue;
                }
                try {
                    Process p = new ProcessBuilder(first.get(i)).start();
                    if (!f.complete(p)) {
                        p.destroy(); // discarded meanwhile
                    }
                } catch (IOException | RuntimeException e) {
                    f.completeExceptionally(e);
                }
            }
        });
    }

    /**
     * The process started for {@code argv}, or null (none was, or it could not start: the
     * caller starts its own and reports what goes wrong).
     */
    static Process take(List<String> argv) {
        CountDownLatch l = listed;
        if (l == null) {
            return null;
        }
        try {
            if (!l.await(10, TimeUnit.SECONDS)) {
                return null;
            }
            CompletableFuture<Process> f = STARTED.remove(argv);
            return f == null ? null : f.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return null;
        }
    }

    /** Kills the processes nobody took. */
    public static void discard() {
        discarded = true;
        for (List<String> argv : List.copyOf(STARTED.keySet())) {
            CompletableFuture<Process> f = STARTED.remove(argv);
            if (f != null && !f.complete(null)) {
                Process p = f.getNow(null);
                if (p != null) {
                    p.destroy();
                }
            }
        }
    }
}
