// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.find.internal.Primary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What is rendered from find's parse table: docs/FIND.md's list is the table's (the file is
 * regenerated, not edited), and {@code --help}, the completions' lists and the synopsis hold
 * every word of it.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FindHelpTest {
    @Test
    void findMdListsTheTable() throws IOException {
        Path doc = Path.of("..", "docs", "FIND.md");
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        assertThat(text).contains(FindHelp.BEGIN, FindHelp.END);
        assertThat(FindHelp.withList(text)).as("docs/FIND.md's list is not the parse table's; after `mvn -o -pl cli -am"
                + " -DskipTests compile` rewrite it with (a JDK 25 java): java -cp core/target/classes:cli/target/classes"
                + " dev.brisk.cli.FindHelp docs/FIND.md").isEqualTo(text);
    }

    @Test
    void helpShowsEveryWordWithItsArgument() {
        String usage = FindHelp.usage();
        assertThat(usage).startsWith("Usage: brisk find [-H|-L|-P] [-D FLAGS] [-OLEVEL] [--debug] [--threads=N]"
                + " [--engine=auto|native|portable] [--] [ROOT...] [EXPRESSION]\n");
        String flat = usage.replace("\n      ", ""); // continued lines joined: one line per kind
        for (Primary p : Primary.values()) {
            if (p.kind() != Primary.Kind.FLAG) {
                assertThat(flat).as(p.usage()).containsAnyOf(" " + p.usage() + " ", " " + p.usage() + "\n");
            }
        }
        assertThat(usage).contains("\nTests: -name PATTERN -iname PATTERN ", "\nGlobal options: -maxdepth N ",
                "\nActions: -print -print0 -printf FORMAT ");
        assertThat(usage.lines().skip(1).filter(l -> l.length() > 110)).as("lines past the synopsis").isEmpty();
    }

    @Test
    void completionsSpellNewerXyOutAndKnowFileArguments() {
        assertThat(FindHelp.words()).contains("-newermt", "-newerBa", "-name", "(").doesNotContain("-newerXY", "-H", "--debug");
        assertThat(FindHelp.takingFiles()).contains("-newer", "-samefile", "-files0-from", "-fprint", "-fprintf")
                .doesNotContain("-name");
        assertThat(FindHelp.takingArgs()).contains("-maxdepth", "-fprint", "-newerXY").doesNotContain("-exec", "-print");
    }
}
