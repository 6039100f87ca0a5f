// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Watches another process's open file, like {@code pv -d PID:FD}: its position (from
 * {@code /proc/PID/fdinfo/FD}) is the count, the file's size (or the options' size) the total,
 * and the watch ends when the descriptor is closed or starts naming another file. Linux only.
 *
 * <p>{@link #watch} blocks the calling thread, sampling once per {@link MeterOptions#interval()};
 * the listener is called from that thread. Only the options' size, interval, averaging window
 * and ticker are used. Immutable; one instance may run several watches.
 */
public final class DescriptorWatch {
    private final MeterOptions options;
    private final ProgressListener listener;

    public DescriptorWatch(MeterOptions options, ProgressListener listener) {
        this.options = options;
        this.listener = listener == null ? ProgressListener.none() : listener;
    }

    /**
     * Watches descriptor {@code fd} of process {@code pid} until it closes; returns its last
     * position.
     *
     * @throws IOException with a pv-style message ({@code pid 12: No such process},
     *                     {@code pid 12: fd 3: No such file or directory}) when there is nothing to watch
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public long watch(int pid, int fd) throws IOException, InterruptedException {
        Path proc = Path.of("/proc", Integer.toString(pid));
        if (!Files.isDirectory(proc)) {
            throw new IOException("pid " + pid + ": No such process");
        }
        Path link = proc.resolve("fd").resolve(Integer.toString(fd));
        Path info = proc.resolve("fdinfo").resolve(Integer.toString(fd));
        Path target;
        try {
            target = Files.readSymbolicLink(link);
        } catch (NoSuchFileException e) {
            throw new IOException("pid " + pid + ": fd " + fd + ": No such file or directory", e);
        }
        long size = options.size();
        if (size < 0 && Files.isRegularFile(link)) {
            size = Files.size(link);
        }
        ProgressTracker tracker = new ProgressTracker(size, options.averageWindow());
        Ticker ticker = options.ticker();
        tracker.start(ticker.nanoTime());
        long position = position(info);
        byte[] none = new byte[0];
        while (position >= 0) {
            TimeUnit.NANOSECONDS.sleep(options.interval().toNanos());
            long now = position(info);
            if (now < 0 || !same(link, target)) {
                break;
            }
            position = now;
            listener.onProgress(tracker.update(position, position, ticker.nanoTime(), false, none));
        }
        long last = Math.max(0, position);
        listener.onProgress(tracker.finish(last, last, ticker.nanoTime(), false, none));
        return last;
    }

    /**
     * Watches every regular-file (or block-device) descriptor of process {@code pid}, like
     * {@code pv -d PID}: those open when the watch starts and those it opens later (the
     * descriptors are listed again every interval), each on its own thread with the listener
     * {@code listeners} gives for its descriptor number and the file's name, until it is closed.
     * Returns when the process has exited and every watch has ended, with the last position of
     * each descriptor, by number.
     *
     * @throws IOException {@code pid 12: No such process}, or {@code pid 12: Permission denied}
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    public static java.util.SortedMap<Integer, Long> watchAll(MeterOptions options, int pid,
            java.util.function.BiFunction<Integer, String, ProgressListener> listeners)
            throws IOException, InterruptedException {
        Path proc = Path.of("/proc", Integer.toString(pid));
        Path fds = proc.resolve("fd");
        if (!Files.isDirectory(proc)) {
            throw new IOException("pid " + pid + ": No such process");
        }
        java.util.SortedMap<Integer, Long> last = new java.util.concurrent.ConcurrentSkipListMap<>();
        java.util.Map<Integer, Thread> active = new java.util.HashMap<>();
        List<Thread> all = new java.util.ArrayList<>();
        try {
            boolean first = true;
            while (true) {
                java.util.SortedMap<Integer, String> files = new java.util.TreeMap<>();
                try (var list = Files.newDirectoryStream(fds)) {
                    for (Path link : list) {
                        // stat through the link: a regular file or a block device, as pv watches
                        if (Files.isRegularFile(link) || isBlockDevice(link)) {
                            try {
                                files.put(Integer.parseInt(link.getFileName().toString()),
                                        Files.readSymbolicLink(link).toString());
                            } catch (IOException | NumberFormatException e) {
                                // closed meanwhile
                            }
                        }
                    }
                } catch (java.nio.file.AccessDeniedException e) {
                    if (first) {
                        throw new IOException("pid " + pid + ": Permission denied", e);
                    }
                    break;
                } catch (IOException e) {
                    break; // the process has exited
                }
                first = false;
                active.values().removeIf(t -> !t.isAlive());
                for (var e : files.entrySet()) {
                    if (active.containsKey(e.getKey())) {
                        continue;
                    }
                    DescriptorWatch w = new DescriptorWatch(options, listeners.apply(e.getKey(), e.getValue()));
                    Thread t = Thread.ofPlatform().name("watch-fd-" + e.getKey()).start(() -> {
                        try {
                            last.put(e.getKey(), w.watch(pid, e.getKey()));
                        } catch (IOException | InterruptedException ex) {
                            last.putIfAbsent(e.getKey(), 0L); // closed before the first look
                        }
                    });
                    active.put(e.getKey(), t);
                    all.add(t);
                }
                TimeUnit.NANOSECONDS.sleep(options.interval().toNanos());
            }
            for (Thread t : all) {
                t.join();
            }
        } finally {
            all.forEach(Thread::interrupt);
        }
        return last;
    }

    private static boolean isBlockDevice(Path link) {
        try {
            int mode = (int) Files.getAttribute(link, "unix:mode");
            return (mode & 0170000) == 0060000;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The {@code pos:} field of an fdinfo file, or -1 once the descriptor is gone. */
    private static long position(Path info) {
        try {
            for (String line : Files.readAllLines(info)) {
                if (line.startsWith("pos:")) {
                    return Long.parseLong(line.substring(4).strip());
                }
            }
            return -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    private static boolean same(Path link, Path target) {
        try {
            return Files.readSymbolicLink(link).equals(target);
        } catch (IOException e) {
            return false;
        }
    }
}
