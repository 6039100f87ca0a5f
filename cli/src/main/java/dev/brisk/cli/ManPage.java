// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.find.internal.Primary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A section-1 manual page in roff ({@code man(7)} macros), written from the same picocli model
 * that prints {@code --help}: {@code brisk(1)} from {@link Main}'s command and one
 * {@code brisk-NAME(1)} per registered subcommand, so a new subcommand gets its page with no
 * change here. {@code brisk find}'s synopsis and words come from its parse table ({@link Primary}). Text is escaped
 * so that {@code man --warnings} stays silent: backslashes, leading dots and quotes, and every
 * hyphen written as {@code \-} (a minus, so options copy and search as typed).
 */
final class ManPage {
    private final String date;
    private final String version;

    /** {@code date} as the pages' footer shows it (e.g. 2026-11-30), {@code version} brisk's. */
    ManPage(String date, String version) {
        this.date = date;
        this.version = version;
    }

    /** The page of the top-level command: synopsis, options, the list of commands, statuses. */
    String main(CommandLine root) {
        CommandSpec spec = root.getCommandSpec();
        StringBuilder b = header("brisk", first(spec.usageMessage().description()));
        b.append(".SH SYNOPSIS\n.B brisk\n[\\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR]\n\\fICOMMAND\\fR [\\fIARGS\\fR]\n");
        section(b, "DESCRIPTION", spec.usageMessage().description(), false);
        b.append(".SH COMMANDS\n");
        for (var e : root.getSubcommands().entrySet()) {
            b.append(".TP\n.B brisk ").append(esc(e.getKey())).append('\n');
            b.append(esc(first(e.getValue().getCommandSpec().usageMessage().description()))).append('\n');
            b.append("See \\fBbrisk\\-").append(esc(e.getKey())).append("\\fR(1).\n");
        }
        options(b, spec);
        section(b, "EXIT STATUS", spec.usageMessage().footer(), true);
        b.append(".SH ENVIRONMENT\n");
        b.append(".TP\n.B BRISK_NO_AOT=1\nRun without the ahead-of-time cache (slower start-up).\n");
        b.append(".TP\n.B BRISK_JIT=full\nUse the JVM's default JIT and a parallel collector (long runs).\n");
        b.append(".SH FILES\n.TP\n.I /usr/lib/brisk\nThe Java runtime and the jars of an installed brisk.\n");
        b.append(".TP\n.I /var/cache/brisk\nIts AOT caches, trained at installation"
                + " (\\fI/usr/lib/brisk/train\\-aot\\fR makes them again).\n");
        seeAlso(b, root.getSubcommands().keySet().stream().map(n -> "brisk-" + n).toList());
        return b.toString();
    }

    /** The page of subcommand {@code name} of brisk ({@code brisk-NAME(1)}). */
    String sub(String name, CommandLine cl) {
        CommandSpec spec = cl.getCommandSpec();
        StringBuilder b = header("brisk-" + name, first(spec.usageMessage().description()));
        b.append(".SH SYNOPSIS\n");
        if (name.equals("find")) {
            // find's synopsis, rendered from its parse table as its --help shows it
            b.append(".B brisk find\n").append(esc(FindHelp.synopsis().substring("brisk find ".length()))).append('\n');
        } else {
            b.append(".B brisk ").append(esc(name)).append('\n');
            b.append("[\\fIOPTIONS\\fR]");
            for (PositionalParamSpec p : spec.positionalParameters()) {
                b.append(" [\\fI").append(esc(p.paramLabel())).append("\\fR").append(p.arity().max() > 1 ? "..." : "").append(']');
            }
            b.append('\n');
        }
        section(b, "DESCRIPTION", spec.usageMessage().description(), false);
        if (name.equals("find")) {
            for (Primary.Kind kind : Primary.Kind.values()) {
                b.append(".SH ").append(kind.title().toUpperCase(Locale.ROOT)).append('\n');
                for (Primary p : Primary.values()) {
                    if (p.kind() != kind) {
                        continue;
                    }
                    if (p.attached()) {
                        b.append(".TP\n\\fB").append(esc(p.word())).append("\\fI").append(esc(p.arg())).append("\\fR");
                    } else {
                        b.append(".TP\n.B ").append(quoteArg(esc(p.word())));
                        if (p.arg() != null) {
                            b.append(" \\fI").append(esc(p.arg())).append("\\fR");
                        }
                    }
                    b.append('\n').append(esc(p.help())).append('\n');
                }
            }
        } else {
            options(b, spec);
            if (!spec.positionalParameters().isEmpty()) {
                b.append(".SH ARGUMENTS\n");
                for (PositionalParamSpec p : spec.positionalParameters()) {
                    b.append(".TP\n.I ").append(esc(p.paramLabel())).append('\n').append(esc(text(p))).append('\n');
                }
            }
        }
        section(b, "EXIT STATUS", spec.usageMessage().footer(), true);
        seeAlso(b, List.of("brisk"));
        return b.toString();
    }

