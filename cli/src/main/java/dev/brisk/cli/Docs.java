// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import picocli.CommandLine;

/**
 * Writes brisk's manual pages and shell completions under a directory, laid out as under
 * {@code /usr/share}: {@code man/man1/brisk.1} and {@code brisk-NAME.1} for each subcommand
 * {@link Main} registers, {@code bash-completion/completions/brisk},
 * {@code zsh/vendor-completions/_brisk}, {@code fish/vendor_completions.d/brisk.fish}. Run by
 * {@code scripts/package-deb} and {@code scripts/docs}: {@code java -cp brisk.jar:lib/*
 * dev.brisk.cli.Docs DIR}. The pages' date is {@code SOURCE_DATE_EPOCH}'s when set (reproducible
 * builds), else today's. With {@code --doc-lists ROOT}, it instead rewrites the option lists of
 * {@code ROOT/docs/PAR.md} and {@code ROOT/docs/PV.md} from the commands' {@link OptionTable}s
 * (between the markers {@link #optionList} writes; DocsTest checks them). Not part of the CLI.
 */
final class Docs {
    private Docs() {}

    /** The doc file under the repository's root and the options each holds a list of. */
    static final java.util.Map<String, OptionTable<?>> LISTS = java.util.Map.of("docs/PAR.md", ParCommand.OPTIONS,
            "docs/PV.md", PvCommand.OPTIONS);

    private static final String BEGIN = "<!-- the options, generated from the option table: dev.brisk.cli.Docs --doc-lists . -->\n";
    private static final String END = "<!-- end of the options -->\n";

    /** {@code doc}'s text with its option list made from {@code table} (appended when it has none yet). */
    static String optionList(String doc, OptionTable<?> table) {
        String block = BEGIN + table.markdown() + END;
        int from = doc.indexOf(BEGIN);
        int to = doc.indexOf(END);
        if (from < 0 || to < from) {
            return doc + "\n## All options\n" + block;
        }
        return doc.substring(0, from) + block + doc.substring(to + END.length());
    }

    public static void main(String[] args) throws IOException {
        int status = run(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Writes the pages and completions under {@code args[0]}, or with {@code --doc-lists ROOT} the
     * option lists of the docs under ROOT; returns 0, or 2 (with a usage line) for bad arguments.
     */
    static int run(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals("--doc-lists")) {
            for (var e : LISTS.entrySet()) {
                Path doc = Path.of(args[1]).resolve(e.getKey());
                write(doc, optionList(Files.readString(doc, StandardCharsets.UTF_8), e.getValue()));
            }
            return 0;
        }
        if (args.length != 1) {
            System.err.println("usage: Docs DIR | Docs --doc-lists ROOT");
            return 2;
        }
        Path out = Path.of(args[0]);
        String epoch = System.getenv("SOURCE_DATE_EPOCH");
        Instant when = epoch != null && epoch.matches("[0-9]+") ? Instant.ofEpochSecond(Long.parseLong(epoch)) : Instant.now();
        String version = new Main.Version().getVersion()[0].substring("brisk ".length());
        ManPage man = new ManPage(when.atZone(ZoneOffset.UTC).toLocalDate().toString(), version);
        Path man1 = out.resolve("man/man1");
        CommandLine root = Main.commandLine();
        write(man1.resolve("brisk.1"), man.main(root));
        for (var e : root.getSubcommands().entrySet()) {
            write(man1.resolve("brisk-" + e.getKey() + ".1"), man.sub(e.getKey(), e.getValue()));
        }
        Completions c = new Completions(root);
        write(out.resolve("zsh/vendor-completions/_brisk"), c.zsh());
        write(out.resolve("fish/vendor_completions.d/brisk.fish"), c.fish());
        write(out.resolve("bash-completion/completions/brisk"), c.bash());
        return 0;
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
