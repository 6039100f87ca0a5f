// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.ObjDoubleConsumer;
import java.util.function.ObjIntConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParseResult;

/**
 * The one declaration of a command's options ({@code brisk par}'s, {@code brisk pv}'s), in the
 * manner of bfs's {@code parse_table}: each {@link Row} gives an option's names, its {@link Kind},
 * the label of its value, how to store it (a lambda on the command object) and its help text.
 * Everything else is derived from it: {@link GetoptParser}'s fast path, picocli's model for help,
 * the version and usage errors ({@link #commandLine}), and through that model the man page
 * ({@link ManPage}) and the shell completions ({@link Completions}), par's list of the options
 * that take a value ({@link #valued}), and the option lists of docs/PAR.md and docs/PV.md
 * ({@link #markdown}). Immutable; the command objects it fills are not shared.
 *
 * @param <T> the command class whose fields the rows set
 */
final class OptionTable<T> {
    /** How an option takes a value. */
    enum Kind {
        /** No value; given again, still set. */
        FLAG,
        /** No value; each time it is given counts ({@code -vv}). */
        COUNT,
        /** A value, the last one given counts. */
        VALUE,
        /** A value each time it is given, all kept ({@code -a F1 -a F2}). */
        LIST,
        /**
         * An optional value, as Perl's Getopt::Long reads one ({@code :s}): the rest of a cluster,
         * or else the next word unless it starts with {@code -}; none is the empty string.
         */
        OPTIONAL_STRING,
        /**
         * An optional number ({@code :f}): only a number's characters, attached or as the next
         * word; a cluster goes on after it.
         */
        OPTIONAL_NUMBER;

        boolean takesValue() {
            return this != FLAG && this != COUNT;
        }
    }

    /**
     * One option.
     *
     * @param names its names, as they are typed ({@code -k}, {@code --keep-order})
     * @param kind how it takes a value
     * @param type the type picocli converts the value to (its messages name it: "is not an int"):
     *     {@code boolean}, {@code String}, {@code int}, {@code double} or {@code Path}
     * @param label the value's name in help ({@code N}, {@code FILE}), null for none
     * @param store sets the value on the command (null for a flag's), converting it as picocli
     *     would; throws a {@link RuntimeException} for one that does not convert
     * @param help the help text, in picocli's format ({@code %%} for a percent sign); null for a
     *     hidden option, which help, the man page, completions and docs leave out
     */
    record Row<T>(List<String> names, Kind kind, Class<?> type, String label, BiConsumer<T, String> store, String help) {
        Row {
            names = List.copyOf(names);
        }

        boolean hidden() {
            return help == null;
        }
    }

    private final String name;
    private final List<Row<T>> rows;
    private final String operandLabel;
    private final String operandHelp;
    private final BiConsumer<T, String> operand;
    private final Predicate<T> operandsOnly;
    private final boolean gnuParallel;
    private final Supplier<List<List<String>>> toolOptions;
    private final Map<String, Row<T>> byName = new HashMap<>();

    /**
     * @param name the command's name in messages ({@code brisk par})
     * @param rows the options, in the order help lists them
     * @param operandLabel the operands' name in help, {@code operandHelp} their help
     * @param operand stores one operand
     * @param operandsOnly whether, on the command as parsed so far, an operand ends the options
     *     (the rest are operands: {@code pv -M}'s command and its arguments)
     * @param gnuParallel read as GNU parallel's Getopt::Long reads its options (see
     *     {@link GetoptParser#parse})
     * @param toolOptions the long options of the tool the command stands in for (GNU
     *     parallel's), each with its other names, for Getopt::Long's abbreviations; asked only for
     *     a long name not spelled whole; null: no abbreviations
     */
    OptionTable(String name, List<Row<T>> rows, String operandLabel, String operandHelp, BiConsumer<T, String> operand,
            Predicate<T> operandsOnly, boolean gnuParallel, Supplier<List<List<String>>> toolOptions) {
        this.name = name;
        this.rows = List.copyOf(rows);
        this.operandLabel = operandLabel;
        this.operandHelp = operandHelp;
        this.operand = operand;
        this.operandsOnly = operandsOnly;
        this.gnuParallel = gnuParallel;
        this.toolOptions = toolOptions;
        for (Row<T> r : this.rows) {
            for (String n : r.names()) {
                if (byName.put(n, r) != null) {
                    throw new IllegalArgumentException(name + ": option " + n + " declared twice");
                }
            }
        }
    }

    // The rows, one factory per kind and type: a row's type and its conversion are written here once.

    static <T> Row<T> flag(String names, Consumer<T> set, String help) {
        return new Row<>(split(names), Kind.FLAG, boolean.class, null, (c, v) -> set.accept(c), help);
    }

    static <T> Row<T> counted(String names, Consumer<T> add, String help) {
        return new Row<>(split(names), Kind.COUNT, boolean[].class, null, (c, v) -> add.accept(c), help);
    }

    static <T> Row<T> value(String names, String label, BiConsumer<T, String> set, String help) {
        return new Row<>(split(names), Kind.VALUE, String.class, label, set, help);
    }

    static <T> Row<T> integer(String names, String label, ObjIntConsumer<T> set, String help) {
        return new Row<>(split(names), Kind.VALUE, int.class, label, (c, v) -> set.accept(c, Integer.parseInt(v)), help);
    }

    static <T> Row<T> decimal(String names, String label, ObjDoubleConsumer<T> set, String help) {
        return new Row<>(split(names), Kind.VALUE, double.class, label, (c, v) -> set.accept(c, Double.parseDouble(v)), help);
    }

