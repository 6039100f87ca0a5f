// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.internal.shell.ShellQuote;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code brisk par --semaphore} (GNU's {@code sem}): one command run when one of a named
 * semaphore's slots is free, the slots shared by every call with the same name, in the place
 * and shape GNU parallel keeps them: {@code $PARALLEL_HOME/semaphores} (else
 * {@code ~/.parallel/semaphores}), a directory {@code id-NAME} holding a file {@code id-NAME} and
 * one hard link to it, {@code PID@HOST}, per holder; a call takes a slot while the file has fewer
 * links than its {@code -j} + 1. A holder that died is removed by the next call that waits. The
 * directory is changed under a lock on {@code id-NAME.lock} (an fcntl lock, where GNU's is a
 * flock: the two do not exclude each other, so brisk's and GNU's calls racing on one name may
 * both take the last slot).
 *
 * <p>Runs in a JVM of its own (the job inherits its standard input, output and error, and a
 * background job outlives the call): {@link ParCommand#directReason}.
 */
final class ParSemaphore {
    /**
     * One call: the command to run ({@code shell -c command}), the semaphore's name and slots,
     * its timeout in seconds (0: none; above 0: take the slot anyway; below 0: give up, status 1),
     * whether the job runs in the foreground, and its standard input (null: the caller's);
     * whether its output is grouped (not {@code -u}/{@code --lb}) and, so, prefixed with
     * {@code tag} and a TAB on each line (null: no {@code --tag}/{@code --tagstring}); the
     * directory of the grouped output's files ({@code $TMPDIR}).
     */
    record Request(byte[] command, String shell, String name, int slots, double timeout, boolean foreground,
            Path stdin, Path home, boolean grouped, byte[] tag, Path tmp) {}

    private final Request request;
    private final Path lockDir;
    private final Path idFile;
    private final Path lockFile;
    private final String host;
    private final OutputStream err;

    private ParSemaphore(Request request, OutputStream err) throws IOException {
        this.request = request;
        this.err = err;
        String id = "id-" + escaped(request.name());
        Path all = request.home().resolve("semaphores");
        Files.createDirectories(all);
        if (!Files.isWritable(all)) {
            throw new IOException("Semaphoredir must be writable: '" + all + "'");
        }
        lockDir = all.resolve(id);
        idFile = lockDir.resolve(id);
        lockFile = all.resolve(id + ".lock");
        host = hostname();
    }

    /**
     * Runs {@code request}: waits for a slot, then runs the command. In the foreground it waits
     * for it, frees the slot and returns its status (128 + N for signal N); in the background it
     * hands the slot to the job's process and returns 0 at once (the job frees it when it ends,
     * or the next waiting call when it died).
     */
    static int run(Request request, OutputStream err) throws IOException {
        ParSemaphore s = new ParSemaphore(request, err);
        Path[] files = request.grouped() ? outputFiles(request.tmp()) : null;
        Path mine = s.holder(ProcessHandle.current().pid());
        boolean acquired = false;
        try {
            acquired = s.acquire(mine);
        } finally {
            if (!acquired) {
                removeAll(files); // given up (--st -N) or failed: no job will open them
            }
        }
        if (!acquired) {
            return 1;
        }
        try {
            // the job's own shell (its $$ the job's) under bash, which holds its output and the slot
            // (dash would write "Terminated" into the job's stderr when a signal ends the job)
            boolean wrapped = files != null || !request.foreground();
            List<String> argv = wrapped
                    ? List.of("/bin/bash", "-c", new String(s.wrapper(files), StandardCharsets.UTF_8), "sh", request.shell(),
                            new String(request.command(), StandardCharsets.UTF_8))
                    : List.of(request.shell(), "-c", new String(request.command(), StandardCharsets.UTF_8));
            ProcessBuilder pb = new ProcessBuilder(argv)
                    .redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectInput(request.stdin() == null ? ProcessBuilder.Redirect.INHERIT
                            : ProcessBuilder.Redirect.from(request.stdin().toFile()));
            pb.environment().put("PARALLEL_SEQ", "1");
            pb.environment().put("PARALLEL_JOBSLOT", "1");
            pb.directory(new File(dev.brisk.internal.posix.Caller.workingDirectory()));
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                s.release(mine);
                removeAll(files);
                throw new IOException(argv.getFirst() + ": " + e.getMessage(), e);
            }
            if (!request.foreground()) {
                // the slot is the job's from now on: a link named after its pid, then ours goes
                s.link(s.holder(p.pid()));
                s.release(mine);
                return 0;
            }
            try {
                return p.waitFor();
            } catch (InterruptedException e) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                Thread.currentThread().interrupt();
                return 130;
            } finally {
                s.release(mine);
            }
        } catch (IOException | RuntimeException e) {
            s.release(mine);
            removeAll(files);
            throw e;
        }
    }

    /** The two files of a grouped job's stdout and stderr, made before the wait for a slot so that a bad directory is said at once. */
    private static Path[] outputFiles(Path dir) throws IOException {
        Path[] files = new Path[2];
        try {
            for (int i = 0; i < 2; i++) {
                files[i] = Files.createTempFile(dir, "par", ".par");
            }
            return files;
        } catch (IOException e) {
            removeAll(files);
            String why = e instanceof NoSuchFileException ? "No such file or directory"
                    : e instanceof java.nio.file.AccessDeniedException ? "Permission denied" : e.getMessage();
            throw new BadTmpdir("cannot make a temporary file in " + dir + ": " + why, e);
        }
    }

    /** The directory for a grouped job's output cannot take its files: bad input, said before any wait. */
    static final class BadTmpdir extends IOException {
        private static final long serialVersionUID = 1L;

        BadTmpdir(String message, IOException cause) {
            super(message, cause);
        }
    }

    private static void removeAll(Path[] files) throws IOException {
        if (files != null) {
            for (Path f : files) {
                if (f != null) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    /**
     * The script of the {@code bash} that runs the job's shell ({@code "$1" -c "$2"}: its
     * {@code $$} is the job's) and then, in the background, removes the semaphore's link named
     * after its own pid ({@code $$}, the process the call linked). Grouped ({@code files}: the
     * job's stdout's and stderr's files), as GNU's sem groups a job's output: the job writes to
     * the two files (opened, and removed, before it starts, so a killed job leaves none), which
     * are then printed, stdout's first, each line after the tag.
     */
    private byte[] wrapper(Path[] files) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        // the caller's stderr is fd 7: the wrapper's own words, if any, go nowhere
        b.writeBytes("exec 7>&2 2>/dev/null\n".getBytes(StandardCharsets.US_ASCII));
        if (files == null) {
            b.writeBytes("\"$1\" -c \"$2\" 2>&7 7>&-\n".getBytes(StandardCharsets.US_ASCII));
        } else {
            String out = ShellQuote.quote(files[0].toString());
            String err = ShellQuote.quote(files[1].toString());
            b.writeBytes(("exec 3>" + out + " 4>" + err + " 5<" + out + " 6<" + err + "; rm -f " + out + " " + err + "\n"
                    + "\"$1\" -c \"$2\" >&3 2>&4 3>&- 4>&- 5<&- 6<&- 7>&-\n").getBytes(StandardCharsets.UTF_8));
        }
        b.writeBytes("_s=$?\n".getBytes(StandardCharsets.US_ASCII));
        if (files != null) {
            // stdout's copy fails on a full disk: its error's reason in brisk's words, status 255
            byte[] print = request.tag() == null ? "cat".getBytes(StandardCharsets.US_ASCII)
                    : ("sed " + ShellQuote.quoteLatin1(sedPrefix(request.tag()))).getBytes(StandardCharsets.ISO_8859_1);
            b.writeBytes("exec 3>&- 4>&- 8>&1\nif ! _e=$(".getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(print);
            b.writeBytes(" <&5 2>&1 >&8); then printf 'brisk par: %s\\n' \"${_e##*: }\" >&7; _s=255; fi\n"
                    .getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(print);
            b.writeBytes(" <&6 >&7 2>/dev/null || _s=255\n".getBytes(StandardCharsets.US_ASCII));
        }
        if (!request.foreground()) {
            b.writeBytes(("rm -f " + ShellQuote.quote(lockDir.toString()) + "/\"$$\"" + ShellQuote.quote("@" + host) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        b.writeBytes("exit $_s\n".getBytes(StandardCharsets.US_ASCII));
        return b.toByteArray();
    }

    /** A sed script that puts {@code tag} and a TAB before each line (its bytes as ISO-8859-1 chars). */
    private static byte[] sedPrefix(byte[] tag) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.writeBytes("s/^/".getBytes(StandardCharsets.US_ASCII));
        for (byte x : tag) {
            if (x == '\\' || x == '&' || x == '/' || x == '\n') {
                b.write('\\');
            }
            b.write(x);
        }
        b.writeBytes("\t/".getBytes(StandardCharsets.US_ASCII));
        return b.toByteArray();
    }

    private Path holder(long pid) {
        return lockDir.resolve(pid + "@" + host);
    }

    /** Waits for a slot and takes it as {@code mine}; false when the timeout (below 0) gave up. */
    private boolean acquire(Path mine) throws IOException {
        double sleepMillis = 1;
        long start = System.nanoTime();
        while (true) {
            if (linkIfFewer(mine)) {
                return true;
            }
            removeDead();
            sleepMillis = sleepMillis < 1000 ? sleepMillis * 1.1 : sleepMillis;
            try {
                Thread.sleep((long) (ThreadLocalRandom.current().nextDouble() * sleepMillis));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the semaphore");
            }
            double waited = (System.nanoTime() - start) / 1e9;
            if (request.timeout() > 0 && waited > request.timeout()) {
                warn("Semaphore timed out. Stealing the semaphore.");
                Files.createDirectories(lockDir);
                createIdFile();
                link(mine);
                return true;
            }
            if (request.timeout() < 0 && waited > -request.timeout()) {
                warn("Semaphore timed out. Exiting.");
                return false;
            }
        }
    }

    /** Under the lock: links {@code mine} when the id file has fewer links than the slots + 1. */
    private boolean linkIfFewer(Path mine) throws IOException {
        return underLock(() -> {
            if (links() >= request.slots() + 1) {
                return false;
            }
            Files.createDirectories(lockDir);
            createIdFile();
            link(mine);
            return true;
        });
    }

    /** What changes the semaphore's directory, run while this process holds the lock file's lock. */
    private interface Locked {
        boolean run() throws IOException;
    }

    private boolean underLock(Locked body) throws IOException {
        try (FileChannel c = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            c.lock(); // closing the channel unlocks
            return body.run();
        }
    }

    private void createIdFile() throws IOException {
        try {
            Files.createFile(idFile);
        } catch (FileAlreadyExistsException e) {
            // another call's
        }
    }

    private void link(Path holder) throws IOException {
        try {
            Files.createLink(holder, idFile);
        } catch (FileAlreadyExistsException e) {
            // a pid used again: the link is this holder's now
        }
    }

    private int links() throws IOException {
        try {
            return (Integer) Files.getAttribute(idFile, "unix:nlink");
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    /** Frees {@code mine}; the last holder removes the id file and the directory, under the lock. */
    private void release(Path mine) throws IOException {
        Files.deleteIfExists(mine);
        if (links() != 1) {
            return;
        }
        underLock(() -> {
            if (links() == 1) {
                Files.deleteIfExists(idFile);
                try {
                    Files.deleteIfExists(lockDir);
                } catch (java.nio.file.DirectoryNotEmptyException e) {
                    // a holder of another host's, or a stray file
                }
            }
            return true;
        });
    }

    private static final Pattern HOLDER = Pattern.compile("([0-9]+)@([-._a-z0-9]+)");

    /** Removes the links of this host's holders whose process is gone. */
    private void removeDead() throws IOException {
        if (!Files.isDirectory(lockDir)) {
            return;
        }
        try (DirectoryStream<Path> d = Files.newDirectoryStream(lockDir)) {
            for (Path p : d) {
                Matcher m = HOLDER.matcher(p.getFileName().toString());
                if (m.matches() && m.group(2).equals(host)
                        && !ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false)) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (NumberFormatException | NoSuchFileException e) {
            // not a pid; or the last holder removed the directory meanwhile
        }
    }

    private void warn(String message) throws IOException {
        err.write(("brisk par: Warning: " + message + "\n").getBytes(StandardCharsets.UTF_8));
        err.flush();
    }

    /** GNU parallel's file name for a semaphore's name: each byte but {@code [-_a-zA-Z0-9]} as two hex digits. */
    static String escaped(String name) {
        StringBuilder b = new StringBuilder();
        for (byte x : name.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (x & 0xff);
            if (c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
                b.append(c);
            } else {
                b.append(String.format("%02x", x & 0xff));
            }
        }
        return b.toString();
    }

    /** The semaphore's name without {@code --id}: as GNU parallel's, the terminal on stdin ({@code tty}'s answer). */
    static String terminalName() {
        try {
            String t = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
            return t.startsWith("/dev/pts/") || t.startsWith("/dev/tty") || t.equals("/dev/console") ? t : "not a tty";
        } catch (IOException | UnsupportedOperationException e) {
            return "not a tty";
        }
    }

    /** This machine's name (the kernel's), as {@code hostname} prints it. */
    static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "localhost";
        }
    }

    /** The words of a command line that make it a semaphore's, as long options (abbreviations of the long ones count). */
    static final List<String> OPTIONS = List.of("--semaphore", "--semaphore-name", "--semaphorename", "--id",
            "--semaphore-timeout", "--semaphoretimeout", "--st", "--bg", "--fg", "--wait");
}
