// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * What a command text is, as far as the pool can run it cheaply: shell code (the general case),
 * one side-effect-free builtin ({@code echo hi}, {@code true}), or one simple command of an
 * external program ({@code ls -l /tmp}). Immutable.
 *
 * <p>The test is deliberately narrow: words of plain characters separated by blanks, nothing the
 * shell would expand, split, glob, redirect or treat as a keyword, so that running the words
 * directly does exactly what the shell would do with them. Anything else is {@link Kind#SHELL}.
 */
public record CommandShape(Kind kind, List<byte[]> words) {

    /** The kinds of command text. */
    public enum Kind {
        /** Shell code: the shell parses and runs it. */
        SHELL,
        /** One builtin that changes no shell state and reads no input: needs no subshell to stay isolated. */
        PURE_BUILTIN,
        /** One external program with literal arguments: can be spawned without a shell. */
        EXTERNAL
    }

    private static final CommandShape SHELL_CODE = new CommandShape(Kind.SHELL, List.of());

    /** Longest text worth classifying; longer commands are left to the shell. */
    private static final int MAX = 64 * 1024;

    /** Classifies {@code text}, the command exactly as the shell would read it. */
    public static CommandShape of(byte[] text) {
        if (text.length == 0 || text.length > MAX) {
            return SHELL_CODE;
        }
        List<byte[]> words = new ArrayList<>();
        int i = 0;
        while (i < text.length) {
            byte b = text[i];
            if (b == ' ' || b == '\t') {
                i++;
                continue;
            }
            int start = i;
            while (i < text.length && text[i] != ' ' && text[i] != '\t') {
                if (!plain(text[i])) {
                    return SHELL_CODE;
                }
                i++;
            }
            byte[] w = new byte[i - start];
            System.arraycopy(text, start, w, 0, w.length);
            words.add(w);
        }
        if (words.isEmpty()) {
            return SHELL_CODE;
        }
        String name = new String(words.get(0), java.nio.charset.StandardCharsets.ISO_8859_1);
        if (name.indexOf('=') >= 0) {
            return SHELL_CODE; // an assignment
        }
        for (int k = 0; k < words.size(); k++) {
            byte[] w = words.get(k);
            boolean bracket = contains(w, '[') || contains(w, ']');
            // brackets only as the test builtin's own words: anything else may be a glob
            boolean testWord = name.equals("[") && ((k == 0 && w.length == 1) || (k == words.size() - 1 && w.length == 1 && w[0] == ']'));
            if (bracket && !testWord) {
                return SHELL_CODE;
            }
        }
        if (ShellWords.isPureBuiltin(name)) {
            if (name.equals("printf") && words.size() > 1 && words.get(1).length > 1 && words.get(1)[0] == '-' && words.get(1)[1] == 'v') {
                return SHELL_CODE;
            }
            if (name.equals("[") && !new String(words.get(words.size() - 1), java.nio.charset.StandardCharsets.ISO_8859_1).equals("]")) {
                return SHELL_CODE;
            }
            return new CommandShape(Kind.PURE_BUILTIN, List.copyOf(words));
        }
        if (ShellWords.isShellWord(name)) {
            return SHELL_CODE;
        }
        return new CommandShape(Kind.EXTERNAL, List.copyOf(words));
    }

    /**
     * Bytes that mean nothing special to bash or dash anywhere in a word: letters, digits and
     * {@code / . _ - + , : @ % =}, plus {@code [ ]}, checked per word above. No quotes,
     * expansions, globs, tildes, braces, comments, operators or newlines; no bytes above ASCII.
     */
    private static boolean plain(byte b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
                || b == '/' || b == '.' || b == '_' || b == '-' || b == '+' || b == ',' || b == ':'
                || b == '@' || b == '%' || b == '=' || b == '[' || b == ']';
    }

    private static boolean contains(byte[] w, char c) {
        for (byte x : w) {
            if (x == c) {
                return true;
            }
        }
        return false;
    }
}
