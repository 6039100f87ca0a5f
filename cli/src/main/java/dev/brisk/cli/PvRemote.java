// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.internal.posix.Caller;
import dev.brisk.meter.LiveSettings;
import dev.brisk.meter.Progress;
import dev.brisk.meter.ProgressListener;
import dev.brisk.meter.RateLimiter;
import dev.brisk.meter.StderrDisplay;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code brisk pv -R PID OPTIONS}: makes the running {@code brisk pv} PID of the same user act as
 * though it had been given these options, as pv's {@code --remote} does: its display switches,
 * format, name and interval are replaced, and its rate limit, size, width and height are changed
 * where they are given.
 *
 * <p>The exchange needs no daemon and sends no signal. It goes through the directory {@code -Q}
 * uses ({@link PvQuery#directory}: {@code /run/user/UID}, else {@code $HOME/.pv}, private to the
 * user). A copying brisk pv, at its first update (at once with {@code -P}), writes the marker {@code brisk-pv.PID.listen}
 * (its start time from {@code /proc/PID/stat}, so a reused PID never matches, and its interval);
 * at every update after that it checks for {@code brisk-pv.PID.remote} (one stat), and when
 * there is one it reads it, deletes it (the acknowledgement) and applies it. The sender refuses a
 * process of another user and one without a matching marker before writing anything, creates the
 * request with {@code link(2)} (so two senders never overwrite each other), and waits one of the
 * target's intervals plus pv's 1.1 s for the acknowledgement. A copy that a warm server runs for
 * a client listens under the client's process ID ({@link Caller#pid}) and start time, so
 * {@code brisk pv -R CLIENTPID} reaches it; its marker goes when its copy ends.
 */
final class PvRemote {
    private static final String PROGRAM = "brisk pv";
    private static final long ACK_GRACE_NANOS = 1_100_000_000L; // pv waits 1.1 s for its reply

    private PvRemote() {}

    /** Sends the options of {@code cmd} to process {@code pidText}; pv's exit status (1 on failure). */
    static int send(PvCommand cmd, String pidText) {
        if (!pidText.matches("\\d{1,9}") || Long.parseLong(pidText) < 1) {
            cmd.err().println(PROGRAM + ": -R: " + pidText + ": integer argument expected");
            return PvExit.USAGE.bit();
        }
        long pid = Long.parseLong(pidText);
        Map<String, String> request;
        try {
            request = cmd.remoteRequest();
        } catch (PvCommand.BadValue e) {
            cmd.err().println(PROGRAM + ": " + e.getMessage());
            return PvExit.USAGE.bit();
        }
        Path proc = Path.of("/proc", Long.toString(pid));
        Path sent = null;
        try {
            if (!Files.isDirectory(proc)) {
                return fail(cmd, pid, "No such process");
            }
            if (PvQuery.uid(proc) != PvQuery.uid(Path.of("/proc/self"))) {
                return fail(cmd, pid, "Operation not permitted"); // pv: kill(2)'s EPERM; never touched
            }
            Path dir = PvQuery.directory(true);
            long[] marker = readMarker(dir.resolve("brisk-pv." + pid + ".listen"));
            if (marker == null || marker[0] != startTime(pid)) {
                return fail(cmd, pid, "message not received (not a running brisk pv)");
            }
            Path slot = dir.resolve("brisk-pv." + pid + ".remote");
            Path tmp = Files.createTempFile(dir, ".brisk-pv-", ".tmp");
            try {
                Files.write(tmp, encode(request));
                long deadline = System.nanoTime() + marker[1] + ACK_GRACE_NANOS;
                while (sent == null) {
                    try {
                        Files.createLink(slot, tmp);
                        sent = slot;
                    } catch (FileAlreadyExistsException e) {
                        if (System.nanoTime() > deadline) {
                            return fail(cmd, pid, "message not received (another request is pending)");
                        }
                        Thread.sleep(10);
                    }
                }
                Object key = Files.readAttributes(tmp, "unix:ino").get("ino");
                while (System.nanoTime() < deadline) {
                    Thread.sleep(10);
                    if (!Files.exists(sent, LinkOption.NOFOLLOW_LINKS)) {
                        return 0;
                    }
                }
                // ours still there: take it back (another sender's is left alone)
                if (key.equals(Files.readAttributes(sent, "unix:ino", LinkOption.NOFOLLOW_LINKS).get("ino"))) {
                    Files.deleteIfExists(sent);
                }
                return fail(cmd, pid, "message not received");
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            return fail(cmd, pid, e.getMessage());
        } catch (InterruptedException e) {
            return PvExit.SIGNAL.bit();
        }
    }

    private static int fail(PvCommand cmd, long pid, String why) {
        cmd.err().println(PROGRAM + ": " + pid + ": " + why);
        return 1; // pv: 1 is a problem with --remote, --query or --pidfile
    }

    /**
     * The listener a copying brisk pv adds so that it can be controlled: the marker at its first
     * update (or the one {@link #listen} wrote before the pidfile), then one stat per update. A
     * request is applied to {@code cmd}'s options, then to the rate {@code limiter}, the {@code
     * live} size and interval and the {@code display} in use.
     */
    static ProgressListener responder(PvCommand cmd, RateLimiter limiter, LiveSettings live,
            AtomicReference<StderrDisplay> display) {
        return new Responder(cmd, limiter, live, display, cmd.listening);
    }

    /** A listening copy's marker, where requests arrive, and the exit hook that removes the marker. */
    record Listening(Path marker, Path requests, Thread forget) {}

    /**
     * Writes this copy's marker now and returns it, or null when it cannot (the copy goes on, not
     * listening). A copy with a pidfile ({@code -P}) listens before it writes the pidfile, so a
     * sender that reads the PID from it finds the marker at once, as pv's own --remote test does.
     */
    static Listening listen(PvCommand cmd) {
        Caller caller = Caller.current();
        long pid = caller.pid();
        try {
            Path dir = PvQuery.directory(true);
            Path tmp = Files.createTempFile(dir, ".brisk-pv-", ".tmp");
            Files.writeString(tmp, startTime(pid) + " " + cmd.intervalNanos() + "\n");
            Path marker = dir.resolve("brisk-pv." + pid + ".listen");
            Files.move(tmp, marker, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Thread forget = new Thread(() -> forget(marker), "brisk-pv-forget");
            caller.addExitHook(forget);
            return new Listening(marker, dir.resolve("brisk-pv." + pid + ".remote"), forget);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@link #responder}'s listener. */
    private static final class Responder implements ProgressListener {
        private final PvCommand cmd;
        private final RateLimiter limiter;
        private final LiveSettings live;
        private final AtomicReference<StderrDisplay> display;
        private final Caller caller = Caller.current();
        private Listening listening;
        private boolean failed;

        Responder(PvCommand cmd, RateLimiter limiter, LiveSettings live, AtomicReference<StderrDisplay> display,
                Listening early) {
            this.cmd = cmd;
            this.limiter = limiter;
            this.live = live;
            this.display = display;
            this.listening = early;
        }

        @Override
        public void onProgress(Progress p) {
            if (p.finished() && listening != null && listening.forget() != null) {
                forget(listening.marker()); // no sender may take a finished copy for a listening one
                caller.removeExitHook(listening.forget());
                listening = new Listening(listening.marker(), listening.requests(), null);
            }
            if (failed || p.finished()) {
                return;
            }
            if (listening == null) {
                listening = listen(cmd);
                failed = listening == null;
                return;
            }
            try {
                if (!Files.exists(listening.requests(), LinkOption.NOFOLLOW_LINKS)) {
                    return;
                }
                Map<String, String> request = take(listening.requests());
                if (request != null) {
                    apply(cmd, request, limiter, live, display.get());
                }
            } catch (IOException | RuntimeException e) {
                failed = true; // nowhere to listen from: the copy itself goes on
            }
        }
    }

    /** Removes the marker (at exit, so no sender takes a finished brisk pv for a listening one). */
    static void forget(Path marker) {
        try {
            Files.deleteIfExists(marker);
        } catch (IOException e) {
            // a stale marker is harmless: its start time will not match a new process
        }
    }

    /** Reads and deletes a request written by our own user; null for anything else. */
    private static Map<String, String> take(Path file) throws IOException {
        try {
            long owner = ((Number) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
            boolean ours = owner == PvQuery.uid(Path.of("/proc/self")) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS);
            byte[] bytes = ours ? Files.readAllBytes(file) : null;
            Files.deleteIfExists(file);
            return bytes == null ? null : decode(bytes);
        } catch (java.nio.file.NoSuchFileException e) {
            return null; // taken back by a sender that gave up
        }
    }

    private static void apply(PvCommand cmd, Map<String, String> request, RateLimiter limiter, LiveSettings live,
            StderrDisplay display) {
        cmd.adoptRemote(request);
        String rate = request.get("rateLimit");
        if (rate != null && limiter != null) {
            limiter.setBytesPerSecond(Long.parseLong(rate));
        }
        String size = request.get("size");
        if (size != null) {
            live.size(Long.parseLong(size));
        }
        live.interval(Duration.ofNanos(cmd.intervalNanos()));
        if (display != null) {
            try {
                display.restyle(cmd.statusLine(cmd.name), cmd.width());
            } catch (PvCommand.BadValue e) {
                // the sender checked its values: a bad one here changes nothing on the display
            }
        }
    }

    /** The start time of process {@code pid} in clock ticks ({@code /proc/PID/stat} field 22), or -1. */
    static long startTime(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(after[19]); // fields from 3 on; the 22nd overall
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long[] readMarker(Path marker) {
        try {
            String[] parts = Files.readString(marker).strip().split(" ");
            return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Key, NUL, value, NUL, ...: values are command-line arguments, which hold no NUL. */
    private static byte[] encode(Map<String, String> request) {
        StringBuilder b = new StringBuilder();
        request.forEach((k, v) -> b.append(k).append('\0').append(v).append('\0'));
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, String> decode(byte[] bytes) {
        String[] parts = new String(bytes, StandardCharsets.UTF_8).split("\0", -1);
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i + 1 < parts.length; i += 2) {
            m.put(parts[i], parts[i + 1]);
        }
        return m;
    }
}
