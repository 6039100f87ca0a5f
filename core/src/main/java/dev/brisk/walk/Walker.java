// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

import dev.brisk.walk.internal.NativeEngine;
import dev.brisk.walk.internal.PortableEngine;
import dev.brisk.walk.internal.SnapshotEntry;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Walks directory trees fast: on Linux through {@code openat}/{@code getdents64}/{@code statx}
 * with names kept as bytes, a stat only when asked for, and several threads; elsewhere through
 * {@code java.nio.file}. Errors (unreadable directories, vanished entries, link loops) go to
 * {@link WalkVisitor#failed} and the walk goes on.
 *
 * <p>A walker may run one walk at a time; {@link #cancel()} may be called from any thread.
 * {@code walk} blocks the calling thread until the walk ends.
 *
 * <pre>{@code
 * Walker w = Walker.of(WalkOptions.DEFAULTS);
 * WalkResult r = w.walk(List.of("src".getBytes()), e -> {
 *     if (e.type() == EntryType.FILE) System.out.println(new String(e.path()));
 *     return Visit.CONTINUE;
 * });
 * }</pre>
 */
public final class Walker {
    private final WalkOptions options;
    private final boolean nativeEngine;
    private volatile NativeEngine.Cancel cancel = new NativeEngine.Cancel();

    private Walker(WalkOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.nativeEngine = switch (options.backend()) {
            case NATIVE -> {
                if (!NativeEngine.available()) {
                    throw new IllegalStateException("the native walk engine is unavailable: "
                            + NativeEngine.unavailableReason());
                }
                yield true;
            }
            case PORTABLE -> false;
            case AUTO -> NativeEngine.available();
        };
    }

    /** A walker with {@code options}; throws IllegalStateException if {@link Backend#NATIVE} is asked for but unavailable. */
    public static Walker of(WalkOptions options) {
        return new Walker(options);
    }

    /**
     * The metadata of {@code path} (bytes, relative to the working directory), by the walk's
     * rule for links: with {@code followLinks} a link's target, or the link itself when it
     * dangles; without, the link itself. Null when there is nothing there (or it cannot be
     * looked at). Thread-safe.
     */
    public static FileStat stat(byte[] path, boolean followLinks) {
        return new SnapshotEntry(path, 0, EntryType.UNKNOWN, 0, followLinks, null).stat();
    }

    /**
     * Why the link at {@code path} cannot be followed: 0 when stat(2) through it succeeds, else
     * its errno ({@code ENOENT}: dangling; {@code ELOOP}: a loop), as find's {@code %Y} and
     * {@code -xtype} need it. With the portable engine, 0 or ENOENT. Thread-safe.
     */
    public static int followErrno(byte[] path) {
        return SnapshotEntry.followErrno(path);
    }

    /**
     * Starts binding the native engine's calls on a background thread, so that a command-line
     * caller overlaps that cost (tens of milliseconds on a cold JVM) with its own start-up.
     * Optional; safe to call any number of times.
     */
    public static void prepare() {
        Thread.ofPlatform().daemon().name("brisk-walk-prepare").start(NativeEngine::available);
    }

    /** Which engine this walker uses, and why, in a line for {@code --debug} output. */
    public String engine() {
        if (nativeEngine) {
            return "native (openat/getdents64/statx by " + dev.brisk.internal.posix.Syscall.how() + ", "
                    + options.effectiveThreads() + " thread(s))";
        }
        String why = options.backend() == Backend.PORTABLE ? "asked for" : NativeEngine.unavailableReason();
        return "portable (java.nio.file, 1 thread; " + why + ")";
    }

    /**
     * Walks {@code roots} (each a path as bytes) in order, calling {@code visitor}; blocks until
     * done. A runtime exception thrown by the visitor ends the walk and is rethrown here.
     */
    public WalkResult walk(List<byte[]> roots, WalkVisitor visitor) {
        NativeEngine.Cancel c = new NativeEngine.Cancel();
        cancel = c;
        return walk(roots, visitor, c);
    }

    private WalkResult walk(List<byte[]> roots, WalkVisitor visitor, NativeEngine.Cancel c) {
        Objects.requireNonNull(visitor, "visitor");
        if (nativeEngine) {
            return NativeEngine.walk(List.copyOf(roots), options, visitor, c);
        }
        return PortableEngine.walk(List.copyOf(roots), options, visitor, c);
    }

    /** Stops the walk in progress (if any) soon; it then returns with {@link WalkResult#stopped()} true. */
    public void cancel() {
        cancel.cancel();
    }

    /**
     * The entries under {@code roots} as a lazy stream of {@linkplain WalkEntry#snapshot() snapshots}
     * (errors are skipped). The walk runs on a background thread, at most a few thousand entries
     * ahead of the consumer; closing the stream cancels it. Close the stream (try-with-resources).
     */
    public Stream<WalkEntry> stream(List<byte[]> roots) {
        BlockingQueue<Object> queue = new ArrayBlockingQueue<>(4096);
        Object end = new Object();
        NativeEngine.Cancel c = new NativeEngine.Cancel();
        cancel = c;
        Thread producer = Thread.ofPlatform().daemon().name("brisk-walk-stream").unstarted(() -> {
            try {
                walk(roots, e -> {
                    try {
                        queue.put(e.snapshot());
                        return Visit.CONTINUE;
                    } catch (InterruptedException ie) {
                        return Visit.STOP;
                    }
                }, c);
            } finally {
                try {
                    queue.put(end);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        producer.start();
        Iterator<WalkEntry> it = new Iterator<>() {
            private Object next;

            @Override
            public boolean hasNext() {
                if (next == null) {
                    try {
                        next = queue.take();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        next = end;
                    }
                }
                return next != end;
            }

            @Override
            public WalkEntry next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                WalkEntry e = (WalkEntry) next;
                next = null;
                return e;
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(() -> {
                    c.cancel();
                    producer.interrupt();
                    queue.clear();
                });
    }
}
