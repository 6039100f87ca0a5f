// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * This process's C environment ({@code environ}), as a child started with it inherits it, and
 * the room a command line has beside it ({@code ARG_MAX}).
 */
public final class Environ {
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;
    /** The size of a pointer in the argument vectors. */
    public static final long POINTER = ValueLayout.ADDRESS.byteSize();
    private static final int RLIMIT_STACK = 3;

    private Environ() {}

    /**
     * Whether the locale's character set is UTF-8, as the C library takes it from the
     * environment: the first of {@code LC_ALL}, {@code LC_CTYPE} and {@code LANG} that is set and
     * not empty names it ({@code C.UTF-8}, {@code en_US.utf8}); none: the C locale.
     */
    public static boolean utf8Locale() {
        for (String v : new String[] {"LC_ALL", "LC_CTYPE", "LANG"}) {
            String s = Caller.current().getenv(v);
            if (s != null && !s.isEmpty()) {
                s = s.toLowerCase(java.util.Locale.ROOT);
                return s.contains("utf-8") || s.contains("utf8");
            }
        }
        return false;
    }

    /**
     * The environment a child started now inherits: the current {@link Caller}'s, which is this
     * process's own {@code environ} unless a server runs a client's call on this thread. A
     * NULL-terminated array of "NAME=value" C strings.
     */
    public static MemorySegment pointer() {
        return Caller.current().environmentVector();
    }

    /** The caller's environment variable {@code name} (see {@link Caller#getenv}), or null. */
    public static String get(String name) {
        return Caller.current().getenv(name);
    }

    /**
     * The caller's directory for temporary files: {@code $TMPDIR}, else the first of
     * {@code others} ({@code pv} reads {@code $TMP} too), each only when set and not empty; null
     * when none is, for the tool's own default.
     */
    public static java.nio.file.Path temporaryDirectory(String... others) {
        String v = get("TMPDIR");
        for (int i = 0; (v == null || v.isEmpty()) && i < others.length; i++) {
            v = get(others[i]);
        }
        return v == null || v.isEmpty() ? null : java.nio.file.Path.of(v);
    }

    /** This process's own {@code environ}. */
    static MemorySegment processPointer() {
        MemorySegment cell = Linker.nativeLinker().defaultLookup().find("environ").orElseThrow()
                .reinterpret(POINTER);
        return cell.get(ValueLayout.ADDRESS, 0);
    }

    /**
     * The bytes the environment takes of a new program's argument space, as the kernel counts
     * them: each string with its NUL, and a pointer per string plus the terminating NULL.
     */
    public static long size() {
        return measure(POINTER, POINTER);
    }

    /** The bytes of the environment's strings, each with its NUL (no pointers), as xargs and find count it. */
    public static long stringBytes() {
        return measure(0, 0);
    }

    /** The environment's string bytes with their NULs, plus {@code perString} for each string and {@code end} once. */
    private static long measure(long perString, long end) {
        MemorySegment env = pointer().reinterpret(Long.MAX_VALUE);
        long total = 0;
        for (long i = 0; ; i++) {
            MemorySegment s = env.get(ValueLayout.ADDRESS, i * POINTER);
            if (s.address() == 0) {
                return total + end;
            }
            // ISO-8859-1 maps each byte to one char: the length is the C string's in bytes
            total += s.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.ISO_8859_1).length() + 1 + perString;
        }
    }

    /**
     * The limit on a new program's arguments plus environment in bytes, as glibc's
     * {@code sysconf(_SC_ARG_MAX)} computes it: a quarter of the stack limit, at least 128 KiB.
     * The stack limit is the one a child started now gets: the current {@link Caller}'s (at most
     * our hard limit, as {@link Spawn} gives it), else ours.
     */
    public static long argMax() {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment lim = arena.allocate(16, 8);
            if (Syscall.call(Syscall.GETRLIMIT, RLIMIT_STACK, lim.address(), 0, 0) != 0) {
                return 131072;
            }
            long soft = lim.get(L, 0);
            long[][] callers = Caller.current().limits();
            if (callers != null && callers.length > RLIMIT_STACK && callers[RLIMIT_STACK] != null) {
                long hard = lim.get(L, 8);
                long theirs = callers[RLIMIT_STACK][0];
                soft = Long.compareUnsigned(theirs, hard) > 0 ? hard : theirs;
            }
            return soft < 0 ? Long.MAX_VALUE / 4 : Math.max(131072, soft / 4);
        }
    }
}
