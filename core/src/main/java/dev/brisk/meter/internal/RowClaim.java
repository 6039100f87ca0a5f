// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Environ;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One meter's claim on a row of a shared display (pv {@code -c}): every meter drawing on the
 * same terminal (or the same file) takes the lowest free row offset below the line the cursor
 * was on, so several meters in one pipeline draw on separate lines.
 *
 * <p>The claims live in a lock file named after the display's device and inode
 * ({@code $XDG_RUNTIME_DIR/brisk-pv-DEV-INO.rows}, else {@code /tmp/brisk-pv-UID-DEV-INO.rows}),
 * read and rewritten under an exclusive {@code fcntl} lock: its first line is the number of rows
 * in use since the group started, the next lines the process ID holding each row (0 when free).
 * A row whose holder has died is free again, and a group whose holders have all gone starts
 * over. The last meter of a group to {@link #release} learns so, to move the cursor below it,
 * and removes the file: under the lock it writes a mark into it ({@code gone PID TIME}) and
 * unlinks it, so a meter that opened the file before and locks it after sees the mark and opens
 * the name again (the file there then, or a new one): a group never splits between two files. A
 * mark the name itself still holds is a leftover (its remover was killed before the unlink): that
 * file is the name's, and is used as empty.
 *
 * <p>Thread-safe between processes through the file lock; one instance per meter.
 */
public final class RowClaim {
    /** The first word of a removed file's mark. */
    private static final String GONE = "gone ";

    private final Path file;
    private final int row;
    private final long pid;

    private RowClaim(Path file, int row, long pid) {
        this.file = file;
        this.row = row;
        this.pid = pid;
    }

    /**
     * Claims a row on the display open as {@code fd} in this process, for the current
     * {@link Caller} (its process ID holds the row); null when the display
     * cannot be identified or the lock file cannot be used (then draw as if alone, on row 0).
     */
    public static RowClaim claim(int fd) {
        try {
            Path file = fileOf(Path.of("/proc/self/fd/" + fd));
            long pid = Caller.current().pid(); // a server's client: its pid, whose death frees the row
            return withLock(file, rows -> {
                int free = rows.indexOf(0L); // several rows may hold this pid: pv -d PID
                if (free < 0) {
                    free = rows.size();
                    rows.add(pid);
                } else {
                    rows.set(free, pid);
                }
                return new RowClaim(file, free, pid);
            });
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The claims' file of the display {@code display} names ({@code $XDG_RUNTIME_DIR/brisk-pv-DEV-INO.rows},
     * else {@code /tmp/brisk-pv-UID-DEV-INO.rows}).
     */
    static Path fileOf(Path display) throws IOException {
        long dev = ((Number) Files.getAttribute(display, "unix:dev")).longValue();
        long ino = ((Number) Files.getAttribute(display, "unix:ino")).longValue();
        String runtime = Environ.get("XDG_RUNTIME_DIR");
        return runtime != null && !runtime.isEmpty() && Files.isDirectory(Path.of(runtime))
                ? Path.of(runtime, "brisk-pv-" + dev + "-" + ino + ".rows")
                : Path.of(System.getProperty("java.io.tmpdir", "/tmp"), "brisk-pv-"
                        + Files.getAttribute(Path.of("/proc/self"), "unix:uid") + "-" + dev + "-" + ino + ".rows");
    }

    /** This meter's row: 0 is the line the cursor was on, 1 the one below, and so on. */
    public int row() {
        return row;
    }

    /**
     * Gives the row back. Returns the number of rows the group used when this was the last
     * meter of its group (the caller then moves the cursor below them), else 0.
     */
    public int release() {
        try {
            int[] used = {0};
            withLock(file, rows -> {
                if (row < rows.size() && rows.get(row) == pid) {
                    rows.set(row, 0L);
                }
                if (rows.stream().allMatch(p -> p == 0L)) {
                    used[0] = Math.max(rows.size(), row + 1);
                    rows.clear();
                }
                return null;
            });
            return used[0];
        } catch (IOException | RuntimeException e) {
            return row + 1;
        }
    }

    private interface Edit<T> {
        T apply(List<Long> rows);
    }

    /**
     * Reads the rows (dead holders freed), applies {@code edit}, writes them back, under the lock;
     * when no row is left in use, marks the file gone and removes it instead.
     */
    private static synchronized <T> T withLock(Path file, Edit<T> edit) throws IOException {
        // synchronized: the meters of one process (pv -d PID) share a pid and a JVM, where a
        // second fcntl lock on the same file would throw rather than wait
        while (true) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                FileLock lock = ch.lock(); // released when the channel closes
                assert lock.isValid();
                String text = read(ch);
                if (text.startsWith(GONE) && !text.equals(atName(file))) {
                    // removed while this meter waited for the lock: the name's file now (a
                    // mark the name still holds is this very file, left by a killed remover)
                    continue;
                }
                // here the open file is the name's: removal happens only under its lock
                List<Long> rows = parseRows(text);
                T result = edit.apply(rows);
                StringBuilder out = new StringBuilder();
                if (rows.isEmpty()) { // only a release leaves none: the group has gone
                    out.append(GONE).append(ProcessHandle.current().pid()).append(' ').append(System.nanoTime()).append('\n');
                } else {
                    out.append(rows.size()).append('\n');
                    rows.forEach(p -> out.append(p).append('\n'));
                }
                ch.truncate(0);
                ch.write(ByteBuffer.wrap(out.toString().getBytes(StandardCharsets.US_ASCII)), 0);
                if (rows.isEmpty()) {
                    Files.deleteIfExists(file);
                }
                return result;
            }
        }
    }

    /** What the file at {@code file}'s name holds now (unlocked), or null when there is none. */
    private static String atName(Path file) throws IOException {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }

    private static String read(FileChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(ch.size(), 1 << 16));
        int n = 0;
        while (buf.hasRemaining() && n >= 0) {
            n = ch.read(buf);
        }
        return new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII);
    }

    /** The rows a file's text holds, those of dead holders freed; none when all are free. */
    private static List<Long> parseRows(String text) {
        List<Long> rows = new ArrayList<>();
        String[] lines = text.startsWith(GONE) ? new String[0] : text.split("\n");
        for (int i = 1; i < lines.length; i++) {
            long pid = parse(lines[i]);
            rows.add(pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? pid : 0L);
        }
        if (rows.stream().allMatch(p -> p == 0L)) {
            rows.clear(); // everyone has gone: a new group starts on the cursor's line
        }
        return rows;
    }

    private static long parse(String s) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
