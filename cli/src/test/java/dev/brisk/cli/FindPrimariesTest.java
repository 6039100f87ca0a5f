// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link FindPrimaries}, the list brisk-find(1) and the completions are generated from, against
 * the two other places find's words are written: the library's parser (its {@code case} labels)
 * and {@code brisk find --help}. A word added to one and not to the others fails here.
 */
class FindPrimariesTest {
    private static final Set<String> OPERATORS = Set.of("(", ")", "!", "-not", "-a", "-and", "-o", "-or", ",");

    @Test
    void listHoldsExactlyTheParsersPrimaries() throws IOException {
        String parser = Files.readString(Path.of("..", "core", "src", "main", "java", "dev", "brisk", "find", "internal", "Parser.java"));
        Set<String> parsed = new TreeSet<>();
        for (String line : parser.lines().filter(l -> l.strip().startsWith("case \"-")).toList()) {
            String labels = line.contains("->") ? line.substring(0, line.indexOf("->")) : line;
            Matcher m = Pattern.compile("\"(-[A-Za-z0-9_-]+)\"").matcher(labels);
            while (m.find()) {
                parsed.add(m.group(1));
            }
        }
        parsed.add("-newerXY"); // the parser's default branch: -newer followed by two letters
        parsed.removeAll(OPERATORS); // the parser reads the operators in the same switch
        Set<String> listed = new TreeSet<>();
        FindPrimaries.ALL.forEach(p -> listed.add(p.name()));
        listed.removeAll(OPERATORS);
        Set<String> unlisted = new TreeSet<>(parsed);
        unlisted.removeAll(listed);
        Set<String> unparsed = new TreeSet<>(listed);
        unparsed.removeAll(parsed);
        assertThat(unlisted).as("parsed by find, missing from FindPrimaries").isEmpty();
        assertThat(unparsed).as("in FindPrimaries, unknown to find's parser").isEmpty();
    }

    @Test
    void everyWordOfFindsHelpIsListed() {
        Set<String> help = new TreeSet<>();
        Matcher m = Pattern.compile("(?<=\\s)(-[a-z][A-Za-z0-9_-]*)").matcher(FindCommand.USAGE.substring(FindCommand.USAGE.indexOf('\n')));
        while (m.find()) {
            help.add(m.group(1));
        }
        help.removeIf(w -> w.startsWith("-newer") && w.length() > "-newer".length() && !w.equals("-newerXY"));
        Set<String> listed = new TreeSet<>();
        FindPrimaries.ALL.forEach(p -> listed.add(p.name()));
        assertThat(listed).containsAll(help);
    }

    @Test
    void newerXyIsSpelledOutForCompletion() {
        assertThat(FindPrimaries.words()).contains("-newermt", "-newerBa", "-name").doesNotContain("-newerXY");
        assertThat(FindPrimaries.takingFiles()).contains("-newer", "-samefile", "-files0-from", "-fprint");
    }
}
