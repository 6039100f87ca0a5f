// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.meter.internal.RowClaim;
import dev.brisk.meter.internal.Sys;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * A {@link ProgressListener} that draws a {@link StatusLine} on a terminal descriptor (normally
 * 2, standard error) the way pv does: each update rewritten in place after a carriage return, a
 * newline after the final one, problems on their own line prefixed by the program name.
 *
 * <p>The descriptor is the {@link Caller}'s (as current when the display is made): standard error
 * is the client's own when a warm server runs the call. It draws only when the descriptor is a
 * terminal (checked with {@code isatty(3)}, since {@code System.console()} is null whenever stdout
 * is a pipe) or when forced, and not while the caller's process group is in the background (the
 * terminal's foreground group is asked at every update, as the shell moves jobs); numeric mode
 * always writes. The width is re-read with {@code TIOCGWINSZ} at every update, so a resized
 * terminal is followed without a SIGWINCH handler (a server's client needs none relayed). Nothing
 * is drawn before the start delay; a copy shorter than it shows nothing at all, as in pv.
 *
 * <p>Called by the meter, whose calls never overlap; {@link #interrupted} may come from a
 * signal's hook on another thread, and nothing is drawn after it; {@link #restyle} may be called
 * from any thread (pv {@code -R} changes a running display).
 */
public final class StderrDisplay implements ProgressListener {
    private volatile StatusLine line;
    private final String program;
    private final int fd;
    private final boolean numeric;
    private final boolean force;
    private volatile int fixedWidth;
    private final long delayNanos;
    private final boolean terminal;
    private final Caller caller;
    private boolean visible;
    private boolean ended;
    private int height;
    private RowClaim claim;

    /**
     * @param line       renders each snapshot
     * @param program    the prefix of problem messages ({@code brisk pv})
     * @param fd         where to draw, as the caller numbers it (2 for standard error)
     * @param numeric    numeric mode: one number per line, drawn even when not a terminal
     * @param force      draw even when {@code fd} is not a terminal (pv {@code -f})
     * @param fixedWidth the width to assume, or 0 to ask the terminal (80 when it cannot say)
     * @param delayNanos show nothing until this much time has passed (pv {@code -D})
     */
    public StderrDisplay(StatusLine line, String program, int fd, boolean numeric, boolean force, int fixedWidth,
            long delayNanos) {
        this.line = line;
        this.program = program;
        this.caller = Caller.current();
        this.fd = caller.descriptor(fd);
        this.numeric = numeric;
        this.force = force;
        this.fixedWidth = fixedWidth;
        this.delayNanos = delayNanos;
        this.terminal = Libc.isatty(this.fd);
    }

    /**
     * Cursor mode (pv {@code -c}): this display claims its own row below the cursor's line, shared
     * with every other display drawing on the same terminal or file, so several meters in one
     * pipeline draw on separate lines. Each update moves down to the row with newlines (which
     * scroll the screen when at its bottom), draws, and moves back up with {@code ESC [ n A};
     * the last display of the group to finish moves the cursor below all of them. Rows past
     * {@code height} share the last one, as in pv. Does nothing in numeric mode or when not drawing.
     *
     * @param height the terminal's height in rows, or 0 to ask the terminal (25 when it cannot say)
     * @return this display
     */
    public StderrDisplay cursor(int height) {
        if (!numeric && drawing() && claim == null) {
            this.height = height;
            this.claim = RowClaim.claim(fd);
        }
        return this;
    }

    /**
     * Draws with {@code line} from the next update on, at {@code fixedWidth} columns (0: the
     * terminal's); the row, force, numeric mode and start delay stay as they are.
     */
    public void restyle(StatusLine line, int fixedWidth) {
        this.line = line;
        this.fixedWidth = Math.max(0, fixedWidth);
    }

    /** Whether status lines will be drawn at all (numeric, forced, or a terminal). */
    public boolean drawing() {
        return numeric || force || terminal;
    }

    @Override
    public synchronized void onProgress(Progress p) {
        if (ended || p.elapsedNanos() < delayNanos || !drawing()) {
            return;
        }
        if (numeric) {
            write(line.render(p, width()));
            return;
        }
        if (terminal && !(caller.self() ? Sys.inForeground(fd, caller.processGroup()) : caller.inForegroundNow())) {
            return;
        }
        String text = line.render(p, width()) + "\r";
        visible = true;
        if (claim == null) {
            write(p.finished() ? text + "\n" : text);
            return;
        }
        int row = Math.min(claim.row(), rows() - 1);
        write(row == 0 ? text : "\n".repeat(row) + text + "\033[" + row + "A");
        if (p.finished()) {
            int used = claim.release();
            claim = null;
            if (used > 0) {
                write("\n".repeat(Math.min(used, rows())));
            }
        }
    }

    /** The rows of the terminal for cursor mode: fixed, else the terminal's, else 25. */
    private int rows() {
        if (height > 0) {
            return height;
        }
        if (terminal) {
            int[] size = Libc.windowSize(fd);
            if (size != null && size[1] > 0) {
                return size[1];
            }
        }
        return 25;
    }

    /** The copy was cut short (a signal): ends a drawn status line with a newline, and draws no more. */
    public synchronized void interrupted() {
        if (ended) {
            return;
        }
        ended = true;
        if (claim != null) {
            int used = claim.release();
            claim = null;
            write("\n".repeat(Math.max(1, Math.min(used, rows()))));
        } else if (visible) {
            write("\n");
        }
    }

    @Override
    public synchronized void onProblem(String message) {
        if (ended) {
            return;
        }
        write((visible ? "\n" : "") + program + ": " + message + "\n");
    }

    /** The width to lay out for: fixed, else the terminal's current columns, else 80. */
    public int width() {
        if (fixedWidth > 0) {
            return fixedWidth;
        }
        if (terminal) {
            int[] size = Libc.windowSize(fd);
            if (size != null && size[0] > 0) {
                return size[0];
            }
        }
        return 80;
    }

    private void write(String text) {
        writeTo(fd, text);
    }

    /** Writes all of {@code text} (UTF-8) to {@code fd}, dropping it if the descriptor is full or gone. */
    static void writeTo(int fd, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(bytes.length);
            MemorySegment.copy(bytes, 0, seg, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes.length);
            long done = 0;
            while (done < bytes.length) {
                long n = Libc.write(fd, seg.asSlice(done), bytes.length - done);
                if (n <= 0) {
                    return; // a non-blocking, full terminal: drop this update rather than stall the copy
                }
                done += n;
            }
        } catch (PosixException e) {
            // standard error is gone: nothing left to tell anyone
        }
    }
}
