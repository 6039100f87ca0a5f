// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A getopt_long-style parser driven by a table of a command's picocli options ({@link Table}),
 * for subcommands whose startup is part of a pipeline's cost ({@code brisk pv}, {@code brisk
 * par}): picocli's parser (whose Java 5 classes the AOT cache cannot hold) is never loaded on
 * the common path, nor are the annotations read.
 *
 * <p>It handles what getopt_long does: clustered short flags ({@code -ptb}), attached or separate
 * values ({@code -L10k}, {@code -L 10k}), {@code --long=value} and {@code --long value}, {@code --}
 * and a lone {@code -} as an operand. Options are {@code boolean}, {@code boolean[]} (repeatable),
 * {@code String}, {@code int}, {@code double}, {@code Double}, {@code Path} or {@code List<String>}
 * (repeatable) fields, converted as picocli converts them; operands go to one
 * {@code List<String>} field; once the option a {@link Table} names in
 * {@link Table#fastOptionsEndWith} is set, the next operand ends the options. For
 * {@code brisk par} it reads as GNU parallel's Perl Getopt::Long (bundling, require_order) does:
 * see {@link #parse(Table, String[], boolean)}. Anything else (help, version, an unknown option,
 * a missing or unconvertible value) makes {@link #parse} return false, and the caller hands the
 * arguments to picocli, which handles or reports them. Stateless.
 */
final class GetoptParser {
    private GetoptParser() {}

    /**
     * A command GetoptParser can fill: its option fields and their names, as its {@link Option}
     * annotations give them, and its {@link Parameters} field. A table rather than the annotations
     * themselves: reading an annotation makes the JVM generate a proxy class for its type, ~20 ms
     * of start-up for the four types on these commands.
     */
    interface Table {
        /** One row per option field: the field's name, then the option's names. */
        String[][] fastOptions();

        /** The name of the {@code List<String>} field that takes the operands. */
        String fastOperands();

        /**
         * The name of a {@code String} option field that, once set, makes the first operand end
         * the options (the operands are then a command and its own arguments: {@code pv -M}), or null.
         */
        default String fastOptionsEndWith() {
            return null;
        }

        /**
         * The {@code String} option fields whose value is optional, as Perl's Getopt::Long reads
         * them (GNU parallel's {@code -i[R]}, {@code -e[EOF]}, {@code -l[N]}), each with its type:
         * {@code 's'} takes the rest of a cluster, or else the next word unless it starts with
         * {@code -}; {@code 'f'} takes only a number there, and a cluster goes on after it. A
         * missing value is stored as the empty string. Only read in GNU parallel's mode.
         */
        default Map<String, Character> fastOptional() {
            return Map.of();
        }

        /**
         * The long options of the tool this command stands in for, each with its other names
         * (without {@code --}), for Getopt::Long's abbreviations: a long option not spelled whole
         * names the one option with a name that starts so, and is ambiguous when several do. Null:
         * no abbreviations. Only read in GNU parallel's mode, and only for a name not found.
         */
        default List<List<String>> fastLongOptions() {
            return null;
        }
    }

    /** Fills {@code command}'s fields from {@code args}; false if picocli must take over. */
    static boolean parse(Table command, String[] args) {
        return parse(command, args, false);
    }

    /**
     * As {@link #parse(Table, String[])}; with {@code gnuParallel}, as GNU parallel's
     * Getopt::Long (bundling, require_order) reads its options: everything from the first
     * operand on is an operand (the command and its input groups), an option may be given
     * again (the last value counts; lists and {@code boolean[]} fields collect them), a
     * mandatory value is the next word whatever it is, and {@link Table#fastOptional} values
     * are optional; a long option may be in any case or a unique abbreviation
     * ({@link Table#fastLongOptions}).
     *
     * @throws IllegalArgumentException for an ambiguous abbreviation, in Getopt::Long's words
     */
    static boolean parse(Table command, String[] args, boolean gnuParallel) {
        Map<String, Field> options = new HashMap<>();
        Map<String, Character> optional = gnuParallel ? command.fastOptional() : Map.of();
        Field operands;
        Field stopper;
        try {
            for (String[] row : command.fastOptions()) {
                Field f = command.getClass().getDeclaredField(row[0]);
                if (!SUPPORTED.contains(f.getType())) {
                    return false;
                }
                for (int i = 1; i < row.length; i++) {
                    options.put(row[i], f);
                }
            }
            operands = command.getClass().getDeclaredField(command.fastOperands());
            stopper = command.fastOptionsEndWith() == null ? null : command.getClass().getDeclaredField(command.fastOptionsEndWith());
        } catch (NoSuchFieldException e) {
            return false;
        }
        if (operands.getType() != List.class) {
            return false;
        }
        try {
            @SuppressWarnings("unchecked")
            List<String> out = (List<String>) operands.get(command);
            boolean onlyOperands = false;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (onlyOperands || a.equals("-") || !a.startsWith("-")) {
                    out.add(a);
                    onlyOperands |= gnuParallel || stopper != null && stopper.get(command) != null;
                } else if (a.equals("--")) {
                    onlyOperands = true;
                } else if (a.startsWith("--")) {
                    int eq = a.indexOf('=');
                    Field f = options.get(eq < 0 ? a : a.substring(0, eq));
                    if (f == null && gnuParallel) {
                        f = abbreviated(command, options, eq < 0 ? a.substring(2) : a.substring(2, eq));
                    }
                    if (f == null) {
                        return false;
                    }
                    Character opt = optional.get(f.getName());
                    if (opt != null && eq < 0) {
                        String next = i + 1 < args.length ? optionalValue(opt, args[i + 1]) : null;
                        i += next != null ? 1 : 0;
                        f.set(command, next != null ? next : "");
                    } else if (takesValue(f)) {
                        String value = eq >= 0 ? a.substring(eq + 1) : ++i < args.length ? args[i] : null;
                        if (value == null || !set(command, f, value)) {
                            return false;
                        }
                    } else if (eq >= 0 || !flag(command, f)) {
                        return false;
                    }
                } else {
                    for (int j = 1; j < a.length(); j++) {
                        Field f = options.get("-" + a.charAt(j));
                        if (f == null) {
                            return false;
                        }
                        Character opt = optional.get(f.getName());
                        if (opt != null) {
                            String rest = a.substring(j + 1);
                            if (rest.isEmpty()) {
                                String next = i + 1 < args.length ? optionalValue(opt, args[i + 1]) : null;
                                i += next != null ? 1 : 0;
                                f.set(command, next != null ? next : "");
                                break;
                            }
                            if (opt == 's') {
                                f.set(command, rest);
                                break;
                            }
                            // a number's digits, then the cluster goes on (-l2k: -l 2 -k)
                            java.util.regex.Matcher m = FLOAT_PREFIX.matcher(rest);
                            String value = m.lookingAt() ? m.group() : "";
                            f.set(command, value);
                            j += value.length();
                            continue;
                        }
                        if (takesValue(f)) {
                            boolean attached = j + 1 < a.length();
                            String value = attached ? a.substring(j + 1) : ++i < args.length ? args[i] : null;
                            if (value == null || !set(command, f, value)) {
                                return false;
                            }
                            break;
                        }
                        if (!flag(command, f)) {
                            return false;
                        }
                    }
                }
            }
            return true;
        } catch (IllegalAccessException e) {
            return false;
        }
    }

    /**
     * The option {@code name} (a long option's, without {@code --}) stands for as Getopt::Long
     * reads it (ignoring case; a single letter is that short option; else a unique
     * abbreviation of {@link Table#fastLongOptions}, or of a long name only the command has),
     * or null when it is none the command takes.
     *
     * @throws IllegalArgumentException when it abbreviates several options, naming them as
     *     Getopt::Long does
     */
    private static Field abbreviated(Table command, Map<String, Field> options, String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        Field exact = options.get(name.length() == 1 ? "-" + name : "--" + lower);
        List<List<String>> groups = command.fastLongOptions();
        if (exact != null || groups == null || name.isEmpty()) {
            return exact;
        }
        List<List<String>> all = new java.util.ArrayList<>(groups);
        Set<String> known = new java.util.HashSet<>();
        groups.forEach(known::addAll);
        Map<Field, List<String>> own = new java.util.LinkedHashMap<>();
        options.forEach((n, f) -> {
            if (n.startsWith("--") && !known.contains(n.substring(2))) {
                own.computeIfAbsent(f, x -> new java.util.ArrayList<>()).add(n.substring(2));
            }
        });
        all.addAll(own.values());
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
            throw new IllegalArgumentException("Option " + name + " is ambiguous (" + String.join(", ", names) + ")");
        }
        if (hits.isEmpty()) {
            return null;
        }
        for (String n : hits.getFirst()) {
            Field f = options.get("--" + n);
            if (f != null) {
                return f;
            }
        }
        return null; // an option of the tool the command does not take
    }

    /** Getopt::Long's number: what an optional numeric value must look like. */
    private static final java.util.regex.Pattern FLOAT_PREFIX =
            java.util.regex.Pattern.compile("[-+]?(?=[0-9.])[0-9_]*(\\.[0-9_]*)?([eE][-+]?[0-9_]+)?");

    /**
     * The next word as an optional value of type {@code type} ({@code 's'} or {@code 'f'}), as
     * Getopt::Long takes it, or null when it stays a word of its own.
     */
    private static String optionalValue(char type, String next) {
        if (type == 'f') {
            return FLOAT_PREFIX.matcher(next).matches() ? next : null;
        }
        return next.equals("--") || next.length() > 1 && next.charAt(0) == '-' ? null : next;
    }

    private static final Set<Class<?>> SUPPORTED = Set.of(boolean.class, boolean[].class, String.class, int.class,
            long.class, double.class, Double.class, Path.class, List.class);

    private static boolean takesValue(Field f) {
        return f.getType() != boolean.class && f.getType() != boolean[].class;
    }

    /** Converts {@code value} as picocli would and stores it; false if it does not convert. */
    private static boolean set(Object command, Field f, String value) throws IllegalAccessException {
        Class<?> t = f.getType();
        try {
            if (t == String.class) {
                f.set(command, value);
            } else if (t == int.class) {
                f.setInt(command, Integer.valueOf(value));
            } else if (t == long.class) {
                f.setLong(command, Long.valueOf(value));
            } else if (t == double.class) {
                f.setDouble(command, Double.valueOf(value));
            } else if (t == Double.class) {
                f.set(command, Double.valueOf(value));
            } else if (t == Path.class) {
                f.set(command, Path.of(value));
            } else if (t == List.class) {
                @SuppressWarnings("unchecked")
                List<String> l = (List<String>) f.get(command);
                if (l == null) {
                    return false;
                }
                l.add(value);
            } else {
                return false;
            }
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean flag(Object command, Field f) throws IllegalAccessException {
        if (f.getType() == boolean.class) {
            f.setBoolean(command, true);
            return true;
        }
        if (f.getType() == boolean[].class) {
            boolean[] old = (boolean[]) f.get(command);
            boolean[] more = java.util.Arrays.copyOf(old == null ? new boolean[0] : old, (old == null ? 0 : old.length) + 1);
            more[more.length - 1] = true;
            f.set(command, more);
            return true;
        }
        return false;
    }
}