    static <T> Row<T> path(String names, String label, BiConsumer<T, Path> set, String help) {
        return new Row<>(split(names), Kind.VALUE, Path.class, label, (c, v) -> set.accept(c, Path.of(v)), help);
    }

    static <T> Row<T> list(String names, String label, BiConsumer<T, String> add, String help) {
        return new Row<>(split(names), Kind.LIST, String.class, label, add, help);
    }

    static <T> Row<T> optional(String names, String label, BiConsumer<T, String> set, String help) {
        return new Row<>(split(names), Kind.OPTIONAL_STRING, String.class, label, set, help);
    }

    static <T> Row<T> optionalNumber(String names, String label, BiConsumer<T, String> set, String help) {
        return new Row<>(split(names), Kind.OPTIONAL_NUMBER, String.class, label, set, help);
    }

    private static List<String> split(String names) {
        return Arrays.asList(names.split(" "));
    }

    List<Row<T>> rows() {
        return rows;
    }

    /** The row named {@code option} (as typed, with its dashes), or null. */
    Row<T> row(String option) {
        return byName.get(option);
    }

    void operand(T command, String word) {
        operand.accept(command, word);
    }

    boolean operandsOnly(T command) {
        return operandsOnly.test(command);
    }

    boolean gnuParallel() {
        return gnuParallel;
    }

    /** See the constructor; null without abbreviations. */
    List<List<String>> toolOptions() {
        return toolOptions == null ? null : toolOptions.get();
    }

    /** The names of the options that take a mandatory value (an optional one is no reason to skip the next word). */
    java.util.Set<String> valued() {
        java.util.Set<String> valued = new java.util.HashSet<>();
        for (Row<T> r : rows) {
            if (r.kind() == Kind.VALUE || r.kind() == Kind.LIST) {
                valued.addAll(r.names());
            }
        }
        return java.util.Set.copyOf(valued);
    }

    /**
     * picocli's model of the command: {@code spec} (its name, description and statuses) with an
     * option per row, then {@code --help} and {@code --version}, and the operands: for help, the
     * version, usage errors ({@link #parse}), the man page and completions.
     */
    CommandLine commandLine(CommandSpec spec) {
        for (Row<T> r : rows) {
            OptionSpec.Builder o = OptionSpec.builder(r.names().toArray(String[]::new)).userObject(r).hidden(r.hidden());
            if (r.help() != null) {
                o.description(r.help());
            }
            if (r.label() != null) {
                o.paramLabel(r.label());
            }
            switch (r.kind()) {
                case FLAG -> o.type(boolean.class);
                case COUNT -> o.type(boolean[].class).arity("0");
                case LIST -> o.type(List.class).auxiliaryTypes(String.class);
                case OPTIONAL_STRING, OPTIONAL_NUMBER -> o.type(String.class).arity("0..1");
                case VALUE -> o.type(r.type());
            }
            spec.addOption(o.build());
        }
        spec.mixinStandardHelpOptions(true);
        spec.addPositional(PositionalParamSpec.builder().paramLabel(operandLabel).arity("0..*").type(List.class)
                .auxiliaryTypes(String.class).description(operandHelp).build());
        return new CommandLine(spec);
    }

    /**
     * Parses {@code args} with {@code cl} (made by {@link #commandLine}) and stores what it
     * matched on {@code command}, as {@link GetoptParser} would have.
     *
     * @return picocli's result, for its help and version requests
     * @throws CommandLine.ParameterException for bad usage, in picocli's words
     */
    ParseResult parse(CommandLine cl, T command, String[] args) {
        ParseResult parsed = cl.parseArgs(args);
        // an option given twice is listed twice, with the value of both each time
        for (OptionSpec o : new java.util.LinkedHashSet<>(parsed.matchedOptions())) {
            if (!(o.userObject() instanceof Row<?> any)) {
                continue; // --help, --version
            }
            @SuppressWarnings("unchecked")
            Row<T> r = (Row<T>) any;
            Object v = o.getValue();
            switch (r.kind()) {
                case FLAG -> r.store().accept(command, null);
                case COUNT -> {
                    for (int i = 0; i < ((boolean[]) v).length; i++) {
                        r.store().accept(command, null);
                    }
                }
                case LIST -> {
                    for (Object e : (List<?>) v) {
                        r.store().accept(command, (String) e);
                    }
                }
                // an int's, a double's and a Path's text make the same value again
                default -> r.store().accept(command, String.valueOf(v));
            }
        }
        for (PositionalParamSpec p : parsed.matchedPositionals()) {
            for (Object w : (List<?>) p.getValue()) {
                operand.accept(command, (String) w);
            }
        }
        return parsed;
    }

    /**
     * The options as a Markdown list, one item per option shown in help: its names with the
     * value's label, then its help (docs/PAR.md and docs/PV.md hold it between markers, checked
     * by DocsTest).
     */
    String markdown() {
        StringBuilder b = new StringBuilder();
        for (Row<T> r : rows) {
            if (r.hidden()) {
                continue;
            }
            List<String> shown = new ArrayList<>();
            for (String n : r.names()) {
                String arg = r.label() == null ? "" : r.kind() == Kind.VALUE || r.kind() == Kind.LIST ? " " + r.label()
                        : n.startsWith("--") ? "[=" + r.label() + "]" : "[" + r.label() + "]";
                shown.add("`" + n + arg + "`");
            }
            b.append("- ").append(String.join(", ", shown)).append(": ")
                    .append(r.help().replace("%%", "%")).append('\n');
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return name + "'s options";
    }
}
