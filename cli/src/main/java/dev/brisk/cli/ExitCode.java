// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

/** brisk's exit statuses (subcommands that mimic a peer use that peer's statuses instead). */
public enum ExitCode {
    /** Everything worked. */
    OK(0),
    /** Something failed; the message said what. */
    FAILURE(1),
    /** The command line was wrong. */
    USAGE(2),
    /** Stopped by SIGINT (Ctrl-C). */
    INTERRUPTED(130);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
