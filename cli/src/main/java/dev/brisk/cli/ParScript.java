// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code brisk par} as a script's interpreter, as GNU parallel's {@code --shebang} and
 * {@code --shebang-wrap}: the {@code #!} line's words, which Linux passes as one argument, become
 * a command line of their own. Stateless.
 *
 * <ul>
 *   <li>{@code #!/path/brisk par --shebang OPTIONS COMMAND}: the kernel runs
 *       {@code brisk "par --shebang OPTIONS COMMAND" SCRIPT}; the script's lines after the first
 *       are the input ({@code -a SCRIPT}, its first line skipped). As GNU's, the last argument is
 *       the input file, the others go after the {@code #!} line's words.
 *   <li>{@code #!/path/brisk par --shebang-wrap OPTIONS PROGRAM}: the script's arguments are the
 *       input ({@code ::: ARGS}) and each job runs {@code PROGRAM SCRIPT ARG}; with {@code --pipe}
 *       the arguments are argument files ({@code --_pipe-means-argfiles}), which GNU parallel
 *       20221122's {@code --pipe} does not read: the blocks come from stdin, each to
 *       {@code PROGRAM SCRIPT}.
 * </ul>
 * GNU parallel re-runs itself through {@code sh} on one string made of these words; brisk splits
 * that string as Perl's {@code shellwords} does ({@link ParseWords}): quotes and backslashes, no
 * expansions.
 */
final class ParScript {
    private ParScript() {}

    /** A command line read from a {@code #!} line: its words, and whether the first input line is skipped. */
    record Expanded(String[] args, boolean skipFirstLine) {}

    /**
     * {@code brisk}'s arguments with a {@code #!} line's {@code "par --shebang..."} first word split
     * into {@code par} and the rest ({@link #expand} reads the rest), else {@code args} as they are.
     */
    static List<byte[]> subcommand(List<byte[]> args) {
        if (args.isEmpty()) {
            return args;
        }
        String first = new String(args.getFirst(), StandardCharsets.ISO_8859_1);
        if (!first.startsWith("par ") || !isScript(first.substring(4).stripLeading())) {
            return args;
        }
        List<byte[]> split = new ArrayList<>(args.size() + 1);
        split.add("par".getBytes(StandardCharsets.US_ASCII));
        split.add(first.substring(4).stripLeading().getBytes(StandardCharsets.ISO_8859_1));
        split.addAll(args.subList(1, args.size()));
        return split;
    }

    /** As {@link #subcommand(List)}, for decoded arguments. */
    static String[] subcommand(String[] args) {
        if (args.length == 0 || !args[0].startsWith("par ") || !isScript(args[0].substring(4).stripLeading())) {
            return args;
        }
        String[] split = new String[args.length + 1];
        split[0] = "par";
        split[1] = args[0].substring(4).stripLeading();
        System.arraycopy(args, 1, split, 2, args.length - 1);
        return split;
    }

    /** Whether {@code word} (par's first argument) starts as a {@code #!} line's: {@code --shebang}, {@code --shebang-wrap}, {@code --hashbang}. */
    static boolean isScript(String word) {
        return word.startsWith("--shebang") || word.startsWith("--hashbang");
    }

    /**
     * par's arguments ({@code args}, after {@code par}) as GNU parallel reads a {@code #!} line's:
     * unchanged unless the first starts with {@code --shebang}, {@code --shebang-wrap} (or
     * {@code --shebangwrap}) or {@code --hashbang}.
     */
    static Expanded expand(String[] args) {
        if (args.length == 0 || !isScript(args[0])) {
            return new Expanded(args, false);
        }
        String first = args[0];
        String wrap = first.replaceFirst("^--shebang-?wrap *", "");
        if (!wrap.equals(first)) {
            if (args.length < 2) {
                throw new IllegalArgumentException("--shebang-wrap: no script named (use it on a script's #! line)");
            }
            List<String> words = new ArrayList<>();
            words.add("--_pipe-means-argfiles");
            words.addAll(ParseWords.shellwords(wrap));
            words.add(args[1]);
            words.add(":::");
            words.addAll(ParseWords.shellwords(String.join(" ", List.of(args).subList(2, args.length))));
            return new Expanded(words.toArray(String[]::new), false);
        }
        String rest = first.replaceFirst("^--(shebang|hashbang) *", "");
        if (args.length < 2) {
            throw new IllegalArgumentException("--shebang: no script named (use it on a script's #! line)");
        }
        List<String> words = new ArrayList<>(List.of("-a", args[args.length - 1]));
        List<String> others = new ArrayList<>(List.of(args).subList(0, args.length - 1));
        others.set(0, rest);
        words.addAll(ParseWords.shellwords(String.join(" ", others)));
        return new Expanded(words.toArray(String[]::new), true);
    }
}
