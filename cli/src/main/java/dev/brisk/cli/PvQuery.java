// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Environ;
import dev.brisk.meter.Progress;
import dev.brisk.meter.ProgressListener;
import dev.brisk.meter.StderrDisplay;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code brisk pv -Q PID}: shows the transfer of another running {@code brisk pv} owned by the
 * same user, drawn with this command's own display options, until that transfer ends.
 *
 * <p>The exchange goes through files in a directory only the user can use, as pv's goes through
 * {@code /run/user/UID/} or {@code $HOME/.pv/}: the querier creates {@code brisk-pv.PID.query};
 * every running copy (the {@link #responder}) checks for its own at each update (one stat) and,
 * while it is there, writes its latest snapshot to {@code brisk-pv.PID.state} (a temporary file
 * renamed into place). A process of another user is refused before anything is written, and a
 * copy only ever reads the directory of its own user. A copy that a warm server runs for a client
 * answers under the client's process ID ({@link Caller#pid}), the one its user sees.
 */
final class PvQuery {
    private static final String PROGRAM = "brisk pv";

    private PvQuery() {}

    /**
     * The per-user exchange directory: /run/user/UID if it exists, else $HOME/.pv (made 0700 if
     * {@code create}). Refused unless it is a directory of our own that no one else may use.
     */
    static Path directory(boolean create) throws IOException {
        long me = uid(Path.of("/proc/self"));
        Path run = Path.of("/run/user", Long.toString(me));
        Path dir = run;
        if (!(Files.isDirectory(run) && Files.isWritable(run))) {
            String home = Environ.get("HOME"); // as pv: $HOME, not the password file's home
            dir = Path.of(home != null && !home.isEmpty() ? home : System.getProperty("user.home"), ".pv");
            if (create && !Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
        }
        if (Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            int mode = (Integer) Files.getAttribute(dir, "unix:mode", java.nio.file.LinkOption.NOFOLLOW_LINKS);
            if (uid(dir) != me || (mode & 077) != 0) {
                throw new IOException(dir + ": not a private directory of this user (owner or mode)");
            }
        }
        return dir;
    }

    static long uid(Path proc) throws IOException {
        return ((Number) Files.getAttribute(proc, "unix:uid")).longValue();
    }

    /**
     * The listener a copying brisk pv adds so that it can be queried: at each update, one stat of
     * its query file (the directory is found at the first update, off the start-up path, and
     * never created here).
     */
    static ProgressListener responder() {
        long pid = Caller.current().pid();
        Path[] files = new Path[2];
        return p -> {
            if (files[0] == null) {
                try {
                    Path dir = directory(false);
                    files[0] = dir.resolve("brisk-pv." + pid + ".query");
                    files[1] = dir.resolve("brisk-pv." + pid + ".state");
                } catch (IOException | RuntimeException e) {
                    return; // nowhere to answer from: the copy itself goes on
                }
            }
            if (Files.exists(files[0])) {
                write(files[1], p);
            }
        };
    }

    private static void write(Path state, Progress p) {
        String text = String.format(Locale.ROOT, "bytes %d%ncount %d%nsize %d%nelapsed %d%nrate %.6f%naverage %.6f%neta %d%nfinished %b%n",
                p.bytes(), p.count(), p.size(), p.elapsedNanos(), p.rate(), p.averageRate(), p.etaNanos(), p.finished());
        try {
            Path tmp = Files.createTempFile(state.getParent(), ".brisk-pv-", ".tmp");
            Files.writeString(tmp, text);
            Files.move(tmp, state, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            // the querier will see nothing new; the copy must not suffer
        }
    }

    /** Runs the query: pv's exit status 1 when the process cannot be queried. */
    static int run(PvCommand cmd, String pidText, long intervalNanos) {
        if (!pidText.matches("\\d{1,9}") || Long.parseLong(pidText) < 1) {
            cmd.err().println(PROGRAM + ": -Q: " + pidText + ": integer argument expected");
            return PvExit.USAGE.bit();
        }
        long pid = Long.parseLong(pidText);
        Path proc = Path.of("/proc", pidText);
        Path query = null;
        Path state = null;
        try {
            if (!Files.isDirectory(proc)) {
                cmd.err().println(PROGRAM + ": " + pid + ": No such process");
                return 1;
            }
            if (uid(proc) != uid(Path.of("/proc/self"))) {
                cmd.err().println(PROGRAM + ": " + pid + ": Operation not permitted (another user's process)");
                return 1;
            }
            Path dir = directory(true);
            query = dir.resolve("brisk-pv." + pid + ".query");
            state = dir.resolve("brisk-pv." + pid + ".state");
            Files.deleteIfExists(state);
            Files.writeString(query, Caller.current().pid() + "\n");
            StderrDisplay display = cmd.display(cmd.name);
            long waited = 0;
            Progress last = null;
            while (true) {
                TimeUnit.NANOSECONDS.sleep(intervalNanos);
                Progress p = read(state);
                boolean alive = Files.isDirectory(proc);
                if (p == null) {
                    waited += intervalNanos;
                    if (!alive || waited > TimeUnit.SECONDS.toNanos(5) + 2 * intervalNanos) {
                        cmd.err().println(PROGRAM + ": " + pid + ": " + (alive ? "no reply (not a running brisk pv?)"
                                : "No such process"));
                        return 1;
                    }
                    continue;
                }
                last = p;
                if (p.finished() || !alive) {
                    break;
                }
                if (display != null) {
                    display.onProgress(p);
                }
            }
            if (display != null) {
                display.onProgress(new Progress(last.bytes(), last.count(), last.size(), last.elapsedNanos(), last.rate(),
                        last.averageRate(), last.etaNanos(), true, false, new byte[0]));
            }
            return 0;
        } catch (IOException e) {
            cmd.err().println(PROGRAM + ": " + pid + ": " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            return PvExit.SIGNAL.bit();
        } catch (PvCommand.BadValue e) {
            cmd.err().println(PROGRAM + ": " + e.getMessage());
            return PvExit.USAGE.bit();
        } finally {
            try {
                if (query != null) {
                    Files.deleteIfExists(query);
                }
                if (state != null) {
                    Files.deleteIfExists(state);
                }
            } catch (IOException e) {
                // left for the next query to replace
            }
        }
    }

    /** The snapshot in a state file, or null when there is none (yet). */
    private static Progress read(Path state) {
        try {
            Map<String, String> m = new HashMap<>();
            for (String line : Files.readAllLines(state, StandardCharsets.UTF_8)) {
                int sp = line.indexOf(' ');
                if (sp > 0) {
                    m.put(line.substring(0, sp), line.substring(sp + 1));
                }
            }
            return new Progress(Long.parseLong(m.get("bytes")), Long.parseLong(m.get("count")), Long.parseLong(m.get("size")),
                    Long.parseLong(m.get("elapsed")), Double.parseDouble(m.get("rate")), Double.parseDouble(m.get("average")),
                    Long.parseLong(m.get("eta")), Boolean.parseBoolean(m.get("finished")), false, new byte[0]);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
