// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.util.List;
import java.util.Objects;

/**
 * GNU parallel's less common controls of a run, one record beside {@link JobOptions}: colour,
 * niceness, when a job may start, questions, files written per job. Validated on construction
 * like {@link JobOptions} (the message names the component). Immutable; {@link #NONE} is a run
 * without any.
 *
 * @param color colour each job's output lines by its sequence number ({@code --color}, {@code --ctag})
 * @param colorFailed colour the output lines of a failed job white on red ({@code --color-failed})
 * @param nice the niceness jobs run at (as {@code setpriority}: a value below brisk's own is
 *     left at that, one beyond 19 is 19), or null to leave it ({@code --nice})
 * @param limit a shell command run before each start: status 0 starts the job, 1 waits, 2 waits
 *     and stops the youngest running job ({@code --limit}), or null
 * @param memSuspend start no job while less than this many bytes (plus {@code memFree}) is
 *     available, and stop the youngest running jobs below twice that, or 0 ({@code --memsuspend})
 * @param noSwap start no job while the machine swaps in and out ({@code --noswap})
 * @param interactive ask on {@code /dev/tty} before each job, running it only on an answer
 *     starting with y ({@code -p}, {@code --interactive})
 * @param resultsName where {@code --results} saves a job's output when its name holds replacement
 *     strings: a directory when it ends with {@code /}, else a file (and {@code .err},
 *     {@code .seq} beside it); null for the plain {@code DIR/1/ARG} layout
 * @param files files written before each job, their names and contents with the job's
 *     replacement strings ({@code --template})
 * @param removeFiles remove the {@code files} when the job is done ({@code --cleanup})
 * @param compress a shell command that compresses its stdin to its stdout, which the files of
 *     {@code --results DIR} are passed through when not empty ({@code --compress}), or null
 * @param retries each job's {@link JobOptions#retries} as its replacement strings give it
 *     ({@code --retries {//}}: the number its rendering starts with, as Perl reads a number;
 *     0 or none: one try), or null for {@link JobOptions#retries}
 * @param resultsColumns the names of the directories {@code --results DIR} makes for the values
 *     of a job, in their order ({@code --header}'s names, as GNU parallel's {@code DIR/a/VALUE});
 *     a value without a name gets its number ({@code DIR/1/VALUE}); empty: all numbered
 */
public record JobControls(boolean color, boolean colorFailed, Integer nice, String limit, long memSuspend,
                          boolean noSwap, boolean interactive, Template resultsName, List<FileTemplate> files,
                          boolean removeFiles, String compress, Template retries, List<String> resultsColumns) {
    /** No controls: GNU parallel's defaults. */
    public static final JobControls NONE = new JobControls(false, false, null, null, 0, false, false, null, List.of(), false, null, null, List.of());

    /** A file written before each job: its name and its contents, both with the job's replacement strings. */
    public record FileTemplate(Template name, Template content) {
        public FileTemplate {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(content, "content");
        }
    }

    public JobControls {
        files = List.copyOf(files);
        resultsColumns = List.copyOf(resultsColumns);
        if (memSuspend < 0) {
            throw new IllegalArgumentException("memSuspend must not be negative, got " + memSuspend);
        }
        if (limit != null && limit.isBlank()) {
            throw new IllegalArgumentException("limit must be a command, got '" + limit + "'");
        }
    }

    /** Whether a job's start waits on something besides a free slot ({@code --limit}, {@code --memsuspend}, {@code --noswap}). */
    public boolean gatesStarts() {
        return limit != null || memSuspend > 0 || noSwap;
    }
}
