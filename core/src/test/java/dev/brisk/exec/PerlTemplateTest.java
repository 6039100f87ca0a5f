// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Templates with GNU parallel's Perl replacement strings, computed by a real {@code perl}. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PerlTemplateTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Template parse(String text, List<String> rpl) {
        return Template.parse(b(text), "{}", Template.Quoting.SHELL, true, rpl);
    }

    private static String render(Template t, long seq, String... values) {
        List<byte[]> tuple = new ArrayList<>();
        for (String v : values) {
            tuple.add(b(v));
        }
        return new String(t.render(JobArgs.single(tuple, seq, 1), Template.Batching.NONE), StandardCharsets.UTF_8);
    }

    @Test
    void expressionsChangeTheValueAndAreQuotedAsValues() {
        Template t = parse("echo {= s/a/b/ =} {=2 $_.=seq() =} {= $_=\"x y\" =} {= $_=\"x y\";uq() =}", List.of());
        try {
            assertThat(t.usesPerl()).isTrue();
            // as {}, an expression stands for every value of the job; {=N =} for the Nth
            assertThat(render(t, 3, "aa", "c")).isEqualTo("echo ba c c3 'x y' 'x y' x y x y");
            assertThat(t.shape()).isEqualTo(Template.Shape.SHELL); // uq() makes shell code
        } finally {
            t.close();
        }
    }

    @Test
    void aTemplateWithoutThemNeedsNoPerl() {
        Template t = parse("echo {} {= =x", List.of());
        assertThat(t.usesPerl()).isFalse();
        assertThat(render(t, 1, "a")).isEqualTo("echo a {= =x");
        Template plus = parse("echo {} {/}", Template.plusDefinitions());
        assertThat(plus.usesPerl()).isFalse();
        assertThat(plus.shape()).isEqualTo(Template.Shape.BUILTIN);
    }

    @Test
    void rplTagsWithGroupsAndPositions() {
        Template t = parse("echo {%.gz} {2%.tar} {odd} {n}",
                List.of("{%(.+?)} s/$$1$//", "{odd} $_ = seq() % 2 ? \"odd\" : \"even\"", "{n} 1 $_=join(\"+\",@arg[1..$#arg])"));
        try {
            assertThat(render(t, 5, "a.gz", "b.tar")).isEqualTo("echo a b.tar b odd odd a.gz+b.tar");
            assertThat(t.shape()).isEqualTo(Template.Shape.BUILTIN); // every value a quoted word, as {}'s
        } finally {
            t.close();
        }
    }

    @Test
    void plusDefinitionsAreGnus() {
        Template t = parse("echo {..} {+..} {/...} {+/} {:-e} {##d/a} {^d}", Template.plusDefinitions());
        try {
            assertThat(render(t, 1, "d/aab.x.y.z")).isEqualTo("echo d/aab.x y.z aab d d/aab.x.y.z ab.x.y.z D/aab.x.y.z");
            assertThat(render(t, 2, "")).isEqualTo("echo '' '' '' '' e '' ''");
        } finally {
            t.close();
        }
    }

    @Test
    void skipAndBadCodeAreReported() {
        Template t = parse("echo {= skip() if /b/ =}", List.of());
        try {
            assertThat(render(t, 1, "a")).isEqualTo("echo a");
            assertThatThrownBy(() -> render(t, 2, "b")).isInstanceOf(Template.Skipped.class)
                    .satisfies(e -> assertThat(((Template.Skipped) e).command()).isEqualTo(b("echo b")));
        } finally {
            t.close();
        }
        Template bad = parse("echo {= s/ =}", List.of());
        try {
            assertThatThrownBy(() -> render(bad, 1, "a")).isInstanceOf(ExecException.class)
                    .hasMessageStartingWith("Cannot use s/ : Substitution pattern not terminated at (eval ");
        } finally {
            bad.close();
        }
    }

    @Test
    void aTagThatIsNoRegexIsRefused() {
        assertThatThrownBy(() -> parse("echo {x}", List.of("{(} s/a//", "{x(()} s/a//")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--rpl");
    }
}
