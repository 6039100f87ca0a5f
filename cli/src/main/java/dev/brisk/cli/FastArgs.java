package dev.brisk.cli;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A getopt_long-style parser driven by a command's picocli annotations, for subcommands whose
 * startup is part of a pipeline's cost ({@code brisk pv}): it reads only the {@link Option} and
 * {@link Parameters} annotations, so picocli's parser (whose Java 5 classes the AOT cache cannot
 * hold) is never loaded on the common path.
 *
 * <p>It handles what getopt_long does: clustered short flags ({@code -ptb}), attached or separate
 * values ({@code -L10k}, {@code -L 10k}), {@code --long=value} and {@code --long value}, {@code --}
 * and a lone {@code -} as an operand. Options are {@code boolean}, {@code boolean[]} (repeatable)
 * or {@code String} fields; operands go to one {@code List<String>} field. Anything else
 * (help, version, an unknown option, a missing value) makes {@link #parse} return false, and the
 * caller hands the arguments to picocli, which handles or reports them. Stateless.
 */
final class FastArgs {
    private FastArgs() {}

    /** Fills {@code command}'s fields from {@code args}; false if picocli must take over. */
    static boolean parse(Object command, String[] args) {
        Map<String, Field> options = new HashMap<>();
        Field operands = null;
        for (Field f : command.getClass().getDeclaredFields()) {
            Option o = f.getAnnotation(Option.class);
            if (o != null) {
                Class<?> t = f.getType();
                if (t != boolean.class && t != boolean[].class && t != String.class) {
                    return false;
                }
                for (String n : o.names()) {
                    options.put(n, f);
                }
            } else if (f.getAnnotation(Parameters.class) != null) {
                operands = f;
            }
        }
        if (operands == null || operands.getType() != List.class) {
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
                } else if (a.equals("--")) {
                    onlyOperands = true;
                } else if (a.startsWith("--")) {
                    int eq = a.indexOf('=');
                    Field f = options.get(eq < 0 ? a : a.substring(0, eq));
                    if (f == null) {
                        return false;
                    }
                    if (f.getType() == String.class) {
                        String value = eq >= 0 ? a.substring(eq + 1) : ++i < args.length ? args[i] : null;
                        if (value == null) {
                            return false;
                        }
                        f.set(command, value);
                    } else if (eq >= 0 || !flag(command, f)) {
                        return false;
                    }
                } else {
                    for (int j = 1; j < a.length(); j++) {
                        Field f = options.get("-" + a.charAt(j));
                        if (f == null) {
                            return false;
                        }
                        if (f.getType() == String.class) {
                            String value = j + 1 < a.length() ? a.substring(j + 1) : ++i < args.length ? args[i] : null;
                            if (value == null) {
                                return false;
                            }
                            f.set(command, value);
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
