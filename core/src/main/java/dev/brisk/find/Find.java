// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find;

import dev.brisk.find.internal.FindRun;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * A find(1) work-alike over {@link dev.brisk.walk.Walker}: {@code [-H|-L|-P] [ROOT...] [EXPRESSION]}
 * with POSIX and common GNU primaries. Output records are byte-exact; without {@code -exec},
 * {@code -ok}, {@code -quit} or {@code -depth} the walk is parallel and records come in no
 * particular order (each record is written whole).
 *
 * <p>Exit status as GNU find: 0 when all went well, 1 after a bad command line or any error
 * met during the walk (reported on {@code err} with the path) or a failed {@code -exec ... +}
 * batch or a failed write (GNU's message, e.g. {@code find: ‘standard output’: No space left on
 * device} then {@code find: write error}; the walk goes on), 141 when {@code out} was closed (a
 * broken pipe). Blocks until done.
 *
 * <p>A run takes its process state from {@link dev.brisk.internal.posix.Caller#current()}: the
 * environment (locale, {@code TZ}, {@code PATH}, {@code POSIXLY_CORRECT}), the standard input
 * {@code -ok} and {@code -files0-from -} read, the signals {@code -exec}'s commands keep ignored;
 * and the working directory and umask of its thread. Runs on different threads with different
 * callers do not see each other, so a warm server may run several at once.
 */
public final class Find {
    /** The exit status when {@code out} was closed under the run (as a shell reports death by SIGPIPE). */
    public static final int BROKEN_PIPE = FindRun.BROKEN_PIPE;

    private Find() {}

    /**
     * Runs find with {@code args} (each a command-line argument as bytes, after the word
     * {@code find}), writing records to {@code out} and messages to {@code err}; returns the exit
     * status. Neither stream is closed. Brisk's own options, before the roots: {@code --debug}
     * (say which engine walks), {@code --threads=N}, {@code --engine=auto|native|portable}.
     */
    public static int run(List<byte[]> args, OutputStream out, PrintStream err) {
        return FindRun.run(args, out, err);
    }

    /**
     * The exit status of a find whose output {@code failure} ended before it wrote anything
     * else ({@code --help}): {@link #BROKEN_PIPE} for a closed pipe, else 1 after GNU's
     * {@code find: write error: REASON} on {@code err}.
     */
    public static int writeFailed(java.io.IOException failure, PrintStream err) {
        return FindRun.writeFailed(failure, err);
    }

    /**
     * Starts binding the native walker's calls on a background thread, so that a command-line
     * caller overlaps that cost (tens of milliseconds on a cold JVM) with its own start-up.
     * Optional; safe to call any number of times.
     */
    public static void prepare() {
        dev.brisk.walk.Walker.prepare();
    }
}
