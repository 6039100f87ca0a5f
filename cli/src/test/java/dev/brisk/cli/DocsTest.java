// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The generated man pages and completions: one page per subcommand {@link Main} registers,
 * each rendered by man(1) without a warning, and completion scripts that name every subcommand
 * and complete in the real bash, zsh and fish ({@code scripts/test-completions}).
 */
class DocsTest {

    @Test
    void aPagePerSubcommandThatManRendersWithoutWarnings(@TempDir Path dir) throws Exception {
        assertThat(Docs.run(new String[] {dir.toString()})).isZero();
        List<String> pages = new ArrayList<>(List.of("brisk"));
        for (String sub : Main.commandLine().getSubcommands().keySet()) {
            pages.add("brisk-" + sub);
        }
        assertThat(pages).contains("brisk-find", "brisk-par", "brisk-pv", "brisk-run");
        for (String page : pages) {
            Path file = dir.resolve("man/man1/" + page + ".1");
            assertThat(file).exists();
            ProcessBuilder pb = new ProcessBuilder("man", "--warnings", "-l", file.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("MANWIDTH", "80");
            Process p = pb.start();
            String warnings = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(page).isZero();
            assertThat(warnings).as(page).isEmpty();
        }
        String find = Files.readString(dir.resolve("man/man1/brisk-find.1"));
        assertThat(find).contains(".B \\-newer \\fIFILE\\fR\n", "\\-printf").doesNotContain("\n\n");
        String par = Files.readString(dir.resolve("man/man1/brisk-par.1"));
        assertThat(par).contains("\\fB\\-\\-jobs\\fR \\fIN\\fR");
    }

    @Test
    void completionsNameEverySubcommand(@TempDir Path dir) throws IOException {
        assertThat(Docs.run(new String[] {dir.toString()})).isZero();
        String bash = Files.readString(dir.resolve("bash-completion/completions/brisk"));
        String zsh = Files.readString(dir.resolve("zsh/vendor-completions/_brisk"));
        String fish = Files.readString(dir.resolve("fish/vendor_completions.d/brisk.fish"));
        assertThat(zsh).startsWith("#compdef brisk\n");
        assertThat(bash).doesNotStartWith("#!");
        for (String sub : Main.commandLine().getSubcommands().keySet()) {
            assertThat(bash).contains("function _picocli_brisk_" + sub + "()");
            assertThat(zsh).contains("    " + sub + ")");
            assertThat(fish).contains("-a " + sub + " ");
        }
        assertThat(fish).contains("-o name -r", "-l jobs");
    }

    /** docs/PAR.md and docs/PV.md list the options their tables declare, as {@code Docs --doc-lists} writes them. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theDocsListTheOptionsOfTheirTables() throws IOException {
        for (var e : Docs.LISTS.entrySet()) {
            String doc = Files.readString(Path.of("..").resolve(e.getKey()), StandardCharsets.UTF_8);
            assertThat(doc).as("%s is out of date: run dev.brisk.cli.Docs --doc-lists .", e.getKey())
                    .isEqualTo(Docs.optionList(doc, e.getValue()));
            assertThat(doc).contains("## All options", e.getValue().rows().getFirst().names().getLast());
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void completionsCompleteInBashZshAndFish(@TempDir Path dir) throws IOException, InterruptedException {
        assertThat(Docs.run(new String[] {dir.toString()})).isZero();
        Path script = Path.of("..", "scripts", "test-completions").toAbsolutePath().normalize();
        Process p = new ProcessBuilder(script.toString(), dir.toString()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
        } finally {
            p.destroy();
        }
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).isEqualTo("ok\n");
    }
}
