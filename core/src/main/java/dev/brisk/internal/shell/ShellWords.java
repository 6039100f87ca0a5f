// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.shell;

import java.util.Set;

/**
 * The words bash and dash give a meaning of their own when they start a command: the one list
 * that both the pool ({@link CommandShape}) and {@code brisk par} ({@code exec.Template}) consult
 * before running a command without the shell. A command named by one of these is never an
 * external program; one of the {@link #isPureBuiltin pure builtins} changes no shell state.
 */
public final class ShellWords {
    /** Builtins of bash and dash that touch no shell state and read no input (printf only without {@code -v}). */
    private static final Set<String> PURE = Set.of("echo", "printf", "true", "false", ":", "test", "[");

    /** Keywords and builtins of bash and dash. */
    private static final Set<String> WORDS = Set.of(".", ":", "[", "[[", "]]", "alias", "bg", "bind",
            "break", "builtin", "caller", "cd", "chdir", "command", "compgen", "complete", "compopt",
            "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export",
            "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local",
            "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly",
            "return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true",
            "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait", "!", "case", "coproc", "do",
            "done", "elif", "else", "esac", "fi", "for", "function", "if", "in", "select", "then", "time",
            "until", "while", "{", "}");

    private ShellWords() {}

    /** Whether {@code word}, starting a command, is a keyword or builtin of bash or dash. */
    public static boolean isShellWord(String word) {
        return WORDS.contains(word);
    }

    /** Whether {@code word} is a builtin that changes no shell state ({@code echo}, {@code true}, {@code [}...). */
    public static boolean isPureBuiltin(String word) {
        return PURE.contains(word);
    }
}
