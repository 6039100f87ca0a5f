// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class GetoptParserTest {
    private static PvCommand parse(boolean ok, String... args) {
        PvCommand c = new PvCommand();
        assertThat(GetoptParser.parse(c, args)).isEqualTo(ok);
        return c;
    }

    /** The tables GetoptParser reads say what the picocli annotations say, field by field. */
    @Test
    void tablesAgreeWithTheAnnotations() {
        for (GetoptParser.Table command : List.<GetoptParser.Table>of(new PvCommand(), new ParCommand())) {
            java.util.Map<String, List<String>> annotated = new java.util.TreeMap<>();
            String operands = null;
            for (java.lang.reflect.Field f : command.getClass().getDeclaredFields()) {
                picocli.CommandLine.Option o = f.getAnnotation(picocli.CommandLine.Option.class);
                if (o != null) {
                    annotated.put(f.getName(), List.of(o.names()));
                }
                if (f.getAnnotation(picocli.CommandLine.Parameters.class) != null) {
                    operands = f.getName();
                }
            }
            java.util.Map<String, List<String>> table = new java.util.TreeMap<>();
            for (String[] row : command.fastOptions()) {
                assertThat(table.put(row[0], List.of(row).subList(1, row.length))).as("%s listed twice", row[0]).isNull();
            }
            assertThat(table).as(command.getClass().getSimpleName()).isEqualTo(annotated).isNotEmpty();
            assertThat(command.fastOperands()).isEqualTo(operands).isNotNull();
        }
    }

    @Test
    void clustersAttachedValuesAndLongForms() {
        PvCommand c = parse(true, "-ptb", "-L10k", "-s", "5", "--name=x y", "--interval", "0.5", "-EE", "f1", "-", "f2");
        assertThat(c.progress && c.timer && c.bytes).isTrue();
        assertThat(c.rateLimit).isEqualTo("10k");
        assertThat(c.size).isEqualTo("5");
        assertThat(c.name).isEqualTo("x y");
        assertThat(c.interval).isEqualTo("0.5");
        assertThat(c.skipErrors).hasSize(2);
        assertThat(c.files).containsExactly("f1", "-", "f2");
    }

    @Test
    void valueTakesTheRestOfAClusterAndTheNextWordAsIs() {
        PvCommand c = parse(true, "-qL", "-5", "-s=3", "--", "-n");
        assertThat(c.quiet).isTrue();
        assertThat(c.rateLimit).isEqualTo("-5"); // as getopt: pv then rejects it
        assertThat(c.size).isEqualTo("=3");
        assertThat(c.numeric).isFalse();
        assertThat(c.files).isEqualTo(List.of("-n"));
    }

    @Test
    void monitorEndsTheOptionsAtTheCommand() {
        PvCommand c = parse(true, "-q", "-M", "out", "sh", "-c", "exit 3", "-n");
        assertThat(c.monitor).isEqualTo("out");
        assertThat(c.cursor || c.numeric).as("the command's -c and a later -n are not pv's").isFalse();
        assertThat(c.files).containsExactly("sh", "-c", "exit 3", "-n");
        PvCommand plain = parse(true, "f1", "-n", "f2");
        assertThat(plain.numeric).as("without -M, options still follow files").isTrue();
        assertThat(PvMonitor.requested(new String[] {"-fM", "in", "cat"})).isTrue();
        assertThat(PvMonitor.requested(new String[] {"-f", "--", "-M"})).isFalse();
    }

    @Test
    void anythingElseIsLeftToPicocli() {
        parse(false, "--bogus");
        parse(false, "-pZ");
        parse(false, "-L");
        parse(false, "--size");
        parse(false, "--quiet=yes");
        parse(false, "-h");
        parse(false, "--version");
    }

    private static ParCommand par(boolean ok, String... args) {
        ParCommand c = new ParCommand();
        assertThat(GetoptParser.parse(c, args, true)).as(String.join(" ", args)).isEqualTo(ok);
        return c;
    }

    @Test
    void parStopsAtTheCommandAndConvertsAsPicocli() {
        ParCommand c = par(true, "-0kj2", "-n", "3", "--delay=0.5", "--load", "1.5", "-a", "x", "--arg-file", "y",
                "--joblog", "log", "-I", "XX", "md5sum", "-k", "--", ":::", "a");
        assertThat(c.nul && c.keepOrder).isTrue();
        assertThat(c.jobs).isEqualTo("2");
        assertThat(c.maxArgs).isEqualTo(3);
        assertThat(c.delay).isEqualTo(0.5);
        assertThat(c.load).isEqualTo(1.5);
        assertThat(c.argFiles).containsExactly("x", "y");
        assertThat(c.joblog).isEqualTo(java.nio.file.Path.of("log"));
        assertThat(c.replace).isEqualTo("XX");
        assertThat(c.words).containsExactly("md5sum", "-k", "--", ":::", "a");
        assertThat(par(true, "--", "--", ":::", "a").words).containsExactly("--", ":::", "a");
        assertThat(par(true, "-j", "-1", "echo").jobs).isEqualTo("-1");
    }

    @Test
    void parLeavesPicocliItsErrorsAndReadings() {
        par(false, "-k", "-k", "echo"); // picocli: "should be specified only once"
        par(false, "-j", "2", "--jobs", "3", "echo");
        par(false, "-n", "0x2", "echo"); // picocli: "is not an int"
        par(false, "-n=2", "echo"); // picocli reads -n=2 as -n 2
        par(false, "-a", "-0", "echo"); // picocli: an option where a value should be
        par(false, "--tagstring", "--tag", "echo");
        par(false, "--help");
        par(false, "-V");
        par(false, "--keep-order=yes", "echo");
    }
}
