// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.shell;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CommandShapeTest {

    private static CommandShape.Kind kind(String text) {
        return CommandShape.of(text.getBytes(ISO_8859_1)).kind();
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "echo hi", "echo -n a b", ":", "false", "test -d /", "[ a = b ]", "printf %s-%s a b"})
    void sideEffectFreeBuiltins(String text) {
        assertThat(kind(text)).isEqualTo(CommandShape.Kind.PURE_BUILTIN);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ls", "ls -l /tmp", "/bin/true", "./x a=b %1 @a,b:c", " md5sum\tf.txt "})
    void externalCommands(String text) {
        assertThat(kind(text)).isEqualTo(CommandShape.Kind.EXTERNAL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "x=1", "A=b ls", "ls *", "ls ?", "ls [ab]", "ls ~", "ls ~/x", "echo $HOME",
            "echo 'a'", "echo \"a\"", "echo a\\ b", "ls; ls", "ls | cat", "ls && ls", "ls &", "ls > f", "ls < f",
            "echo `id`", "ls #c", "ls {a,b}", "(ls)", "ls\nls", "cd /", "export A=1", "exit 3", "set -e", "trap x EXIT",
            "printf -v x y", "[ a = b", "read x", "eval ls", "exec ls", "time ls", "if", "! ls", "echo \u00e9"})
    void everythingElseIsShellCode(String text) {
        assertThat(kind(text)).isEqualTo(CommandShape.Kind.SHELL);
    }

    @Test
    void wordsAreTheBlankSeparatedBytes() {
        CommandShape s = CommandShape.of(" a\tb  c ".getBytes(ISO_8859_1));
        assertThat(s.words()).extracting(w -> new String(w, ISO_8859_1)).containsExactly("a", "b", "c");
    }
}
