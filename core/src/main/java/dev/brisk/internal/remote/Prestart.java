// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import dev.brisk.internal.posix.Caller;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Transports started ahead of need: the command line knows its hosts before it has parsed its
 * options, built its job runner and reached {@link RemoteShell#open}, and an ssh login (or a
 * Slurm step) takes far longer than all of that. {@link #begin} starts their processes on a
 * background thread at once; {@code open} takes the one whose argument vector it would spawn,
 * and sends the agent down its pipe as it would down a fresh one (the far side's shell waits for
 * it). A process nobody takes (the options turned out to say otherwise, the run failed first) is
 * killed by {@link #discard}, and in any case its pipe closes when brisk exits, which ends the
 * shell on the far side.
 *
 * <p>Each {@code begin} is a batch of its own, kept for its {@link Caller} (a warm server runs
 * several clients' command lines at once; a JVM may run several one after another: the AOT
 * training, tests): a later batch of the same caller replaces the current one, and the earlier
 * one's thread, still starting, only ever touches its own processes.
 */
public final class Prestart {
    /** Connections opened at once, here and by a run's hosts: below sshd's default {@code MaxStartups} of 10. */
    public static final int AT_ONCE = 8;

    /**
     * How long the first transport starts alone before the others. Started together, the logins
     * (or steps) share the CPU and the first job waits for the slowest part of all of them;
     * alone, the first is up sooner and its job runs while the others log in. Three Slurm steps
     * here (bench/slurm.sh): the first job 632-671 ms after the start without the wait, 488 with
     * 100 ms, 433 with 200 ms, 431 with 300 ms; 496 when the others started as soon as the first
     * agent said hello (they then share the CPU with the first job). Tests may change it.
     */
    static volatile long staggerMillis = 200;

    /**
     * The same wait when every transport opens a session over a kept ssh login ({@link
     * SshSharing#kept}): about what the first one's session and agent take, not a login's time.
     * Three kept hosts here (bench/warm-hosts.sh), first job / 12 jobs of 0.1 s on one slot per
     * host: 25 / 685 ms with 200 ms, 39 / 491 ms with none, 25 / 508 ms with 30 ms.
     */
    private static final long KEPT_STAGGER_MILLIS = 30;

    /** How long an open waits for its early process before it starts one of its own. */
    private static final long WAIT_SECONDS = 10;

    /** Each caller's current batch. */
    private static final Map<Caller, Batch> CURRENT = new ConcurrentHashMap<>();

    private Prestart() {}

    /** One {@link #begin}'s processes, by argument vector. */
    private static final class Batch {
        final Map<List<String>, CompletableFuture<Process>> started = new ConcurrentHashMap<>();
        final CountDownLatch listed = new CountDownLatch(1);
        /** Counted down when the batch is discarded: the wait before the others ends. */
        final CountDownLatch gone = new CountDownLatch(1);
        volatile boolean discarded;

        void discard() {
            discarded = true;
            gone.countDown();
            for (List<String> argv : List.copyOf(started.keySet())) {
                CompletableFuture<Process> f = started.remove(argv);
                if (f != null) {
                    f.complete(null); // the starting thread then kills what it starts
                    destroyWhenStarted(f);
                }
            }
        }
    }

    /**
     * Starts the transports {@code commands} gives (the first {@value #AT_ONCE}), on a daemon
     * thread; {@code commands} runs there too, and may throw (nothing is started then).
     */
    public static void begin(Supplier<List<List<String>>> commands) {
        Batch b = new Batch();
        Batch before = CURRENT.put(Caller.current(), b);
        if (before != null) {
            before.discard();
        }
        Thread.ofPlatform().daemon().name("brisk-prestart").start(() -> {
            List<List<String>> first = List.of();
            List<CompletableFuture<Process>> futures = new ArrayList<>();
            try {
                first = commands.get().stream().distinct().limit(AT_ONCE).toList();
                // the futures stay here: an open may take its own from the map before its process starts
                for (List<String> argv : first) {
                    CompletableFuture<Process> f = new CompletableFuture<>();
                    futures.add(f);
                    b.started.put(argv, f);
                }
            } catch (RuntimeException e) {
                first = List.of();
            } finally {
                b.listed.countDown();
            }
            for (int i = 0; i < first.size(); i++) {
                CompletableFuture<Process> f = futures.get(i);
                if (i == 1) {
                    try {
                        b.gone.await(first.stream().allMatch(SshSharing::kept) ? KEPT_STAGGER_MILLIS : staggerMillis,
                                TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (b.discarded) {
                    f.complete(null);
                    continue;
                }
                try {
                    Process p = CallerProcess.builder(first.get(i)).start();
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
        Batch b = CURRENT.get(Caller.current());
        if (b == null) {
            return null;
        }
        CompletableFuture<Process> f = null;
        try {
            if (!b.listed.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                return null;
            }
            f = b.started.remove(argv);
            return f == null ? null : f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            return null;
        } catch (TimeoutException e) {
            // given up on: nobody else will take it
        }
        if (f != null) {
            destroyWhenStarted(f);
        }
        return null;
    }

    /** Kills the processes of the caller's current batch that nobody took, and forgets the batch. */
    public static void discard() {
        Batch b = CURRENT.remove(Caller.current());
        if (b != null) {
            b.discard();
        }
    }

    private static void destroyWhenStarted(CompletableFuture<Process> f) {
        f.thenAccept(p -> {
            if (p != null) {
                p.destroy();
            }
        });
    }
}
