// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Libc;
import dev.brisk.meter.internal.ProcessTitle;

/**
 * pv's {@code --extra-display}: each snapshot rendered by its own {@link StatusLine} into the
 * terminal's window title ({@code ESC ] 2 ; TEXT BEL} on the current {@link Caller}'s terminal
 * descriptor, when it is a terminal or when forced) and/or the process title ({@link ProcessTitle};
 * only for this process's own run: a warm server's process title is not its client's).
 *
 * <p>Called by the meter, whose calls never overlap; not otherwise thread-safe.
 */
public final class TitleDisplay implements ProgressListener {
    private final StatusLine line;
    private final int fd;
    private final boolean window;
    private final boolean process;
    private final int width;

    /**
     * @param line    renders the title
     * @param fd      the terminal descriptor for the window title, as the caller numbers it (2)
     * @param window  set the window title (only if {@code fd} is a terminal, or {@code force})
     * @param process set the process title
     * @param force   write the window title even when {@code fd} is not a terminal (pv {@code -f})
     * @param width   the width to render at
     */
    public TitleDisplay(StatusLine line, int fd, boolean window, boolean process, boolean force, int width) {
        this.line = line;
        Caller caller = Caller.current();
        this.fd = caller.descriptor(fd);
        this.window = window && (force || Libc.isatty(this.fd));
        this.process = process && caller.self();
        this.width = width;
    }

    @Override
    public void onProgress(Progress p) {
        if (!window && !process) {
            return;
        }
        String text = line.render(p, width).strip();
        if (window) {
            StderrDisplay.writeTo(fd, "\033]2;" + text + "\007");
        }
        if (process) {
            ProcessTitle.set(text);
        }
    }
}
