// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.shell;

import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.Signals;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Signals every process of a session, found in {@code /proc}. Workers are session leaders
 * ({@code setsid}), so a worker's session holds exactly the worker, the commands it runs and
 * whatever they left behind, even children that changed process group or were orphaned.
 */
public final class ProcessSweep {
    private ProcessSweep() {}

    /** The pids whose session id is {@code sid}, except {@code exceptPid}. */
    public static List<Integer> members(int sid, int exceptPid) {
        List<Integer> found = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"))) {
            for (Path p : procs) {
                String name = p.getFileName().toString();
                if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
                    continue;
                }
                int pid = Integer.parseInt(name);
                if (pid != exceptPid && sessionOf(p) == sid) {
                    found.add(pid);
                }
            }
        } catch (IOException e) {
            // /proc unreadable: nothing we can find
        }
        return found;
    }

    /** Whether process {@code pid} has ended: a zombie not yet reaped, or gone. */
    public static boolean ended(int pid) {
        return sessionOf(Path.of("/proc/" + pid)) < 0;
    }

    /** Session id from /proc/PID/stat, or -1 if the process is gone or a zombie. */
    static int sessionOf(Path procDir) {
        try {
            String stat = new String(Files.readAllBytes(procDir.resolve("stat")), StandardCharsets.US_ASCII);
            int close = stat.lastIndexOf(')');
            String[] f = stat.substring(close + 2).split(" ", 6);
            if (f[0].equals("Z") || f[0].equals("X")) {
                return -1;
            }
            return Integer.parseInt(f[3]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Sends {@code signal} to every member of session {@code sid} but {@code exceptPid}, and
     * with SIGKILL repeats until none is left (processes forked mid-sweep included), at most a
     * few rounds. Returns how many signals were sent.
     */
    public static int signal(int sid, int exceptPid, int signal) {
        int sent = 0;
        for (int round = 0; round < (signal == Signals.SIGKILL ? 20 : 1); round++) {
            List<Integer> pids = members(sid, exceptPid);
            if (pids.isEmpty()) {
                break;
            }
            for (int pid : pids) {
                try {
                    if (Libc.kill(pid, signal)) {
                        sent++;
                    }
                } catch (PosixException e) {
                    // EPERM: not ours to kill; go on with the rest
                }
            }
            if (signal == Signals.SIGKILL) {
                Thread.onSpinWait();
            }
        }
        return sent;
    }

    /**
     * The exit status of a warm shell that has ended or is ending: waits up to 2 s for it, and
     * gives 255 when it has not ended by then (or the wait is interrupted, keeping the flag).
     */
    public static int exitValue(Process process) {
        try {
            if (process.waitFor(2, java.util.concurrent.TimeUnit.SECONDS)) {
                return process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 255;
    }
}
