// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.util.regex.Pattern;

/**
 * Translates find's regular expressions to {@code java.util.regex}: the default emacs syntax
 * ({@code \(} {@code \)} {@code \|} group and alternate; bare parentheses, bars and braces are
 * literal) or POSIX extended; bracket expressions keep POSIX meaning (a backslash inside is
 * literal, {@code [:class:]} names a class). Stateless.
 */
final class RegexSyntax {
    private RegexSyntax() {}

    /** Emacs (find's default) or POSIX extended syntax to java.util.regex. */
    static String translate(String s, boolean extended) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                int j = i + 1;
                StringBuilder cls = new StringBuilder("[");
                if (j < s.length() && s.charAt(j) == '^') {
                    cls.append('^');
                    j++;
                }
                if (j < s.length() && s.charAt(j) == ']') {
                    cls.append("\\]");
                    j++;
                }
                while (j < s.length() && s.charAt(j) != ']') {
                    char d = s.charAt(j);
                    if (d == '[' && j + 1 < s.length() && s.charAt(j + 1) == ':') {
                        int close = s.indexOf(":]", j + 2);
                        if (close > 0) {
                            cls.append("\\p{").append(posixClass(s.substring(j + 2, close))).append('}');
                            j = close + 2;
                            continue;
                        }
                    }
                    if (d == '[' || d == '\\' || d == '&') {
                        cls.append('\\');
                    }
                    cls.append(d);
                    j++;
                }
                if (j >= s.length()) {
                    out.append("\\[");
                    continue;
                }
                out.append(cls).append(']');
                i = j;
            } else if (c == '\\' && i + 1 < s.length()) {
                char d = s.charAt(++i);
                if (!extended && (d == '(' || d == ')' || d == '|')) {
                    out.append(d);
                } else if (d == '<') {
                    out.append("\\b(?=\\w)");
                } else if (d == '>') {
                    out.append("\\b(?<=\\w)");
                } else if ("wWbB123456789".indexOf(d) >= 0) {
                    out.append('\\').append(d);
                } else if (d == '`') {
                    out.append("\\A");
                } else if (d == '\'') {
                    out.append("\\z");
                } else {
                    out.append(Pattern.quote(String.valueOf(d)));
                }
            } else if (!extended && (c == '(' || c == ')' || c == '|' || c == '{' || c == '}')) {
                out.append('\\').append(c);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String posixClass(String name) {
        return switch (name) {
            case "alpha" -> "Alpha";
            case "digit" -> "Digit";
            case "alnum" -> "Alnum";
            case "upper" -> "Upper";
            case "lower" -> "Lower";
            case "space" -> "Space";
            case "blank" -> "Blank";
            case "punct" -> "Punct";
            case "print" -> "Print";
            case "graph" -> "Graph";
            case "cntrl" -> "Cntrl";
            default -> "XDigit";
        };
    }

}
