// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import dev.brisk.internal.shell.CommandShape;

/**
 * The loop a worker shell runs. Java writes one control line per command on the shell's stdin:
 * {@code n} (no input), {@code i K} (input from file {@code iK}) or, for an isolated worker,
 * {@code b} (a {@linkplain CommandShape.Kind#PURE_BUILTIN side-effect-free builtin}, which needs
 * no fresh subshell: it runs where it cannot change what later commands see). The command text is
 * in file {@code c}, rewritten for each command, and its output goes to the FIFOs {@code o} and
 * {@code e}, whose read ends Java holds. The shell reports on the status FIFO {@code s}, its own
 * standard output: {@code p PGID} when a subshell with its own process group is ready (bash),
 * then {@code x STATUS}. (Status on fd 1 rather than a spare descriptor saves the shell a
 * save-and-restore of that descriptor per command.)
 *
 * <p>Why this shape: the command never sees the control channel nor the status channel (its
 * stdin and stdout are redirected), so it can neither eat later commands nor forge a status;
 * output travels on its own FIFOs, so no in-band marker can be confused with it, and Java
 * replaces a FIFO that a background child still holds open, so that child cannot write into a
 * later command's output; the command runs in a subshell, so cd, exports, traps, functions,
 * {@code set -e} and {@code exit} end with it.
 */
final class WorkerScript {
    private WorkerScript() {}

    private static final String HEAD = """
            __brisk_dir=$1; shift
            exec >"$__brisk_dir/s" || exit 97
            """;

    /**
     * bash: each command is a background job in its own process group, forked ahead of time.
     * The subshell for the next command is forked as soon as the previous one ends and waits on
     * the control pipe (fd 4), so the fork, the slowest step, happens while Java is still busy
     * with the previous result. {@code p PGID} announces the pre-forked subshell; a control pipe
     * at EOF (the pool is gone) kills the worker. The subshell runs {@code b} commands itself and
     * stays: a side-effect-free builtin leaves it as clean as it was forked.
     */
    private static final String BASH_ISOLATED = """
            __brisk_dir=$1; shift
            exec >"$__brisk_dir/s" 4<&0 </dev/null || exit 97
            while :; do
              set -m
              (
                while :; do
                  IFS= read -r __brisk_line <&4 || { kill -KILL $$; exit 96; }
                  [ "$__brisk_line" = b ] || break
                  command . "$__brisk_dir/c" </dev/null >"$__brisk_dir/o" 2>"$__brisk_dir/e"
                  echo "x $?"
                done
                exec 4<&-
                read -r _ _ _ __brisk_pp _ </proc/$BASHPID/stat
                [ "$__brisk_pp" = $$ ] || { echo u; exit 95; }
                case $__brisk_line in
                  n) exec </dev/null ;;
                  i*) exec <"$__brisk_dir/i${__brisk_line#??}" ;;
                  *) exit 96 ;;
                esac
                exec >"$__brisk_dir/o" 2>"$__brisk_dir/e"
                . "$__brisk_dir/c"
              ) &
              set +m
              echo "p $!"
              wait $!
              echo "x $?"
            done
            """;

    /**
     * Other POSIX shells (dash): no job control without a terminal, so the subshell runs in the
     * foreground and timeouts sweep the worker's session instead of one process group. A
     * {@code b} command runs in the shell itself: it cannot change the shell's state.
     */
    private static final String POSIX_ISOLATED = HEAD + """
            while IFS= read -r __brisk_line; do
              case $__brisk_line in
                b) command . "$__brisk_dir/c" </dev/null >"$__brisk_dir/o" 2>"$__brisk_dir/e" ;;
                n) ( . "$__brisk_dir/c" ) </dev/null >"$__brisk_dir/o" 2>"$__brisk_dir/e" ;;
                i*) ( . "$__brisk_dir/c" ) <"$__brisk_dir/i${__brisk_line#??}" >"$__brisk_dir/o" 2>"$__brisk_dir/e" ;;
                *) continue ;;
              esac
              echo "x $?"
            done
            """;

    /**
     * Session mode: commands run in the shell itself, so their state persists. The loop calls
     * its builtins through {@code command}, so that functions the session defines (an
     * {@code echo} or a {@code read} of its own) cannot take the loop's place.
     */
    private static final String SESSION = HEAD + """
            while IFS= command read -r __brisk_line; do
              case $__brisk_line in
                n) command . "$__brisk_dir/c" </dev/null >"$__brisk_dir/o" 2>"$__brisk_dir/e" ;;
                i*) command . "$__brisk_dir/c" <"$__brisk_dir/i${__brisk_line#??}" >"$__brisk_dir/o" 2>"$__brisk_dir/e" ;;
                *) continue ;;
              esac
              command echo "x $?"
            done
            """;

    static String of(boolean bash, boolean session) {
        if (session) {
            return SESSION;
        }
        return bash ? BASH_ISOLATED : POSIX_ISOLATED;
    }
}
