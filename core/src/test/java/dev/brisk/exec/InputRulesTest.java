// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class InputRulesTest {
    private static List<String> read(InputRules rules, String... items) throws IOException {
        ItemSource s = rules.apply(ItemSource.of(java.util.Arrays.stream(items)
                .map(i -> i.getBytes(StandardCharsets.UTF_8)).toList()));
        return s.readAll().stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void theEndOfInputStringEndsTheSource() throws IOException {
        assertThat(read(new InputRules(InputRules.endOfInput("EOF"), false, false), "a", "EOF", "b")).containsExactly("a");
        assertThat(InputRules.endOfInput("0")).as("Perl's false").isNull();
        assertThat(InputRules.endOfInput("")).isNull();
        assertThat(read(new InputRules(InputRules.endOfInput("EOF"), false, true), "a ", "EOF", "b"))
                .as("a continued item the end cuts short").containsExactly("a ");
    }

    @Test
    void blankItemsAreLeftOutAndContinuedLinesJoined() throws IOException {
        assertThat(read(new InputRules(null, true, false), "a", "", " \t", "\u000b", " b")).containsExactly("a", " b");
        assertThat(read(new InputRules(null, false, true), "a ", "b", "c\t", "", "d")).containsExactly("a b", "c\td");
        assertThat(read(new InputRules(null, true, true), " ", "x ", "y")).as("a blank one goes before it could continue").containsExactly("x y");
        assertThat(read(InputRules.NONE, "a ", "")).containsExactly("a ", "");
    }
}
