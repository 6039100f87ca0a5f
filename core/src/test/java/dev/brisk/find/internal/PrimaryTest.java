// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * find's parse table against its parser: every word of every row is read by the parser as that
 * row (a row the parser's switches leave out fails here), and words of no row, or of the other
 * part of the command line, are GNU's unknown predicate.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class PrimaryTest {
    @TempDir
    Path dir;

    @Test
    void everyWordOfTheExpressionParses() throws Exception {
        Path file = Files.writeString(dir.resolve("ref"), "x");
        Set<String> refused = new TreeSet<>();
        for (Primary p : Primary.values()) {
            if (p.kind() == Primary.Kind.FLAG || p.kind() == Primary.Kind.OPERATOR) {
                continue;
            }
            for (String w : p.words()) {
                assertThat(Primary.expression(w)).as(w).isSameAs(p);
                List<String> args = new ArrayList<>(p == Primary.FILES0_FROM ? List.of(w) : List.of(dir.toString(), w));
                args.addAll(sample(p, w, file));
                try {
                    close(Parser.parse(bytes(args)));
                } catch (UsageError e) {
                    // refused as brisk refuses them (no birth times; -context), never as an unknown word
                    assertThat(e.getMessage()).as(w).containsAnyOf("birth time", "-context");
                    refused.add(w);
                }
            }
        }
        assertThat(refused).containsExactly("-context", "-newerBB", "-newerBa", "-newerBc", "-newerBm", "-newerBt", "-neweraB",
                "-newercB", "-newermB");
    }

    @Test
    void everyOperatorParses() throws Exception {
        // each operator where the grammar allows it: ( ! -not before an operand, the binary ones between two
        for (Primary p : Primary.values()) {
            if (p.kind() != Primary.Kind.OPERATOR) {
                continue;
            }
            List<String> args = switch (p) {
                case OPEN, CLOSE -> List.of("(", "-true", ")");
                case NOT, NOT_WORD -> List.of(p.word(), "-true");
                default -> List.of("-true", p.word(), "-false");
            };
            close(Parser.parse(bytes(args)));
        }
    }

    @Test
    void everyOptionBeforeTheRootsParses() throws Exception {
        for (Primary p : Primary.values()) {
            if (p.kind() != Primary.Kind.FLAG) {
                continue;
            }
            String word = switch (p) {
                case OPTIMISE -> "-O3";
                case THREADS -> "--threads=2";
                case ENGINE -> "--engine=portable";
                default -> p.word();
            };
            assertThat(Primary.flag(word)).as(word).isSameAs(p);
            List<String> args = new ArrayList<>(List.of(word));
            if (p == Primary.DEBUG_FLAGS) {
                args.add("stat");
            }
            args.add(dir.toString());
            Plan plan = Parser.parse(bytes(args));
            close(plan);
            assertThat(plan.roots()).hasSize(1);
        }
    }

    @Test
    void wordsOfNoRowAreUnknownPredicates() {
        for (String w : List.of("-newerXY", "-newermz", "-H", "--debug", "-D", "--threads=2", "-nosuch")) {
            assertThatThrownBy(() -> Parser.parse(bytes(List.of(dir.toString(), w, "x")))).as(w)
                    .isInstanceOf(UsageError.class).hasMessage("unknown predicate `" + w + "'");
        }
        assertThat(Primary.flag("-maxdepth")).isNull();
        assertThat(Primary.flag("--threads")).isNull();
    }

    @Test
    void eachWordBelongsToOneRow() {
        Set<String> seen = new HashSet<>();
        for (Primary p : Primary.values()) {
            for (String w : p.words()) {
                assertThat(seen.add(p.kind() == Primary.Kind.FLAG ? "flag " + w : w)).as(w).isTrue();
            }
        }
        assertThat(Primary.NEWER_XY.words()).hasSize(20).contains("-newerma", "-newermt", "-newerBa");
    }

    /** Arguments that {@code w} of row {@code p} accepts. */
    private List<String> sample(Primary p, String w, Path file) throws IOException {
        return switch (p) {
            case EXEC, EXECDIR, OK, OKDIR -> List.of("/bin/true", "{}", ";");
            case FPRINTF -> List.of(dir.resolve("out-" + w).toString(), "%p\\n");
            case FPRINT, FPRINT0, FLS -> List.of(dir.resolve("out-" + w).toString());
            case FILES0_FROM -> List.of(Files.write(dir.resolve("list"), new byte[] {'.', 0}).toString());
            case TYPE, XTYPE -> List.of("f");
            case SIZE -> List.of("-1k");
            case PERM -> List.of("/u+r");
            case USER -> List.of("root");
            case GROUP -> List.of("root");
            case REGEXTYPE -> List.of("posix-extended");
            case PRINTF -> List.of("%p\\n");
            case NEWER_XY -> List.of(w.endsWith("t") ? "2024-01-15" : file.toString());
            default -> p.arg() == null ? List.of() : p.arg().equals("FILE") ? List.of(file.toString()) : List.of("1");
        };
    }

    private static void close(Plan plan) {
        plan.files().forEach(FileOutput::close);
        if (plan.runner() != null) {
            plan.runner().close();
        }
    }

    private static List<byte[]> bytes(List<String> args) {
        return args.stream().map(a -> a.getBytes(StandardCharsets.UTF_8)).toList();
    }
}
