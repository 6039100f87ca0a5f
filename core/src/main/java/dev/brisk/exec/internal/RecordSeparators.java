// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.PipeRecords;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * {@code --rrs}: a block without its records' separators, as GNU parallel 20221122 takes them
 * off: every end-and-start anywhere in it, then a start at its beginning, then an end at its
 * end (Perl's {@code $}: or just before a last newline). With {@code --regexp} the three are
 * regular expressions, an end-and-start matched at each line's start and end. Thread-safe.
 */
final class RecordSeparators {
    private final Pattern between;
    private final Pattern first;
    private final Pattern last;

    RecordSeparators(PipeRecords rules) {
        String start = latin(rules.start());
        String end = latin(rules.end());
        if (!rules.regexp()) {
            start = start.isEmpty() ? "" : Pattern.quote(start);
            end = end.isEmpty() ? "" : Pattern.quote(end);
        }
        between = start.isEmpty() && end.isEmpty() ? null
                : Pattern.compile("(?:" + end + ")(?:" + start + ")", Pattern.MULTILINE | Pattern.UNIX_LINES);
        first = start.isEmpty() ? null : Pattern.compile("^(?:" + start + ")", Pattern.DOTALL | Pattern.UNIX_LINES);
        last = end.isEmpty() ? null : Pattern.compile("(?:" + end + ")$", Pattern.DOTALL | Pattern.UNIX_LINES);
    }

    /** {@code block} without its separators. */
    byte[] remove(byte[] block) {
        String s = latin(block);
        if (between != null) {
            s = between.matcher(s).replaceAll("");
        }
        if (first != null) {
            s = first.matcher(s).replaceFirst("");
        }
        if (last != null) {
            s = last.matcher(s).replaceFirst("");
        }
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String latin(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
