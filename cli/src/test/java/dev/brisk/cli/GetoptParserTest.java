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
        assertThat(GetoptParser.parse(PvCommand.OPTIONS, c, args)).isEqualTo(ok);
        return c;
    }

    /**
     * What the fast path stores and what picocli's model of the same table stores agree, field
     * by field, for command lines both read (picocli reads each whole word; GNU parallel's
     * clusters and optional values are the fast path's alone).
     */
    @Test
    void theFastPathAndPicocliStoreTheSame() throws Exception {
        List<String[]> pv = List.of(new String[] {"-p", "-t", "-b", "-L", "10k", "--size=5", "-N", "x y", "-E", "-E", "f1", "-", "f2"},
                new String[] {"--watchfd", "1:2", "-d", "3", "--format", "%%b", "-u", "block", "-Z", "4", "-O"},
                new String[] {"-q", "-M", "out", "sh", "-c", "exit 3", "-n"});
        for (String[] args : pv) {
            PvCommand fast = new PvCommand();
            assertThat(GetoptParser.parse(PvCommand.OPTIONS, fast, args)).isTrue();
            PvCommand slow = new PvCommand();
            picocli.CommandLine cl = PvCommand.commandLine();
            cl.setStopAtPositional(PvMonitor.requested(args));
            PvCommand.OPTIONS.parse(cl, slow, args);
            assertSameFields(fast, slow, String.join(" ", args));
        }
        List<String[]> par = List.of(new String[] {"-j", "2", "-n", "3", "--delay", "0.5", "--load", "1.5", "-a", "x", "--arg-file", "y",
                "--joblog", "log", "-I", "XX", "-v", "-v", "--shellquote", "-k", "md5sum", "-k", ":::", "a"},
                new String[] {"-S", "h1", "--sshlogin", "2/h2", "--results", "r", "--tmpdir", "/t", "-N", "4", "--retries", "2", "echo"},
                new String[] {"-i", "-e", "--max-lines", "3", "--null", "-0", "echo"});
        for (String[] args : par) {
            ParCommand fast = new ParCommand();
            assertThat(GetoptParser.parse(ParCommand.OPTIONS, fast, args)).isTrue();
            ParCommand slow = new ParCommand();
            picocli.CommandLine cl = ParCommand.commandLine();
            cl.setStopAtPositional(true);
            cl.setOverwrittenOptionsAllowed(true);
            ParCommand.OPTIONS.parse(cl, slow, args);
            assertSameFields(fast, slow, String.join(" ", args));
        }
    }

    private static void assertSameFields(Object fast, Object slow, String args) throws IllegalAccessException {
        int compared = 0;
        for (java.lang.reflect.Field f : fast.getClass().getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) || f.getName().equals("err")) {
                continue;
            }
            f.setAccessible(true);
            Object a = f.get(fast);
            Object b = f.get(slow);
            if (a instanceof java.util.concurrent.atomic.AtomicReference<?> || a instanceof java.util.concurrent.atomic.AtomicBoolean
                    || a instanceof java.util.concurrent.CopyOnWriteArrayList<?>) {
                continue; // run state, not options
            }
            assertThat(a).as("%s: %s", args, f.getName()).isEqualTo(b);
            compared++;
        }
        assertThat(compared).isGreaterThan(40);
    }

    /** picocli's model of each table has the table's options, names in order, and its operands. */
    @Test
    void picocliModelsTheTable() {
        for (var table : List.of(PvCommand.OPTIONS, ParCommand.OPTIONS)) {
            picocli.CommandLine cl = table == PvCommand.OPTIONS ? PvCommand.commandLine() : ParCommand.commandLine();
            List<List<String>> modelled = new java.util.ArrayList<>();
            for (picocli.CommandLine.Model.OptionSpec o : cl.getCommandSpec().options()) {
                if (o.userObject() instanceof OptionTable.Row<?> r) {
                    assertThat(List.of(o.names())).as("names, in order").isEqualTo(r.names());
                    assertThat(o.hidden()).isEqualTo(r.hidden());
                    modelled.add(r.names());
                }
            }
            assertThat(modelled).isEqualTo(table.rows().stream().map(OptionTable.Row::names).toList()).hasSizeGreaterThan(40);
            assertThat(cl.getCommandSpec().positionalParameters()).hasSize(1);
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
        assertThat(c.skipErrors).isEqualTo(2);
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
        assertThat(GetoptParser.parse(ParCommand.OPTIONS, c, args)).as(String.join(" ", args)).isEqualTo(ok);
        return c;
    }

    @Test
    void parStopsAtTheCommandAndConvertsAsPicocli() {
        ParCommand c = par(true, "-0kj2", "-n", "3", "--delay=0.5", "--load", "1.5", "-a", "x", "--arg-file", "y",
                "--joblog", "log", "-I", "XX", "md5sum", "-k", "--", ":::", "a");
        assertThat(c.nul && c.keepOrder).isTrue();
        assertThat(c.jobs).isEqualTo("2");
        assertThat(c.maxArgsText).isEqualTo("3"); // GNU's k, M... suffixes are read with the other options
        assertThat(c.delayText).isEqualTo("0.5");
        assertThat(c.load).isEqualTo("1.5");
        assertThat(c.argFiles).containsExactly("x", "y");
        assertThat(c.joblog).isEqualTo(java.nio.file.Path.of("log"));
        assertThat(c.replace).isEqualTo("XX");
        assertThat(c.words).containsExactly("md5sum", "-k", "--", ":::", "a");
        assertThat(par(true, "--", "--", ":::", "a").words).containsExactly("--", ":::", "a");
        assertThat(par(true, "-j", "-1", "echo").jobs).isEqualTo("-1");
    }

    @Test
    void parReadsItsOptionsAsGetoptLongDoes() {
        ParCommand again = par(true, "-k", "-k", "-0", "-vv", "-j", "2", "--jobs", "3", "-0", "echo");
        assertThat(again.keepOrder && again.nul).isTrue();
        assertThat(again.verbose).isEqualTo(2);
        assertThat(again.jobs).as("the last value counts").isEqualTo("3");
        assertThat(par(true, "-a", "-0", "echo").argFiles).as("a mandatory value takes any word").containsExactly("-0");
        assertThat(par(true, "--tagstring", "--tag", "echo").tagString).isEqualTo("--tag");
        ParCommand i = par(true, "-i", "echo", "x{}y");
        assertThat(i.replaceOptional).as("an optional string takes the next word").isEqualTo("echo");
        assertThat(i.words).containsExactly("x{}y");
        ParCommand dash = par(true, "-i", "-k", "echo");
        assertThat(dash.replaceOptional).as("...unless it starts with -").isEmpty();
        assertThat(dash.keepOrder).isTrue();
        assertThat(par(true, "-eEOF", "echo").eofOptional).isEqualTo("EOF");
        assertThat(par(true, "--eof=", "echo").eofOptional).isEmpty();
        assertThat(par(true, "--replace", "--", "echo").replaceOptional).isEmpty();
        ParCommand l = par(true, "-l2k", "echo");
        assertThat(l.maxLines).as("an optional number takes its digits, the cluster goes on").isEqualTo("2");
        assertThat(l.keepOrder).isTrue();
        assertThat(par(true, "-l", "echo").maxLines).isEmpty();
        assertThat(par(true, "-l", "3", "echo").maxLines).isEqualTo("3");
        assertThat(par(true, "-l", "-0", "echo").maxLines).as("GNU's swallowed -0").isEqualTo("-0");
        assertThat(par(true, "-t", "echo").trace).isTrue();
        assertThat(par(true, "--verbose", "echo").trace).isTrue();
    }

    /**
     * Every option name GNU parallel 20221122 takes (its own {@code options_completion_hash},
     * read from the installed /usr/bin/parallel by perl) is a row of brisk par's table: none is
     * answered "Unknown option".
     */
    @Test
    void everyOptionOfGnuParallelIsARow() throws Exception {
        String perl = "my $src = do { local $/; open my $f, '<', '/usr/bin/parallel' or die; <$f> };"
                + " $src =~ /(sub options_completion_hash\\(\\) \\{.*?\\n\\}\\n)/s or die 'no options_completion_hash';"
                + " eval $1; die $@ if $@; my %h = options_completion_hash();"
                + " for (keys %h) { s/\\[.*//s; s/[=:].*//; print \"$_\\n\" for split /\\|/ }";
        Process p = new ProcessBuilder("perl", "-e", perl).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> names = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        assertThat(p.waitFor()).isZero();
        assertThat(names).hasSizeGreaterThan(250); // 20221122 has 300-odd names
        List<String> missing = names.stream().map(n -> n.length() == 1 ? "-" + n : "--" + n)
                .filter(o -> ParCommand.OPTIONS.row(o) == null)
                .filter(o -> !List.of("-h", "--help", "-V", "--version").contains(o)) // picocli's help and version options
                .sorted().toList();
        assertThat(missing).isEmpty();
    }

    @Test
    void parTakesGetoptLongsAbbreviations() {
        assertThat(par(true, "--keep", "--KEEP-ORDER", "echo").keepOrder).as("unique, and case ignored").isTrue();
        assertThat(par(true, "--dry", "echo").dryRun).isTrue();
        assertThat(par(true, "--j", "2", "echo").jobs).as("a single letter is that short option").isEqualTo("2");
        assertThat(par(true, "--walk-n", "*.c", "echo").walkName).as("brisk's own names too").isEqualTo("*.c");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> GetoptParser.parse(ParCommand.OPTIONS, new ParCommand(), new String[] {"--jo", "2"}))
                .hasMessage("Option jo is ambiguous (joblog, jobs)");
        par(false, "--no-such-option", "echo"); // nobody's (brisk par takes every option of GNU parallel 20221122): picocli names it
        par(false, "--res-f", "echo");
    }

    @Test
    void parLeavesPicocliItsErrors() {
        par(false, "--nice", "0x2", "echo"); // picocli: "is not an int"
        assertThat(par(true, "-n=2", "echo").maxArgsText).as("getopt has no -n=value: the value is \"=2\", refused when read")
                .isEqualTo("=2");
        par(false, "--bogus", "echo");
        par(false, "-kQ", "echo");
        par(false, "-j");
        par(false, "--help");
        par(false, "-V");
        par(false, "--keep-order=yes", "echo");
    }
}
