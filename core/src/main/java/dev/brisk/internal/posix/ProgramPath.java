// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds a program on PATH by the one rule brisk uses everywhere, {@code execvp(3)}'s: a name
 * with a slash is used as it is; otherwise each PATH entry in turn, an EMPTY entry meaning the
 * current directory, and the first regular file there that we may execute wins. When none does,
 * the error is EACCES if some entry held a file of that name we may not execute (or a
 * directory), else ENOENT. PATH unset means glibc's default, {@code /bin:/usr/bin}.
 *
 * <p>Results are kept, as a shell's hash table keeps them: a spawn that then fails with ENOENT
 * (the program was removed) should {@link #forget} the name and look again. Names and paths are
 * bytes. Thread-safe.
 */
public final class ProgramPath {
    private static final byte[] DEFAULT = "/bin:/usr/bin".getBytes(StandardCharsets.US_ASCII);

    /** A found program (its path, NUL-terminated for a spawn) or why there is none ({@code errno} &gt; 0). */
    public record Program(byte[] path, MemorySegment cPath, int errno) {
        public boolean found() {
            return errno == 0;
        }
    }

    private final List<byte[]> dirs;
    private final boolean relative;
    private final Map<String, Program> cache = new ConcurrentHashMap<>();

    /** A lookup over {@code path}, a PATH value as bytes ({@code null}: unset). */
    public ProgramPath(byte[] path) {
        this.dirs = split(path == null ? DEFAULT : path);
        this.relative = dirs.stream().anyMatch(d -> d.length == 0 || d[0] != '/');
    }

    /** A lookup over {@code path}, a PATH value ({@code null}: unset). */
    public static ProgramPath of(String path) {
        return new ProgramPath(path == null ? null : path.getBytes(StandardCharsets.UTF_8));
    }

    private static List<byte[]> split(byte[] path) {
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= path.length; i++) {
            if (i == path.length || path[i] == ':') {
                byte[] d = new byte[i - start];
                System.arraycopy(path, start, d, 0, d.length);
                out.add(d);
                start = i + 1;
            }
        }
        return out;
    }

    /** The program {@code name} runs, looked up once and kept. */
    public Program find(byte[] name) {
        return cache.computeIfAbsent(new String(name, StandardCharsets.ISO_8859_1), k -> search(name, null));
    }

    /**
     * The program {@code name} runs in a child that first changes to {@code dir}: PATH's relative
     * entries (an empty one among them) are looked up from {@code dir}, and a path found through
     * one is relative to it. Looked up each time when PATH has relative entries.
     */
    public Program findFrom(byte[] dir, byte[] name) {
        return relative ? search(name, dir) : find(name);
    }

    /** Drops what was found for {@code name}, so the next {@link #find} looks again. */
    public void forget(byte[] name) {
        cache.remove(new String(name, StandardCharsets.ISO_8859_1));
    }

    private Program search(byte[] name, byte[] base) {
        if (name.length == 0) {
            return new Program(null, null, Errno.ENOENT);
        }
        for (byte b : name) {
            if (b == '/') {
                return program(name);
            }
        }
        boolean denied = false;
        for (byte[] dir : dirs) {
            byte[] candidate = join(dir.length == 0 ? new byte[] {'.'} : dir, name);
            boolean fromBase = base != null && (dir.length == 0 || dir[0] != '/');
            switch (check(fromBase ? join(base, candidate) : candidate)) {
                case 0 -> {
                    return program(candidate);
                }
                case Errno.EACCES -> denied = true;
                default -> { } // not there: the next entry
            }
        }
        return new Program(null, null, denied ? Errno.EACCES : Errno.ENOENT);
    }

    private static Program program(byte[] path) {
        return new Program(path, Libc.cString(Arena.ofAuto(), path), 0);
    }

    private static byte[] join(byte[] dir, byte[] name) {
        boolean slash = dir[dir.length - 1] == '/';
        byte[] p = new byte[dir.length + (slash ? 0 : 1) + name.length];
        System.arraycopy(dir, 0, p, 0, dir.length);
        if (!slash) {
            p[dir.length] = '/';
        }
        System.arraycopy(name, 0, p, p.length - name.length, name.length);
        return p;
    }

    /** Whether {@code path} is a regular file we may execute. */
    public static boolean runnable(byte[] path) {
        return check(path) == 0;
    }

    /**
     * 0 when {@code path} is a regular file we may execute, EACCES when something of that name
     * is there that we may not execute (execve would say EACCES), else the error that says it is
     * not there.
     */
    static int check(byte[] path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errno.state();
            MemorySegment p = Libc.cString(arena, path);
            MemorySegment buf = arena.allocate(Statx.SIZE, 8);
            if (Statx.call(state, Flags.AT_FDCWD, p, 0, buf) != 0) {
                int e = Errno.read(state);
                return e == Errno.EACCES ? Errno.EACCES : e;
            }
            if ((Statx.mode(Statx.words(buf)) & 0170000) != 0100000) {
                return Errno.EACCES;
            }
            return Syscall.call(state, Syscall.FACCESSAT, Flags.AT_FDCWD, p.address(), Flags.X_OK, 0, 0) == 0
                    ? 0 : Errno.EACCES;
        }
    }
}