    private StringBuilder header(String page, String summary) {
        StringBuilder b = new StringBuilder();
        b.append(".\\\" Generated by brisk's ManPage from its command definitions; do not edit.\n");
        b.append(".TH ").append(page.toUpperCase(Locale.ROOT).replace("-", "\\-")).append(" 1 ")
                .append(date).append(" \"brisk ").append(version).append("\" \"User Commands\"\n");
        b.append(".nh\n.ad l\n"); // no hyphenation, ragged right: options and paths must read as typed
        b.append(".SH NAME\n").append(page.replace("-", "\\-")).append(" \\- ")
                .append(esc(lowerFirst(stripDot(summary)))).append('\n');
        return b;
    }

    private static void options(StringBuilder b, CommandSpec spec) {
        if (spec.options().isEmpty()) {
            return;
        }
        b.append(".SH OPTIONS\n");
        for (OptionSpec o : spec.options()) {
            if (o.hidden()) {
                continue;
            }
            b.append(".TP\n");
            List<String> names = new ArrayList<>();
            for (String n : o.names()) {
                String s = "\\fB" + esc(n) + "\\fR";
                if (o.typeInfo().isBoolean() || o.arity().max() == 0) {
                    names.add(s);
                } else {
                    names.add(s + " \\fI" + esc(o.paramLabel()) + "\\fR");
                }
            }
            b.append(String.join(", ", names)).append('\n').append(esc(text(o))).append('\n');
        }
    }

    /** An option's or parameter's description as --help renders it (%n, %%, ${DEFAULT-VALUE}). */
    private static String text(ArgSpec a) {
        List<String> lines = new ArrayList<>();
        for (String d : a.description()) {
            lines.add(format(d));
        }
        return String.join(" ", lines).replace('\n', ' ').strip();
    }

    /** A section of {@code lines}: each its own paragraph, or joined ({@code join}) as a footer's wrapped lines. */
    private static void section(StringBuilder b, String title, String[] lines, boolean join) {
        // --help prints each line as it is; a page fills paragraphs, broken at blank lines
        List<String> paras = new ArrayList<>();
        StringBuilder para = new StringBuilder();
        for (String l : lines) {
            for (String p : format(l).split("\\R", -1)) {
                if (p.isBlank() || !join) {
                    if (!para.isEmpty()) {
                        paras.add(para.toString());
                        para.setLength(0);
                    }
                }
                if (!p.isBlank()) {
                    para.append(para.isEmpty() ? "" : " ").append(p.strip());
                }
            }
        }
        if (!para.isEmpty()) {
            paras.add(para.toString());
        }
        if (paras.isEmpty()) {
            return;
        }
        b.append(".SH ").append(title).append('\n');
        for (int i = 0; i < paras.size(); i++) {
            if (i > 0) {
                b.append(".PP\n");
            }
            b.append(esc(paras.get(i))).append('\n');
        }
    }

    private static void seeAlso(StringBuilder b, List<String> pages) {
        b.append(".SH SEE ALSO\n");
        List<String> refs = new ArrayList<>();
        for (String p : pages) {
            refs.add(".BR " + p.replace("-", "\\-") + " (1)");
        }
        b.append(String.join(",\n", refs)).append('\n');
    }

    private static String format(String s) {
        try {
            return String.format(s);
        } catch (java.util.IllegalFormatException e) {
            return s;
        }
    }

    private static String first(String[] lines) {
        return lines.length == 0 ? "" : format(lines[0]).strip();
    }

    private static String stripDot(String s) {
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    private static String lowerFirst(String s) {
        return s.isEmpty() || Character.isUpperCase(s.length() > 1 ? s.charAt(1) : 'a') ? s
                : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    /** A word for a macro line: quoted when it holds a blank or a double quote. */
    private static String quoteArg(String s) {
        return s.contains(" ") || s.contains("\"") ? "\"" + s.replace("\"", "\\(dq") + "\"" : s;
    }

    /** Text safe for a roff line: backslash, minus, a leading control character, no blank lines. */
    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\e");
                case '-' -> b.append("\\-");
                default -> b.append(c);
            }
        }
        String out = b.toString();
        return out.startsWith(".") || out.startsWith("'") ? "\\&" + out : out;
    }
}
