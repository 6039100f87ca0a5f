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
 * batch, 141 when {@code out} was closed (a broken pipe). Blocks until done; not reentrant with
 * respect to {@code -ok}, which reads standard input.
 */
public final class Find {
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
     * Starts binding the native walker's calls on a background thread, so that a command-line
     * caller overlaps that cost (tens of milliseconds on a cold JVM) with its own start-up.
     * Optional; safe to call any number of times.
     */
    public static void prepare() {
        dev.brisk.walk.Walker.prepare();
    }
}
