// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.internal.shell.ShellQuote;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code brisk par --tmux}, as GNU parallel's: each job runs in a window of its own of a tmux
 * server on a socket of the run's ({@code $TMPDIR/tmsXXXXX}, told once on stderr as
 * {@code See output with: tmux -S SOCKET attach}), its output there and not on brisk's stdout;
 * the window stays 10 s after the job, and the job's status comes back through a FIFO. The
 * command runs under {@code sh} from a file the job writes first (a here-document: no quoting
 * of its text). {@code $PARALLEL_TMUX} names the tmux program (default {@code tmux}). Stateless.
 */
final class ParTmux {
    private ParTmux() {}

    /** A new socket's path for a run: {@code DIR/tmsXXXXX}, as GNU parallel's {@code tmpname("tms")}. */
    static String socket(String dir) {
        String chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        StringBuilder b = new StringBuilder(dir).append("/tms");
        for (int i = 0; i < 5; i++) {
            b.append(chars.charAt(ThreadLocalRandom.current().nextInt(chars.length())));
        }
        return b.toString();
    }

    /**
     * The shell text of a job that runs {@code command} (a template's text, shell syntax) in a
     * new window of session {@code session} on {@code socket}, and ends with its status.
     */
    static byte[] wrap(byte[] command, String tmux, String socket, String session) {
        String end = "BRISK_TMUX_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
        String t = ShellQuote.quote(tmux) + " -S " + ShellQuote.quote(socket);
        String head = "_c=$(mktemp \"${TMPDIR:-/tmp}/parXXXXX\") && _f=$_c.fifo && mkfifo \"$_f\" || exit 255\n"
                + "cat >\"$_c\" <<'" + end + "'\n";
        String tail = "\n" + end + "\n"
                + t + " new-session -s " + session + " -d 'sleep .2' >/dev/null 2>&1\n"
                + t + " new-window -t " + session + " -n par \"sh '$_c'; echo \\$? >>'$_f' & echo; echo Job finished at: \\`date\\`; sleep 10\"\n"
                + "read _s <\"$_f\"; rm -f \"$_c\" \"$_f\"; exit \"$_s\"";
        byte[] h = head.getBytes(StandardCharsets.UTF_8);
        byte[] tl = tail.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[h.length + command.length + tl.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(command, 0, all, h.length, command.length);
        System.arraycopy(tl, 0, all, h.length + command.length, tl.length);
        return all;
    }
}
