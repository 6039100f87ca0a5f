// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A tiny shell per pool that outlives the JVM by a moment: it learns each worker's session id
 * on its stdin, and when that stdin closes (the pool closes, or the JVM dies, even by SIGKILL)
 * it kills every process left in those sessions, and in the session of any command a worker
 * had spawned directly and still ran (file {@code spawned} in the worker's directory), and
 * removes the pool's directory.
 * Thread-safe.
 */
final class Watchdog implements AutoCloseable {
    private static final String SCRIPT = """
            trap '' INT HUP TERM QUIT PIPE
            d=$1; s=
            while IFS= read -r p; do
              case $p in
                -*) n=; for q in $s; do [ "$q" = "${p#-}" ] || n="$n $q"; done; s=$n ;;
                *) s="$s $p" ;;
              esac
            done
            for f in "$d"/*/spawned; do
              [ -f "$f" ] && read -r p <"$f" && [ "${p:-0}" != 0 ] && s="$s $p"
            done
            for p in $s; do pkill -KILL -s "$p" 2>/dev/null; done
            rm -rf -- "$d"
            """;

    private final Process process;
    private final OutputStream control;

    Watchdog(Path setsid, Path dir) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(setsid.toString(), "/bin/sh", "-c", SCRIPT, "brisk-watchdog", dir.toString());
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        process = pb.start();
        control = process.getOutputStream();
    }

    synchronized void watch(int sid) {
        send(sid + "\n");
    }

    synchronized void forget(int sid) {
        send("-" + sid + "\n");
    }

    private void send(String line) {
        try {
            control.write(line.getBytes(StandardCharsets.US_ASCII));
            control.flush();
        } catch (IOException e) {
            // the watchdog is gone; close() will still sweep what it can
        }
    }

    /** Ends the watchdog, which kills what is left in the watched sessions; waits up to 5 s. */
    @Override
    public synchronized void close() {
        try {
            control.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
