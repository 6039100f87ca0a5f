// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.find.internal.Primary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code brisk find} says about its words, rendered from find's parse table
 * ({@link Primary}, the rows its parser dispatches on): the synopsis, {@code --help}, the word
 * lists of the completions, and the list in docs/FIND.md. {@link ManPage} reads the rows
 * itself. find's syntax is not picocli's, so picocli's model cannot describe it.
 *
 * <p>{@code main} rewrites the list in docs/FIND.md, which {@code FindHelpTest} holds to the table:
 * {@code $JAVA_HOME/bin/java -cp core/target/classes:cli/target/classes dev.brisk.cli.FindHelp docs/FIND.md}.
 */
final class FindHelp {
    /** The lines around docs/FIND.md's generated list. */
    static final String BEGIN = "<!-- generated from find's parse table (FindHelp); do not edit -->",
            END = "<!-- end of the generated list -->";
    /** The options that are one choice, of which the last one given wins: {@code [-H|-L|-P]}. */
    private static final Set<Primary> LINKS = EnumSet.of(Primary.ROOTS, Primary.LOGICAL, Primary.PHYSICAL);
    private static final int WIDTH = 100;
    /** Before a continued line's first word, which a blank follows: the words line up under the first line's. */
    private static final String INDENT = "      ";

    private FindHelp() {}

    /** The command line's shape: {@code brisk find [-H|-L|-P] [-D FLAGS] ... [ROOT...] [EXPRESSION]}. */
    static String synopsis() {
        StringBuilder b = new StringBuilder("brisk find");
        List<String> links = new ArrayList<>();
        for (Primary p : Primary.values()) {
            if (p.kind() != Primary.Kind.FLAG) {
                continue;
            }
            if (LINKS.contains(p)) {
                links.add(p.word());
            } else {
                if (!links.isEmpty()) {
                    b.append(" [").append(String.join("|", links)).append(']');
                    links.clear();
                }
                b.append(" [").append(p.usage()).append(']');
            }
        }
        return b.append(" [ROOT...] [EXPRESSION]").toString();
    }

    /** The text of {@code brisk find --help}. */
    static String usage() {
        StringBuilder b = new StringBuilder("Usage: ").append(synopsis()).append('\n');
        b.append("A drop-in for find(1) on brisk's parallel tree walker.\n");
        for (Primary.Kind kind : Primary.Kind.values()) {
            if (kind == Primary.Kind.FLAG) {
                continue; // the synopsis shows them
            }
            StringBuilder line = new StringBuilder(kind.title()).append(':');
            for (Primary p : Primary.values()) {
                if (p.kind() != kind) {
                    continue;
                }
                String w = p.usage();
                if (line.length() + 1 + w.length() > WIDTH) {
                    b.append(line).append('\n');
                    line.setLength(0);
                    line.append(INDENT);
                }
                line.append(' ').append(w);
            }
            b.append(line).append('\n');
        }
        b.append("""
                -printf: %a %A %b %c %C %d %D %f %F %g %G %h %H %i %k %l %m %M %n %p %P %s %S %t %T %u %U %y %Y %Z %%,
                       C printf flags/width/precision, \\ escapes and \\c; -newerXt dates: @SECS, 2024-01-15[ 10:30[:00]],
                       1/15/2024, Jan 15 2024, 10pm, monday, now, today, yesterday, 2 days ago, -3 hours, last week, ...
                Without -exec/-execdir/-ok/-quit/-depth/-delete the walk is parallel and records come in no fixed order;
                with them (or --threads=1) it is sequential, in find's order.
                Exit status: 0 ok; 1 bad command line, an error while walking, a command that could not start,
                a failed -exec ... + batch, or a failed write.
                """);
        return b.toString();
    }

    /** The words of the expression a user can type, {@code -newerXY} spelled out ({@code -newerma}, ...). */
    static List<String> words() {
        List<String> out = new ArrayList<>();
        for (Primary p : expression()) {
            out.addAll(p.words());
        }
        return out;
    }

    /** The rows of the expression (no option before the roots), in the table's order. */
    static List<Primary> expression() {
        List<Primary> out = new ArrayList<>();
        for (Primary p : Primary.values()) {
            if (p.kind() != Primary.Kind.FLAG) {
                out.add(p);
            }
        }
        return out;
    }

    /** Whether {@code p}'s argument (its first, for {@code -fprintf FILE FORMAT}) is a file name. */
    static boolean takesFile(Primary p) {
        return p.arg() != null && (p.arg().equals("FILE") || p.arg().startsWith("FILE "));
    }

    /** The words of the expression whose argument is a file name. */
    static List<String> takingFiles() {
        return expression().stream().filter(FindHelp::takesFile).map(Primary::word).toList();
    }

    /** The words of the expression that take an argument (the next word is not an expression word). */
    static List<String> takingArgs() {
        return expression().stream().filter(p -> p.arg() != null && !p.arg().startsWith("COMMAND")).map(Primary::word).toList();
    }

    /** docs/FIND.md's generated list, {@link #BEGIN} to {@link #END}: the synopsis and a table of every word. */
    static String markdown() {
        StringBuilder b = new StringBuilder(BEGIN).append("\n`").append(synopsis()).append("`\n\n");
        b.append("| word | meaning |\n|---|---|\n");
        Primary.Kind kind = null;
        for (Primary p : Primary.values()) {
            if (p.kind() != kind) {
                kind = p.kind();
                b.append("| **").append(kind.title()).append("** | |\n");
            }
            b.append("| `").append(cell(p.usage())).append("` | ").append(cell(p.help())).append(" |\n");
        }
        return b.append(END).append('\n').toString();
    }

    /** A table cell's text: a {@code |} escaped, so it does not end the cell. */
    private static String cell(String s) {
        return s.replace("|", "\\|");
    }

    /** {@code doc} with its generated list replaced by {@link #markdown()}; fails where it has none. */
    static String withList(String doc) {
        int from = doc.indexOf(BEGIN), to = doc.indexOf(END);
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("no generated list (" + BEGIN + " ... " + END + ")");
        }
        return doc.substring(0, from) + markdown() + doc.substring(to + END.length() + 1);
    }

    /** Rewrites the generated list of the file {@code args[0]} (docs/FIND.md). */
    public static void main(String[] args) throws IOException {
        Path doc = Path.of(args.length == 1 ? args[0] : "docs/FIND.md");
        Files.writeString(doc, withList(Files.readString(doc, StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }
}
