// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Perl's split and GNU parallel's trim, on bytes; GNU parallel's own answers are in ParColumnsIT. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ColumnRulesTest {
    private static List<String> split(String regex, String value, boolean keepTrailing) {
        Pattern p = ColumnRules.separator(regex.getBytes(StandardCharsets.UTF_8));
        return ColumnRules.split(p, value.getBytes(StandardCharsets.ISO_8859_1), keepTrailing).stream()
                .map(b -> new String(b, StandardCharsets.ISO_8859_1)).toList();
    }

    @Test
    void splitsAsPerlSplits() {
        assertThat(split(",", "a,b,,", true)).containsExactly("a", "b", "", "");
        assertThat(split(",", "a,b,,", false)).containsExactly("a", "b");
        assertThat(split(" ", "  a", true)).containsExactly("", "", "a");
        assertThat(split("", "abc", false)).containsExactly("a", "b", "c");
        assertThat(split("(\\d)|(x)", "a1bxc", true)).containsExactly("a", "1", "", "b", "", "x", "c");
    }

    /** Bytes stay bytes: a separator of two UTF-8 bytes, a value that is not UTF-8. */
    @Test
    void matchesBytes() {
        Pattern p = ColumnRules.separator("é".getBytes(StandardCharsets.UTF_8));
        byte[] v = {'a', (byte) 0xff, (byte) 0xc3, (byte) 0xa9, 'b'};
        List<byte[]> parts = ColumnRules.split(p, v, true);
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0)).containsExactly('a', (byte) 0xff);
        assertThat(parts.get(1)).containsExactly('b');
    }

    @Test
    void trimsWhatItIsAsked() {
        List<byte[]> v = List.of(" \ta b\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(new ColumnRules(null, ColumnRules.Trim.of("l")).apply(v).getFirst(), StandardCharsets.US_ASCII))
                .isEqualTo("a b\r\n");
        assertThat(new String(new ColumnRules(null, ColumnRules.Trim.of("r")).apply(v).getFirst(), StandardCharsets.US_ASCII))
                .isEqualTo(" \ta b");
        assertThat(new String(new ColumnRules(null, ColumnRules.Trim.of("rl")).apply(v).getFirst(), StandardCharsets.US_ASCII))
                .isEqualTo("a b");
        assertThat(ColumnRules.NONE.apply(v)).isSameAs(v);
        assertThatThrownBy(() -> ColumnRules.Trim.of("x")).hasMessage("--trim must be one of: r l rl lr.");
        assertThatThrownBy(() -> ColumnRules.separator("(".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("not a valid regular expression: ");
    }

    private static List<String> csv(String record, char sep) {
        return new ColumnRules(null, ColumnRules.Trim.NONE, sep).apply(List.of(record.getBytes(StandardCharsets.ISO_8859_1)))
                .stream().map(c -> new String(c, StandardCharsets.ISO_8859_1)).toList();
    }

    @Test
    void readsCsvAsTextCsvDoes() {
        // GNU parallel --csv (Text::CSV, binary): each expectation its fields
        assertThat(csv("a,\"b,c\",d", ',')).containsExactly("a", "b,c", "d");
        assertThat(csv("\"e \"\"q\"\"\",f,\"g\nh\"", ',')).containsExactly("e \"q\"", "f", "g\nh");
        assertThat(csv(",,", ',')).containsExactly("", "", "");
        assertThat(csv("", ',')).containsExactly("");
        assertThat(csv("a;\"b;c\"", ';')).containsExactly("a", "b;c");
        for (String bad : List.of("a\"b,c", "\"a", "\"a\" ,b")) {
            assertThatThrownBy(() -> csv(bad, ',')).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("CSV has unexpected format: ^" + bad + "^");
        }
    }

    @Test
    void joinsCsvRecordsOverLines() throws java.io.IOException {
        ItemSource s = ColumnRules.csvRecords(ItemSource.of(List.of("x,\"1".getBytes(StandardCharsets.US_ASCII),
                "2\"".getBytes(StandardCharsets.US_ASCII), "y".getBytes(StandardCharsets.US_ASCII))), new byte[] {'\n'});
        assertThat(new String(s.next(), StandardCharsets.US_ASCII)).isEqualTo("x,\"1\n2\"");
        assertThat(new String(s.next(), StandardCharsets.US_ASCII)).isEqualTo("y");
        assertThat(s.next()).isNull();
    }
}
