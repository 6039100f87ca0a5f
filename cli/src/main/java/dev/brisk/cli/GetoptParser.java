// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.cli.OptionTable.Kind;
import dev.brisk.cli.OptionTable.Row;
import java.util.List;
import java.util.Set;

/**
 * A getopt_long-style parser driven by a command's {@link OptionTable}, for subcommands whose
 * startup is part of a pipeline's cost ({@code brisk pv}, {@code brisk par}): picocli's parser
 * (whose Java 5 classes the AOT cache cannot hold) is never loaded on the common path, and
 * nothing is looked up by reflection: each row stores its value with its own lambda.
 *
 * <p>It handles what getopt_long does: clustered short flags ({@code -ptb}), attached or separate
 * values ({@code -L10k}, {@code -L 10k}), {@code --long=value} and {@code --long value}, {@code --}
 * and a lone {@code -} as an operand; once {@link OptionTable#operandsOnly} holds, the next
 * operand ends the options. A table read as GNU parallel's reads as its Perl Getopt::Long
 * (bundling, require_order) does: see {@link #parse}. Anything else (help, version, an unknown
 * option, a missing or unconvertible value) makes {@link #parse} return false, and the caller
 * hands the arguments to picocli ({@link OptionTable#parse}), which handles or reports them.
 * Stateless.
 */
final class GetoptParser {
    private GetoptParser() {}

