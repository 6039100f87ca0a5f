// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * find's -regextype syntaxes as glibc reads them (the expectations are GNU find 4.9's answers on
 * these names); FindPeersIT compares whole runs with GNU find.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RegexSyntaxTest {
    private static boolean m(String type, String re, String path) {
        return RegexSyntax.compile(re, RegexSyntax.syntax(type), false).matcher(path).matches();
    }

    private static String error(String type, String re) {
        try {
            RegexSyntax.compile(re, RegexSyntax.syntax(type), false);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    @Test
    void groupsAndAlternationBySyntax() {
        assertThat(m("findutils-default", ".*/\\(a\\|b\\)", "./a")).isTrue();
        assertThat(m("emacs", "(x)|{1}", "(x)|{1}")).isTrue();
        assertThat(m("posix-extended", ".*/(a|b){2}", "./ab")).isTrue();
        assertThat(m("posix-basic", "a\\{2\\}", "aa")).isTrue();
        assertThat(m("posix-basic", "a{2}", "a{2}")).isTrue();
        assertThat(m("sed", ".*/[0-9]\\{4\\}", "./2024")).isTrue();
        assertThat(m("ed", "\\./\\((\\)", "./(")).isTrue();
        assertThat(m("grep", ".*/f\\+o\\?o\\?", "./fo")).isTrue();
        assertThat(m("grep", "a+", "a+")).isTrue();
        assertThat(m("egrep", "a+|b", "aaa")).isTrue();
        assertThat(m("posix-minimal-basic", "a+", "a+")).isTrue();
        assertThat(m("awk", "\\(", "(")).isTrue();
        assertThat(m("emacs", "\\(a\\)\\1", "aa")).isTrue();
    }

    @Test
    void anchorsAndContext() {
        assertThat(m("posix-basic", "a^b", "a^b")).isTrue();
        assertThat(m("posix-extended", "a^b", "a^b")).isFalse();
        assertThat(m("posix-basic", "a$b", "a$b")).isTrue();
        assertThat(m("posix-basic", "\\(^a$\\)", "a")).isTrue();
        assertThat(m("posix-basic", "*a", "*a")).isTrue();
        assertThat(m("egrep", "*a", "a")).isTrue(); // a leading * is skipped
        assertThat(m("emacs", "\\w+ \\w+", "foo bar")).isTrue();
        assertThat(m("awk", "\\w", "w")).isTrue();
    }

    @Test
    void bracketExpressions() {
        assertThat(m("posix-basic", "[[:digit:]]*", "123")).isTrue();
        assertThat(m("emacs", "[[:digit:]]", "5")).isFalse();
        assertThat(m("emacs", "[[:digit:]]", ":]")).isTrue();
        assertThat(m("emacs", "a[[:digit:]]", "a:]")).isTrue(); // no classes in emacs: "[[:digit:]" then "]"
        assertThat(m("posix-basic", "[]a]*", "]a]")).isTrue();
        assertThat(m("posix-basic", "[\\]x", "\\x")).isTrue();
        assertThat(m("awk", "[\\]x]", "]")).isTrue();
        assertThat(m("posix-basic", "[^a]1", "b1")).isTrue();
        assertThat(m("posix-basic", "[a-]", "-")).isTrue();
        assertThat(m("posix-basic", "[[.a.]-c]", "b")).isTrue();
        assertThat(m("posix-basic", "[[=a=]]", "a")).isTrue();
        assertThat(m("emacs", "x[z-a]y", "xy")).isFalse();
    }

    @Test
    void glibcsMessages() {
        assertThat(error("emacs", "\\(")).isEqualTo("Unmatched ( or \\(");
        assertThat(error("posix-extended", "(")).isEqualTo("Unmatched ( or \\(");
        assertThat(error("posix-basic", "\\)")).isEqualTo("Unmatched ) or \\)");
        assertThat(error("posix-extended", ")")).isNull();
        assertThat(error("posix-basic", "a\\{1")).isEqualTo("Unmatched \\{");
        assertThat(error("posix-basic", "a\\{x\\}")).isEqualTo("Invalid content of \\{\\}");
        assertThat(error("posix-basic", "a\\{2,1\\}")).isEqualTo("Invalid content of \\{\\}");
        assertThat(error("egrep", "a{1")).isNull();
        assertThat(error("posix-extended", "[z-a]")).isEqualTo("Invalid range end");
        assertThat(error("emacs", "[z-a]")).isNull();
        assertThat(error("posix-extended", "*a")).isEqualTo("Invalid preceding regular expression");
        assertThat(error("posix-basic", "a**")).isEqualTo("Invalid preceding regular expression");
        assertThat(error("grep", "a**")).isNull();
        assertThat(error("posix-basic", "[[:foo:]]")).isEqualTo("Invalid character class name");
        assertThat(error("posix-basic", "[a")).isEqualTo("Unmatched [, [^, [:, [., or [=");
        assertThat(error("posix-basic", "\\1")).isEqualTo("Invalid back reference");
        assertThat(error("posix-basic", "\\(\\(a\\)\\1\\)")).isEqualTo("Invalid back reference");
        assertThat(error("awk", "\\1")).isNull();
        assertThat(error("emacs", "a\\")).isEqualTo("Trailing backslash");
        assertThat(error("posix-basic", "[[.ab.]]")).isEqualTo("Invalid collation character");
        assertThat(error("posix-basic", "a\\{32768\\}")).isEqualTo("Regular expression too big");
        assertThat(RegexSyntax.syntax("extended")).isNegative();
    }

    @Test
    void caseFolding() {
        assertThat(RegexSyntax.compile("[a-c]X\\.txt", RegexSyntax.syntax("emacs"), true).matcher("Bx.TXT").matches()).isTrue();
    }
}
