// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Perl's {@code Text::ParseWords::shellwords}, which GNU parallel splits {@code $PARALLEL} with:
 * words separated by white space, {@code '...'} taken as is, {@code "..."} and bare text with
 * {@code \}x read as x. An unclosed quote ends the line as it stands. Stateless.
 */
final class ParseWords {
    private ParseWords() {}

    /** The words of {@code line}; none for a blank one. */
    static List<String> shellwords(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
                i++;
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                end = end < 0 ? n : end;
                w.append(line, i + 1, end);
                inWord = true;
                i = end + 1;
            } else if (c == '"') {
                inWord = true;
                i++;
                while (i < n && line.charAt(i) != '"') {
                    if (line.charAt(i) == '\\' && i + 1 < n) {
                        i++;
                    }
                    w.append(line.charAt(i++));
                }
                i++;
            } else {
                if (c == '\\' && i + 1 < n) {
                    i++;
                }
                w.append(line.charAt(i++));
                inWord = true;
            }
        }
        if (inWord) {
            words.add(w.toString());
        }
        return words;
    }
}