    /**
     * Fills {@code command} from {@code args} as {@code table} says; false if picocli must take
     * over (the command may then hold part of the arguments: use a fresh one).
     *
     * <p>With a table read as GNU parallel's, as its Getopt::Long (bundling, require_order)
     * reads its options: everything from the first operand on is an operand (the command and
     * its input groups), an option may be given again (the last value counts; lists and counts
     * collect them), a mandatory value is the next word whatever it is, an optional value is
     * read as its {@link Kind} says, and a long option may be in any case or a unique
     * abbreviation ({@link OptionTable#toolOptions}).
     *
     * @throws IllegalArgumentException for an ambiguous abbreviation, in Getopt::Long's words
     */
    static <T> boolean parse(OptionTable<T> table, T command, String[] args) {
        boolean gnuParallel = table.gnuParallel();
        try {
            boolean onlyOperands = false;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (onlyOperands || a.equals("-") || !a.startsWith("-")) {
                    table.operand(command, a);
                    onlyOperands |= gnuParallel || table.operandsOnly(command);
                } else if (a.equals("--")) {
                    onlyOperands = true;
                } else if (a.startsWith("--")) {
                    int eq = a.indexOf('=');
                    Row<T> r = table.row(eq < 0 ? a : a.substring(0, eq));
                    if (r == null && gnuParallel) {
                        r = abbreviated(table, eq < 0 ? a.substring(2) : a.substring(2, eq));
                    }
                    if (r == null) {
                        return false;
                    }
                    if (optional(r.kind()) && eq < 0) {
                        String next = i + 1 < args.length ? optionalValue(r.kind(), args[i + 1]) : null;
                        i += next != null ? 1 : 0;
                        r.store().accept(command, next != null ? next : "");
                    } else if (r.kind().takesValue()) {
                        String value = eq >= 0 ? a.substring(eq + 1) : ++i < args.length ? args[i] : null;
                        if (value == null) {
                            return false;
                        }
                        r.store().accept(command, value);
                    } else if (eq >= 0) {
                        return false;
                    } else {
                        r.store().accept(command, null);
                    }
                } else {
                    for (int j = 1; j < a.length(); j++) {
                        char letter = a.charAt(j);
                        Row<T> r = table.row(letter < SHORT.length ? SHORT[letter] : "-" + letter);
                        if (r == null) {
                            return false;
                        }
                        if (optional(r.kind())) {
                            String rest = a.substring(j + 1);
                            if (rest.isEmpty()) {
                                String next = i + 1 < args.length ? optionalValue(r.kind(), args[i + 1]) : null;
                                i += next != null ? 1 : 0;
                                r.store().accept(command, next != null ? next : "");
                                break;
                            }
                            if (r.kind() == Kind.OPTIONAL_STRING) {
                                r.store().accept(command, rest);
                                break;
                            }
                            // a number's digits, then the cluster goes on (-l2k: -l 2 -k)
                            java.util.regex.Matcher m = FLOAT_PREFIX.matcher(rest);
                            String value = m.lookingAt() ? m.group() : "";
                            r.store().accept(command, value);
                            j += value.length();
                            continue;
                        }
                        if (r.kind().takesValue()) {
                            boolean attached = j + 1 < a.length();
                            String value = attached ? a.substring(j + 1) : ++i < args.length ? args[i] : null;
                            if (value == null) {
                                return false;
                            }
                            r.store().accept(command, value);
                            break;
                        }
                        r.store().accept(command, null);
                    }
                }
            }
            return true;
        } catch (Ambiguous e) {
            throw e;
        } catch (RuntimeException e) {
            return false; // a value that does not convert: picocli says so in its words
        }
    }

    /** "-x" for each ASCII character, so a cluster's letters are looked up without a new string each. */
    private static final String[] SHORT = new String[128];

    static {
        for (char c = 0; c < 128; c++) {
            SHORT[c] = "-" + c;
        }
    }

    /** An abbreviation of several long options, in Getopt::Long's words. */
    static final class Ambiguous extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Ambiguous(String message) {
            super(message);
        }
    }

    private static boolean optional(Kind kind) {
        return kind == Kind.OPTIONAL_STRING || kind == Kind.OPTIONAL_NUMBER;
    }

    /**
     * The row {@code name} (a long option's, without {@code --}) stands for as Getopt::Long
     * reads it (ignoring case; a single letter is that short option; else a unique
     * abbreviation of {@link OptionTable#toolOptions}, or of a long name only the command has),
     * or null when it is none the command takes.
     *
     * @throws Ambiguous when it abbreviates several options, naming them as Getopt::Long does
     */
    private static <T> Row<T> abbreviated(OptionTable<T> table, String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        Row<T> exact = table.row(name.length() == 1 ? "-" + name : "--" + lower);
        List<List<String>> groups = table.toolOptions();
        if (exact != null || groups == null || name.isEmpty()) {
            return exact;
        }
        List<List<String>> all = new java.util.ArrayList<>(groups);
        Set<String> known = new java.util.HashSet<>();
        groups.forEach(known::addAll);
        for (Row<T> r : table.rows()) {
            List<String> own = new java.util.ArrayList<>();
            for (String n : r.names()) {
                if (n.startsWith("--") && !known.contains(n.substring(2))) {
                    own.add(n.substring(2));
                }
            }
            if (!own.isEmpty()) {
                all.add(own);
            }
        }
        List<List<String>> hits = new java.util.ArrayList<>();
        java.util.TreeSet<String> names = new java.util.TreeSet<>();
        for (List<String> g : all) {
            if (g.contains(lower)) {
                hits = List.of(g); // spelled whole: an option the command does not take
                break;
            }
            boolean hit = false;
            for (String n : g) {
                if (n.startsWith(lower)) {
                    names.add(n);
                    hit = true;
                }
            }
            if (hit) {
                hits.add(g);
            }
        }
        if (hits.size() > 1) {
            throw new Ambiguous("Option " + name + " is ambiguous (" + String.join(", ", names) + ")");
        }
        if (hits.isEmpty()) {
            return null;
        }
        for (String n : hits.getFirst()) {
            Row<T> r = table.row("--" + n);
            if (r != null) {
                return r;
            }
        }
        return null; // an option of the tool the command does not take
    }

    /** Getopt::Long's number: what an optional numeric value must look like. */
    private static final java.util.regex.Pattern FLOAT_PREFIX =
            java.util.regex.Pattern.compile("[-+]?(?=[0-9.])[0-9_]*(\\.[0-9_]*)?([eE][-+]?[0-9_]+)?");

    /**
     * The next word as an optional value of kind {@code kind}, as Getopt::Long takes it, or null
     * when it stays a word of its own.
     */
    private static String optionalValue(Kind kind, String next) {
        if (kind == Kind.OPTIONAL_NUMBER) {
            return FLOAT_PREFIX.matcher(next).matches() ? next : null;
        }
        return next.equals("--") || next.length() > 1 && next.charAt(0) == '-' ? null : next;
    }
}
