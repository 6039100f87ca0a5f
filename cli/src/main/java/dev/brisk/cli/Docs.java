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
 * builds), else today's. Not part of the CLI.
 */
final class Docs {
    private Docs() {}

    public static void main(String[] args) throws IOException {
        int status = run(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** Writes the pages and completions under {@code args[0]}; returns 0, or 2 (with a usage line) for bad arguments. */
    static int run(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: Docs DIR");
            return 2;
        }
        Path out = Path.of(args[0]);
        String epoch = System.getenv("SOURCE_DATE_EPOCH");
        Instant when = epoch != null && epoch.matches("[0-9]+") ? Instant.ofEpochSecond(Long.parseLong(epoch)) : Instant.now();
        String version = new Main.Version().getVersion()[0].substring("brisk ".length());
        ManPage man = new ManPage(when.atZone(ZoneOffset.UTC).toLocalDate().toString(), version);
        Path man1 = out.resolve("man/man1");
        CommandLine root = new CommandLine(new Main());
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
