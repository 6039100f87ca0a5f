// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TemplateTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String render(String template, Template.Batching batching, List<List<String>> tuples) {
        Template t = Template.parse(b(template), "{}", Template.Quoting.SHELL);
        List<List<byte[]>> tb = tuples.stream().map(tp -> tp.stream().map(TemplateTest::b).toList()).toList();
        return new String(t.render(new JobArgs(tb, 7, 2), batching), StandardCharsets.UTF_8);
    }

    private static String one(String template, String... values) {
        return render(template, Template.Batching.NONE, List.of(List.of(values)));
    }

    @Test
    void modifiersFollowGnuParallel() {
        assertThat(one("echo {} {.} {/} {//} {/.}", "a/b.c/d.e.f")).isEqualTo("echo a/b.c/d.e.f a/b.c/d.e d.e.f a/b.c d.e");
        assertThat(one("echo {.} {/} {//} {/.}", ".bashrc")).isEqualTo("echo '' .bashrc . ''");
        assertThat(one("echo {.} {//}", "x/.y")).isEqualTo("echo x/ x");
        assertThat(one("echo {//}", "/a")).isEqualTo("echo /");
    }

    @Test
    void sequenceSlotAndPositions() {
        assertThat(one("echo {#} {%} {2} {1} {-1} {3}", "a", "b")).isEqualTo("echo 7 2 b a b ");
        assertThat(one("echo {2.} {1/}", "x/y", "p.q")).isEqualTo("echo p y");
    }

    private static String renamed(ReplacementNames names, String template, String... values) {
        Template t = Template.parse(b(template), names, Template.Quoting.SHELL, true, List.of());
        List<byte[]> vs = java.util.Arrays.stream(values).map(TemplateTest::b).toList();
        return new String(t.render(new JobArgs(List.of(vs), 7, 2), Template.Batching.NONE), StandardCharsets.UTF_8);
    }

    @Test
    void renamedStringsReplaceTheirDefaultsAndKeepPositionalForms() {
        ReplacementNames n = new ReplacementNames("[]", "{x}", "B", "D", "S", "L", "BE", "<<>>");
        assertThat(renamed(n, "echo [] {x} {1x} {2 x} B D S L BE {.} {} {1} {#} {%}", "a/b.c", "d.e"))
                .isEqualTo("echo a/b.c d.e a/b d a/b d b.c d.e a . 7 2 b d {.} {} {1} {#} {%}");
        // the longest name first: {.} is no -I . followed by text
        assertThat(renamed(ReplacementNames.DEFAULT.withAll("."), "echo {.} .", "a.b")).isEqualTo("echo a a.b");
        // renames in GNU's order: --er {/} takes {/}'s name, then --bnr X takes it from {/}
        ReplacementNames chain = new ReplacementNames("{}", "{/}", "X", "{//}", "{#}", "{%}", "{/.}", "{==}");
        assertThat(renamed(chain, "echo {/} X", "p/q.r")).isEqualTo("echo {/} p/q");
        assertThat(renamed(ReplacementNames.DEFAULT, "echo {1 } {1 .} {-1 /}", "a/b.c")).isEqualTo("echo a/b.c a/b b.c");
    }

    @Test
    void parensSplitInTheMiddleAsGnuParallelSplitsThem() {
        ReplacementNames odd = new ReplacementNames("{}", "{.}", "{/}", "{//}", "{#}", "{%}", "{/.}", "<<<>>");
        assertThat(odd.parensLeft()).isEqualTo("<<");
        assertThat(odd.parensRight()).isEqualTo("<>>");
        assertThatThrownBy(() -> new ReplacementNames("{}", "", "{/}", "{//}", "{#}", "{%}", "{/.}", "{==}"))
                .hasMessage("--er: the replacement string must not be empty");
    }

    @Test
    void aCommandThatStartsWithAReplacementStringSaysSo() {
        for (String yes : new String[] {"{}", "x{}", "{2} a", "my_{.}"}) {
            assertThat(Template.parse(b(yes), "{}", Template.Quoting.SHELL).commandIsReplacement()).as(yes).isTrue();
        }
        for (String no : new String[] {"echo {}", "V={} x", "a\t{}"}) {
            assertThat(Template.parse(b(no.replace("\\t", "\t")), "{}", Template.Quoting.SHELL).commandIsReplacement()).as(no).isFalse();
        }
    }

    @Test
    void valuesAreQuotedSoNoNameCanInjectCode() {
        assertThat(one("echo {}", "it's")).isEqualTo("echo 'it'\"'\"'s'");
        assertThat(one("echo {}", "a b")).isEqualTo("echo 'a b'");
        assertThat(one("echo {}", "$(rm -rf x)")).isEqualTo("echo '$(rm -rf x)'");
        assertThat(one("echo {}", "")).isEqualTo("echo ''");
        assertThat(one("echo {}", "-a_b+c/d.e")).isEqualTo("echo -a_b+c/d.e");
    }

    @Test
    void invalidUtf8PassesAsBytes() {
        Template t = Template.parse(b("cat {}"), "{}", Template.Quoting.SHELL);
        byte[] name = {'x', (byte) 0xff, (byte) 0xfe, '\n'};
        byte[] out = t.render(JobArgs.single(List.of(name), 1, 1), Template.Batching.NONE);
        assertThat(out).containsExactly('c', 'a', 't', ' ', '\'', 'x', (byte) 0xff, (byte) 0xfe, '\n', '\'');
    }

    @Test
    void impliedReplacementAndOtherBracesStayLiteral() {
        assertThat(one("echo", "a")).isEqualTo("echo a");
        assertThat(one("awk '{print}' {}", "f")).isEqualTo("awk '{print}' f");
        assertThat(one("echo ${HOME}x", "f")).isEqualTo("echo ${HOME}x f");
        Template t = Template.parse(b("mv XX XX.bak {}"), "XX", Template.Quoting.SHELL);
        assertThat(new String(t.render(JobArgs.single(List.of(b("f g")), 1, 1), Template.Batching.NONE)))
                .isEqualTo("mv 'f g' 'f g'.bak {}");
        assertThatThrownBy(() -> Template.parse(b("x"), "", Template.Quoting.SHELL)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void batchingRepeatsTheContextWordWithX() {
        List<List<String>> three = List.of(List.of("1"), List.of("2"), List.of("3"));
        assertThat(render("echo pre-{}-post x", Template.Batching.CONTEXT, three)).isEqualTo("echo pre-1-post pre-2-post pre-3-post x");
        assertThat(render("echo pre-{}-post x", Template.Batching.MULTI, three)).isEqualTo("echo pre-1 2 3-post x");
        assertThat(render("echo {} {1} {3}", Template.Batching.NONE, three)).isEqualTo("echo 1 2 3 1 3");
    }

    @Test
    void rawQuotingInsertsValuesAsCode() {
        Template t = Template.parse(b("{}"), "{}", Template.Quoting.RAW);
        assertThat(new String(t.render(JobArgs.single(List.of(b("echo a; echo b")), 1, 1), Template.Batching.NONE)))
                .isEqualTo("echo a; echo b");
        assertThat(t.shape()).isEqualTo(Template.Shape.SHELL);
    }

    @Test
    void shapeDecidesHowJobsRun() {
        assertThat(Template.parse(b("md5sum {}"), "{}", Template.Quoting.SHELL).shape()).isEqualTo(Template.Shape.EXTERNAL);
        assertThat(Template.parse(b("echo {}"), "{}", Template.Quoting.SHELL).shape()).isEqualTo(Template.Shape.BUILTIN);
        assertThat(Template.parse(b("md5sum {} | cut -c1-32"), "{}", Template.Quoting.SHELL).shape()).isEqualTo(Template.Shape.PIPELINE);
        assertThat(Template.parse(b("date +%s | tr 1 2 | cat"), "{}", Template.Quoting.SHELL).shape()).isEqualTo(Template.Shape.PIPELINE);
        for (String shell : List.of("a {} || b", "a {} | b; c", "a {} | b > f", "a {} | b &", "X=1 a {} | b", "cd {} | ls",
                "a '{}' | b", "a $(b) | c", "{} | b", "a {} |")) {
            assertThat(Template.parse(b(shell), "{}", Template.Quoting.SHELL).shape()).as(shell).isEqualTo(Template.Shape.SHELL);
        }
        assertThat(Template.parse(b("cd {}"), "{}", Template.Quoting.SHELL).shape()).isEqualTo(Template.Shape.SHELL);
        assertThat(Template.parse(b("X=1 env"), "{}", Template.Quoting.SHELL).shape()).isEqualTo(Template.Shape.SHELL);
        assertThat(Template.parse(b("ls *.c {}"), "{}", Template.Quoting.SHELL).shape()).isEqualTo(Template.Shape.SHELL);
        assertThat(Template.parse(b("ls [ab] {}"), "{}", Template.Quoting.SHELL).shape()).isEqualTo(Template.Shape.SHELL);
    }

    /**
     * bash's builtins and keywords that dash lacks ({@code ]]}, {@code bind}, {@code compopt}) are
     * never spawned as programs, nor piped as ones: the pool's classifier and par's share one
     * word list ({@code ShellWords}), checked here against CommandShape's verdict.
     */
    @Test
    void bashOnlyWordsAreShellCodeForParAsForThePool() {
        for (String w : new String[] {"]] {}", "bind -l {}", "compopt {}", "[[ -e {} ]]"}) {
            Template t = Template.parse(b(w), "{}", Template.Quoting.SHELL);
            assertThat(t.shape()).as(w).isEqualTo(Template.Shape.SHELL);
            assertThat(t.isSimpleExternalCommand()).as(w).isFalse();
            String text = w.replace("{}", "x");
            assertThat(dev.brisk.internal.shell.CommandShape.of(b(text)).kind()).as(text)
                    .isEqualTo(dev.brisk.internal.shell.CommandShape.Kind.SHELL);
        }
        assertThat(Template.parse(b("ls {} | compopt"), "{}", Template.Quoting.SHELL).isExternalPipeline()).isFalse();
        assertThat(Template.parse(b("ls {} | sort"), "{}", Template.Quoting.SHELL).isExternalPipeline()).isTrue();
    }

    @Test
    void argvMatchesWhatTheShellWouldSplit() {
        Template t = Template.parse(b("cmp -s {1} x{2}y {3}"), "{}", Template.Quoting.SHELL);
        List<byte[]> argv = t.argv(JobArgs.single(List.of(b("a b"), b(""), b("it's")), 1, 1), Template.Batching.NONE);
        assertThat(argv).extracting(a -> new String(a, StandardCharsets.UTF_8)).containsExactly("cmp", "-s", "a b", "xy", "it's");
        Template all = Template.parse(b("ls {}"), "{}", Template.Quoting.SHELL);
        assertThat(all.argv(new JobArgs(List.of(List.of(b("p")), List.of(b(""))), 1, 1), Template.Batching.MULTI))
                .extracting(a -> new String(a, StandardCharsets.UTF_8)).containsExactly("ls", "p", "");
    }

    @Test
    void pipelinesOfProgramsSplitIntoArgvs() {
        Template t = Template.parse(b("md5sum {} | cut -c1-32|tr a-f A-F | sort"), "{}", Template.Quoting.SHELL);
        assertThat(t.isExternalPipeline()).isTrue();
        List<List<byte[]>> cmds = t.commands(JobArgs.single(List.of(b("a | b")), 1, 1), Template.Batching.NONE);
        assertThat(cmds).extracting(c -> c.stream().map(w -> new String(w, StandardCharsets.UTF_8)).toList())
                .containsExactly(List.of("md5sum", "a | b"), List.of("cut", "-c1-32"), List.of("tr", "a-f", "A-F"), List.of("sort"));
        for (String notExternal : List.of("echo {} | cut -c1", "cat {} | printf x", "cat {} | %1 x", "cat {} | true",
                "cat {} | __brisk_j x")) {
            Template n = Template.parse(b(notExternal), "{}", Template.Quoting.SHELL);
            assertThat(n.isExternalPipeline()).as(notExternal).isFalse();
            assertThat(n.commands(JobArgs.single(List.of(b("a")), 1, 1), Template.Batching.NONE)).as(notExternal).isNull();
        }
        Template simple = Template.parse(b("md5sum"), "{}", Template.Quoting.SHELL);
        assertThat(simple.commands(JobArgs.single(List.of(b("x")), 1, 1), Template.Batching.NONE))
                .extracting(c -> c.stream().map(w -> new String(w, StandardCharsets.UTF_8)).toList())
                .containsExactly(List.of("md5sum", "x"));
    }

    @Test
    void contextBatchesSplitIntoOneWordPerValueLikeTheirRenderedCommand() {
        List<List<byte[]>> tuples = List.of(List.of(b("a b")), List.of(b("")), List.of(b("-n\n\"'$")), List.of(new byte[] {(byte) 0xff}));
        JobArgs args = new JobArgs(tuples, 1, 1);
        Template t = Template.parse(b("cmp -s x{}y {#} {1} z"), "{}", Template.Quoting.SHELL);
        assertThat(t.argv(args, Template.Batching.CONTEXT)).extracting(a -> new String(a, StandardCharsets.ISO_8859_1))
                .containsExactly("cmp", "-s", "xa by", "xy", "x-n\n\"'$y", "x\u00ffy", "1", "a b", "z");
        assertThat(new String(t.render(args, Template.Batching.CONTEXT), StandardCharsets.ISO_8859_1))
                .isEqualTo("cmp -s x'a b'y x''y x'-n\n\"'\"'\"'$'y x'\u00ff'y 1 'a b' z");
        Template implied = Template.parse(b("md5sum"), "{}", Template.Quoting.SHELL);
        assertThat(implied.commands(args, Template.Batching.CONTEXT)).extracting(c -> c.size()).containsExactly(5);
        Template pipe = Template.parse(b("md5sum {} | cut -c1-32"), "{}", Template.Quoting.SHELL);
        assertThat(pipe.commands(args, Template.Batching.CONTEXT))
                .extracting(c -> c.stream().map(w -> new String(w, StandardCharsets.ISO_8859_1)).toList())
                .containsExactly(List.of("md5sum", "a b", "", "-n\n\"'$", "\u00ff"), List.of("cut", "-c1-32"));
    }

    @Test
    void quotedWordsStayOneWordEach() {
        byte[] text = Template.quotedWords(List.of(b("perl"), b("-e"), b("print \"@ARGV\""), b("x{}y"), b(""), b("{1.}")), "{}");
        assertThat(new String(text, StandardCharsets.UTF_8)).isEqualTo("perl -e 'print \"@ARGV\"' x{}y '' {1.}");
        Template t = Template.parse(text, "{}", Template.Quoting.SHELL);
        assertThat(new String(t.render(JobArgs.single(List.of(b("p q")), 1, 1), Template.Batching.NONE), StandardCharsets.UTF_8))
                .isEqualTo("perl -e 'print \"@ARGV\"' x'p q'y '' 'p q'");
        assertThat(new String(Template.quotedWords(List.of(b("a;XXb")), "XX"), StandardCharsets.UTF_8)).isEqualTo("'a;'XXb");
    }
}
