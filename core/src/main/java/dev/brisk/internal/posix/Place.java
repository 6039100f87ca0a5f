// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * Whether another process sees the files and processes this one sees: the same mount namespace,
 * pid namespace and root directory, compared by the device and inode of {@code /proc/PID/ns/mnt},
 * {@code ns/pid} and {@code root}. A warm server answers a caller from another place (a
 * container, {@code unshare -m}, a chroot) with "run it yourself": its paths, mount table and
 * process ids would be the server's, not the caller's.
 */
public final class Place {
    private static final String[] FILES = {"ns/mnt", "ns/pid", "root"};
    private static final String[] WHAT = {"mount namespace", "pid namespace", "root directory"};
    private static final long[] OWN = identity("self");

    private Place() {}

    /**
     * Null when process {@code pid} (as this process's pid namespace numbers it; 0: not visible
     * here) lives where this process does, else why not, for a log line.
     */
    public static String differs(int pid) {
        if (pid <= 0) {
            return "the caller's process is not visible from the server's pid namespace";
        }
        long[] theirs = identity(Integer.toString(pid));
        if (OWN == null || theirs == null) {
            return "the server cannot compare the caller's namespaces with its own";
        }
        for (int i = 0; i < FILES.length; i++) {
            if (theirs[2 * i] != OWN[2 * i] || theirs[2 * i + 1] != OWN[2 * i + 1]) {
                return "the caller runs in another " + WHAT[i];
            }
        }
        return null;
    }

    /** Device and inode of each of {@link #FILES} of {@code /proc/WHO}, or null when one cannot be read. */
    private static long[] identity(String who) {
        long[] id = new long[2 * FILES.length];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(Statx.SIZE, 8);
            for (int i = 0; i < FILES.length; i++) {
                MemorySegment path = arena.allocateFrom("/proc/" + who + "/" + FILES[i], StandardCharsets.US_ASCII);
                if (Statx.call(Errno.state(), Flags.AT_FDCWD, path, 0, buf) != 0) {
                    return null;
                }
                int[] w = Statx.words(buf);
                id[2 * i] = Statx.dev(w);
                id[2 * i + 1] = Statx.ino(w);
            }
        }
        return id;
    }
}
