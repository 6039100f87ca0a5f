// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.exec.ColumnRules;
import dev.brisk.exec.ItemSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GNU parallel's words for columns in {@code brisk par}: {@code --header}'s column names, which
 * become positional replacement strings in the command, and {@code --tagstring}'s escapes.
 * Text is matched as bytes (ISO-8859-1 strings, one char per byte), as Perl matches it.
 */
final class ParColumns {
    private ParColumns() {}

    /**
     * The names of a run's columns, each with its number: {@code {name}} (and {@code {name.}},
     * {@code {name/}}, {@code {name//}}, {@code {name/.}}, {@code {=name ...=}}) becomes
     * {@code {N}} in the same form, name after name, as GNU parallel rewrites its command line.
     */
    record Header(List<Pattern> names, List<Integer> numbers, String left, String right, List<String> titles) {
        /** {@code word} with every name replaced by its number. */
        byte[] rewrite(byte[] word) {
            String s = new String(word, StandardCharsets.ISO_8859_1);
            for (int k = 0; k < names.size(); k++) {
                String n = String.valueOf(numbers.get(k));
                s = names.get(k).matcher(s).replaceAll(r -> Matcher.quoteReplacement(r.group(1) != null
                        ? "{" + n + r.group(1) + "}" : left + n + r.group(2) + right));
            }
            return s.getBytes(StandardCharsets.ISO_8859_1);
        }

        /** As {@link #rewrite(byte[])}, for an option's value. */
        String rewrite(String text) {
            return new String(rewrite(text.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
        }
    }

    /**
     * {@code --header VALUE} over {@code sources} (in GNU parallel's order): unless VALUE is
     * {@code 0}, the first item of each source is taken out of it and split at {@code colsep}
     * (default a TAB; empty names at the end left out), the names numbered over all sources from
     * 1; then, whatever VALUE, the names of the input files ({@code -a}, {@code ::::}) are
     * numbered from 1 too. A Perl expression's name is found between {@code left} and
     * {@code right} ({@code --parens}: <code>{=</code> and <code>=}</code> by default).
     *
     * @throws IllegalArgumentException if {@code colsep} is not a valid expression
     */
    static Header header(String value, String colsep, List<ItemSource> sources, List<String> fileNames, String left,
            String right) throws IOException {
        List<Pattern> names = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        List<String> titles = new ArrayList<>(); // the columns' names as read, for --results DIR's directories
        if (!value.equals("0")) {
            Pattern sep = ColumnRules.separator((colsep != null ? colsep : "\t").getBytes(StandardCharsets.UTF_8));
            int id = 1;
            for (ItemSource s : sources) {
                byte[] line = s.next();
                if (line == null) {
                    continue;
                }
                int end = line.length > 0 && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
                for (byte[] name : ColumnRules.split(sep, java.util.Arrays.copyOf(line, end), false)) {
                    add(names, numbers, new String(name, StandardCharsets.ISO_8859_1), id++, left, right);
                    titles.add(new String(name, StandardCharsets.UTF_8));
                }
            }
        }
        int id = 1;
        for (String f : fileNames) {
            add(names, numbers, new String(f.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1), id++, left, right);
            // as GNU parallel's table of names by number: a file's name takes its number's place
            if (id - 2 < titles.size()) {
                titles.set(id - 2, f);
            } else {
                titles.add(f);
            }
        }
        return new Header(names, numbers, left, right, titles);
    }

    private static void add(List<Pattern> names, List<Integer> numbers, String name, int id, String left, String right) {
        String q = Pattern.quote(name);
        names.add(Pattern.compile("\\{" + q + "(|/|//|\\.|/\\.)\\}|" + Pattern.quote(left) + q + "(.*?)" + Pattern.quote(right),
                Pattern.DOTALL));
        numbers.add(id);
    }

    /**
     * {@code --tagstring}'s escapes, as GNU parallel's {@code unquote_printf}: {@code \t},
     * {@code \n}, {@code \r}, and {@code \NNN} or {@code \N} (octal: {@code \101} is {@code A},
     * {@code \0} NUL).
     */
    static String unquotePrintf(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        String t = s.replace("\\t", "\t").replace("\\n", "\n").replace("\\r", "\r");
        Matcher m = Pattern.compile("\\\\(\\d\\d\\d|\\d)").matcher(t);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String digits = m.group(1);
            int octal = 0;
            int k = 0;
            while (k < digits.length() && digits.charAt(k) <= '7') {
                octal = octal * 8 + digits.charAt(k++) - '0';
            }
            m.appendReplacement(b, Matcher.quoteReplacement((k == 0 ? "" : String.valueOf((char) octal)) + digits.substring(k)));
        }
        return m.appendTail(b).toString();
    }
}
