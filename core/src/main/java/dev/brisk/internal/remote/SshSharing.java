// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import dev.brisk.internal.posix.Caller;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * ssh's own connection sharing for the runs of a warm server ({@code ControlMaster},
 * {@code ControlPersist}): the first run's ssh to a host becomes a master that stays logged in for
 * the persist time after its last session ends, and a later run's ssh to the same host opens a
 * session over it (~10 ms here) instead of logging in again (130-330 ms). Only a warm server's call
 * shares (a direct run leaves nothing behind when its JVM exits), only once the server has named
 * its private directory ({@link #enable}), and only for a plain {@code ssh} command line that
 * sets none of {@code ControlMaster}, {@code ControlPath} or {@code ControlPersist} itself, nor in
 * the ssh configuration it reads ({@code ssh -G}): a user who shares connections already keeps
 * their own way.
 *
 * <p>Each distinct ssh command line (the user's words, port and host) has a control socket of its
 * own, {@code ssh-HASH} in the server's directory; the masters are ssh's processes, detached from
 * the server, and end by themselves after the persist time, when their host goes, or (once
 * idle) after {@link #stopAll}. Thread-safe.
 */
public final class SshSharing {
    /** The server's private directory (mode 0700), or null: nothing is shared. */
    private static volatile Path directory;

    /** {@code ssh -G}'s answers, by its argument vector: whether the configuration leaves sharing to us. */
    private static final Map<List<String>, Probe> PROBES = new ConcurrentHashMap<>();

    /** How long {@code ssh -G} may take before the run logs in without sharing. */
    private static final long PROBE_SECONDS = 5;

    /** The longest control socket path ssh can bind: {@code sun_path} less its 17-byte temporary suffix. */
    private static final int MAX_PATH = 107 - 17;

    private record Probe(CompletableFuture<Boolean> free, long until) {}

    private SshSharing() {}

    /**
     * Lets the warm server's calls share ssh connections through control sockets in {@code dir},
     * which must be the user's private directory (no other user may enter it).
     */
    public static void enable(Path dir) {
        directory = dir.toAbsolutePath();
    }

    /**
     * The ssh options that share this connection ({@code -o ControlMaster=auto -o ControlPath=...
     * -o ControlPersist=SECONDS}), or none: a direct run, {@code persist} zero, no directory, an
     * ssh command brisk does not read as plain words or that sets sharing itself. May run
     * {@code ssh -G} once per command line and persist time (its answer stands that long after
     * its last use).
     *
     * @param words the user's ssh command as words (its program first), or null when it needs a shell
     * @param target the arguments that name the host ({@code [-p PORT] HOST})
     */
    static List<String> options(List<String> words, List<String> target, Duration persist) {
        Path dir = directory;
        if (dir == null || persist.isZero() || persist.isNegative() || Caller.current().self() || words == null
                || !Path.of(words.getFirst()).getFileName().toString().equals("ssh") || setsSharing(words)) {
            return List.of();
        }
        List<String> key = new ArrayList<>(words);
        key.addAll(target);
        String socket = dir.resolve("ssh-" + hash(key)).toString();
        // ssh splits an option's value at blanks and expands %, ~ and ${}: only a path it takes as it is
        if (socket.length() > MAX_PATH || !socket.matches("[A-Za-z0-9/._+,@:-]+")) {
            return List.of();
        }
        long seconds = Math.max(1, persist.toSeconds());
        if (!configLeavesSharing(key, seconds)) {
            return List.of();
        }
        return List.of("-o", "ControlMaster=auto", "-o", "ControlPath=" + socket, "-o", "ControlPersist=" + seconds);
    }

    /**
     * Whether {@code argv} (a transport's command) opens a session over a kept login: it names a
     * control socket ({@link #options}) that exists now. Such a start costs no login, so it need
     * not wait for the others' ({@link Prestart}).
     */
    static boolean kept(List<String> argv) {
        for (String w : argv) {
            if (w.startsWith("ControlPath=")) {
                return Files.exists(Path.of(w.substring("ControlPath=".length())));
            }
        }
        return false;
    }

    /**
     * Whether the user's own words set sharing: a {@code Control*} option, or {@code -M} or
     * {@code -S} (perhaps after other flags that take no value, {@code -TM}).
     */
    static boolean setsSharing(List<String> words) {
        for (String w : words.subList(1, words.size())) {
            String lower = w.toLowerCase(java.util.Locale.ROOT);
            if (lower.contains("controlmaster") || lower.contains("controlpath") || lower.contains("controlpersist")
                    || w.matches("-[46AaCfGgKkNnqsTtVvXxYy]*[MS].*")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code ssh -G}'s report of the configuration leaves sharing unset: {@code
     * controlmaster false}, {@code controlpersist no} and no {@code controlpath}.
     */
    static boolean leavesSharing(String report) {
        boolean master = false;
        boolean persist = false;
        for (String line : report.lines().toList()) {
            String l = line.strip().toLowerCase(java.util.Locale.ROOT);
            if (l.startsWith("controlpath ") && !l.equals("controlpath none")) {
                return false;
            }
            master |= l.equals("controlmaster false");
            persist |= l.equals("controlpersist no");
        }
        return master && persist;
    }

    /** {@code ssh -G}'s answer for {@code key} (the ssh command line less the remote command), cached. */
    private static boolean configLeavesSharing(List<String> key, long seconds) {
        long now = System.nanoTime();
        PROBES.values().removeIf(p -> p.until() - now < 0);
        long until = now + TimeUnit.SECONDS.toNanos(seconds);
        Probe fresh = new Probe(new CompletableFuture<>(), until);
        Probe p = PROBES.compute(key, (k, old) -> old == null ? fresh : new Probe(old.free(), until));
        if (p.free() == fresh.free()) {
            fresh.free().complete(probe(key));
        }
        return p.free().join();
    }

    private static boolean probe(List<String> key) {
        List<String> argv = new ArrayList<>(key);
        argv.add(key.size() - targetLength(key), "-G");
        Process process = null;
        try {
            process = CallerProcess.builder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            // its report (a few KiB) fits in the pipe: it ends without our reading
            if (!process.waitFor(PROBE_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
                return false;
            }
            return leavesSharing(new String(process.getInputStream().readNBytes(1 << 20), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            if (process != null) {
                process.destroyForcibly();
            }
        }
    }

    /** How many of {@code key}'s last words name the host: {@code -p PORT HOST} or {@code HOST}. */
    private static int targetLength(List<String> key) {
        return key.size() >= 3 && key.get(key.size() - 3).equals("-p") ? 3 : 1;
    }

    private static String hash(List<String> words) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (String w : words) {
                d.update(w.getBytes(StandardCharsets.UTF_8));
                d.update((byte) 0);
            }
            return HexFormat.of().formatHex(d.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Retires every master in the server's directory ({@code ssh -O stop}): each stops taking new
     * sessions at once (its socket goes) and exits when its last session ends, so that a run still
     * using it (another build's server's) goes on. Waits at most a few seconds in all: for a
     * server that stops.
     */
    public static void stopAll() {
        Path dir = directory;
        if (dir == null) {
            return;
        }
        List<Process> exits = new ArrayList<>();
        try (DirectoryStream<Path> sockets = Files.newDirectoryStream(dir, "ssh-*")) {
            for (Path s : sockets) {
                exits.add(new ProcessBuilder("ssh", "-o", "ControlPath=" + s, "-O", "stop", "brisk")
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start());
            }
        } catch (IOException e) {
            // no directory, no ssh: nothing to stop
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        for (Process p : exits) {
            try {
                if (!p.waitFor(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
