// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;

/**
 * {@code O_DIRECT} for pv's {@code --direct-io}: its value (which differs by architecture), and
 * switching it on or off on a descriptor the meter did not open (standard input and output).
 * The copy buffer is page-aligned and a multiple of the page size, which O_DIRECT needs.
 */
public final class DirectIo {
    /** {@code O_DIRECT}: 040000 on x86, 0200000 on arm64 (where 040000 is O_DIRECTORY). */
    public static final int O_DIRECT = System.getProperty("os.arch", "").contains("aarch64") ? 0200000 : 040000;

    private DirectIo() {}

    /** Sets or clears O_DIRECT on {@code fd}; false if the descriptor refuses (a pipe, a terminal, procfs). */
    public static boolean set(int fd, boolean on) {
        try {
            int flags = Libc.fcntl(fd, Flags.F_GETFL, 0);
            int wanted = on ? flags | O_DIRECT : flags & ~O_DIRECT;
            if (wanted != flags) {
                Libc.fcntl(fd, Flags.F_SETFL, wanted);
            }
            return true;
        } catch (PosixException e) {
            return false;
        }
    }
}
