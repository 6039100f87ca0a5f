// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Waiting for a child ({@code wait4(2)}) and the one decoder of the raw status it gives: how the
 * child ended, and the status a shell shows for it ({@code 128 + N} when signal N killed it),
 * which is what brisk shows everywhere. Thread-safe; {@link #waitFor} blocks the calling thread.
 */
public final class WaitStatus {
    /** What {@link #poll} gives for a child that has not ended. */
    public static final int RUNNING = -1;
    /** What {@link #waitFor} and {@link #poll} give when {@code pid} is not (or no longer) our child. */
    public static final int NO_CHILD = -2;

    private static final int WNOHANG = 1;

    private WaitStatus() {}

    /** Waits for child {@code pid} to end (EINTR retried): its raw wait status, or {@link #NO_CHILD}. */
    public static int waitFor(int pid) {
        return wait(pid, 0);
    }

    /** The raw wait status of child {@code pid} if it has ended (it is reaped), else {@link #RUNNING}. */
    public static int poll(int pid) {
        return wait(pid, WNOHANG);
    }

    private static int wait(int pid, int options) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(ValueLayout.JAVA_INT);
            while (true) {
                long r = Syscall.call(Syscall.WAIT4, pid, status.address(), options, 0);
                if (r == pid) {
                    int[] s = new int[1];
                    MemorySegment.copy(status, ValueLayout.JAVA_INT, 0, s, 0, 1);
                    return s[0];
                }
                if (r == 0) {
                    return RUNNING;
                }
                if (r != -Errno.EINTR) {
                    return NO_CHILD;
                }
            }
        }
    }

    /** Whether the child called {@code exit}. */
    public static boolean exited(int raw) {
        return raw >= 0 && (raw & 0x7f) == 0;
    }

    /** The child's exit code (0-255); 0 when a signal ended it. */
    public static int exitCode(int raw) {
        return exited(raw) ? (raw >> 8) & 0xff : 0;
    }

    /** The signal that ended the child, or 0 when it exited. */
    public static int signal(int raw) {
        return raw < 0 || exited(raw) ? 0 : raw & 0x7f;
    }

    /** Whether the child left a core dump when its signal ended it. */
    public static boolean coreDumped(int raw) {
        return signal(raw) != 0 && (raw & 0x80) != 0;
    }

    /**
     * The status a shell shows ({@code $?}): the exit code, {@code 128 + N} when signal N ended
     * the child, 255 when there was no child to wait for.
     */
    public static int shellStatus(int raw) {
        if (raw < 0) {
            return 255;
        }
        int sig = signal(raw);
        return sig == 0 ? exitCode(raw) : 128 + sig;
    }
}
