// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

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
 * and removes the file: under the lock it writes {@code gone} into it and unlinks it, so a meter
 * that opened the file before and locks it after sees the mark and opens the name again (the
 * file there then, or a new one): a group never splits between two files.
 *
 * <p>Thread-safe between processes through the file lock; one instance per meter.
 */
public final class RowClaim {
    private final Path file;
    private final int row;

    private RowClaim(Path file, int row) {
        this.file = file;
        this.row = row;
    }

    /**
     * Claims a row on the display open as {@code fd} in this process; null when the display
     * cannot be identified or the lock file cannot be used (then draw as if alone, on row 0).
     */
    public static RowClaim claim(int fd) {
        try {
            Path display = Path.of("/proc/self/fd/" + fd);
            long dev = ((Number) Files.getAttribute(display, "unix:dev")).longValue();
            long ino = ((Number) Files.getAttribute(display, "unix:ino")).longValue();
            String runtime = System.getenv("XDG_RUNTIME_DIR");
            Path file = runtime != null && !runtime.isEmpty() && Files.isDirectory(Path.of(runtime))
                    ? Path.of(runtime, "brisk-pv-" + dev + "-" + ino + ".rows")
                    : Path.of(System.getProperty("java.io.tmpdir", "/tmp"), "brisk-pv-"
                            + Files.getAttribute(Path.of("/proc/self"), "unix:uid") + "-" + dev + "-" + ino + ".rows");
            long pid = ProcessHandle.current().pid();
            return withLock(file, false, rows -> {
                int free = rows.indexOf(0L); // several rows may hold this pid: pv -d PID
                if (free < 0) {
                    free = rows.size();
                    rows.add(pid);
                } else {
                    rows.set(free, pid);
                }
                return new RowClaim(file, free);
            });
        } catch (IOException | RuntimeException e) {
            return null;
        }
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
            withLock(file, true, rows -> {
                if (row < rows.size()) {
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

    /** What a removed file holds: whoever locks it after its removal opens the name again. */
    private static final String GONE = "gone";
    /**
     * How many times a meter opens the name again on finding the mark; after that the mark is a
     * leftover (its remover killed between mark and unlink) and the file is used as empty.
     */
    private static final int GONE_RETRIES = 3;

    /**
     * Reads the rows (dead holders freed), applies {@code edit}, writes them back, under the lock;
     * when {@code removeEmpty} and no row is left in use, removes the file instead.
     */
    private static synchronized <T> T withLock(Path file, boolean removeEmpty, Edit<T> edit) throws IOException {
        // synchronized: the meters of one process (pv -d PID) share a pid and a JVM, where a
        // second fcntl lock on the same file would throw rather than wait
        for (int attempt = 0; ; attempt++) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                FileLock lock = ch.lock(); // released when the channel closes
                assert lock.isValid();
                String text = read(ch);
                if (text.startsWith(GONE) && attempt < GONE_RETRIES) {
                    continue; // removed while this meter waited for the lock: the name's file now
                }
                List<Long> rows = parseRows(text);
                T result = edit.apply(rows);
                if (removeEmpty && rows.isEmpty()) {
                    ch.truncate(0);
                    ch.write(ByteBuffer.wrap((GONE + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
                    Files.deleteIfExists(file);
                    return result;
                }
                StringBuilder out = new StringBuilder().append(rows.size()).append('\n');
                for (long p : rows) {
                    out.append(p).append('\n');
                }
                ch.truncate(0);
                ch.write(ByteBuffer.wrap(out.toString().getBytes(StandardCharsets.US_ASCII)), 0);
                return result;
            }
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
        String[] lines = text.split("\n");
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
