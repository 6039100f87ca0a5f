// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InputTest {
    private static List<byte[]> bytes(String... s) {
        List<byte[]> l = new ArrayList<>();
        for (String x : s) {
            l.add(x.getBytes(StandardCharsets.UTF_8));
        }
        return l;
    }

    private static List<String> all(ArgumentSource s) throws IOException {
        List<String> out = new ArrayList<>();
        for (List<byte[]> t; (t = s.next()) != null; ) {
            out.add(String.join(",", t.stream().map(v -> new String(v, StandardCharsets.UTF_8)).toList()));
        }
        return out;
    }

    @Test
    void productVariesTheFirstSourceSlowest() throws IOException {
        ArgumentSource s = ArgumentSource.of(List.of(List.of(ItemSource.of(bytes("a", "b"))),
                List.of(ItemSource.of(bytes("1", "2")))));
        assertThat(all(s)).containsExactly("a,1", "a,2", "b,1", "b,2");
    }

    @Test
    void linkedSourcesEndWithTheShortest() throws IOException {
        ArgumentSource s = ArgumentSource.of(List.of(
                List.of(ItemSource.of(bytes("a", "b")), ItemSource.of(bytes("1", "2", "3"))),
                List.of(ItemSource.of(bytes("X", "Y")))));
        assertThat(all(s)).containsExactly("a,1,X", "a,1,Y", "b,2,X", "b,2,Y");
    }

    /** --link: one tuple per item of the longest source, shorter ones starting again; an empty one gives empty values. */
    @Test
    void recycledSourcesEndWithTheLongest() throws IOException {
        ArgumentSource s = ArgumentSource.recycled(List.of(ItemSource.of(bytes("a", "b", "c", "d", "e")),
                ItemSource.of(bytes("1", "2")), ItemSource.of(bytes("x", "y", "z")), ItemSource.of(bytes())));
        assertThat(all(s)).containsExactly("a,1,x,", "b,2,y,", "c,1,z,", "d,2,x,", "e,1,y,");
    }

    /** Columns split every value of a tuple, after the product is made. */
    @Test
    void columnsSplitEachValueOfTheTuple() throws IOException {
        ArgumentSource s = ArgumentSource.of(List.of(List.of(ItemSource.of(bytes("a,b", "c"))),
                List.of(ItemSource.of(bytes(" 1 ,2")))))
                .columns(new ColumnRules(ColumnRules.separator(",".getBytes(StandardCharsets.US_ASCII)), ColumnRules.Trim.BOTH));
        assertThat(all(s)).containsExactly("a,b,1,2", "c,1,2");
    }

    /** Lists say how many tuples they make (so a run starts no more slots); a stream cannot. */
    @Test
    void listsBoundTheTuplesAStreamDoesNot() throws IOException {
        ArgumentSource product = ArgumentSource.of(List.of(
                List.of(ItemSource.of(bytes("a", "b")), ItemSource.of(bytes("1", "2", "3"))),
                List.of(ItemSource.of(bytes("x", "y", "z")))));
        assertThat(product.maxTuples()).isEqualTo(6).isEqualTo(all(ArgumentSource.of(List.of(
                List.of(ItemSource.of(bytes("a", "b")), ItemSource.of(bytes("1", "2", "3"))),
                List.of(ItemSource.of(bytes("x", "y", "z")))))).size());
        ArgumentSource stream = ArgumentSource.of(List.of(List.of(ItemSource.of(bytes("a"))),
                List.of(ItemSource.delimited(new ByteArrayInputStream("1\n2\n".getBytes(StandardCharsets.UTF_8)), (byte) '\n'))));
        assertThat(stream.maxTuples()).isEqualTo(-1);
        ArgumentSource read = ArgumentSource.of(ItemSource.of(bytes("a", "b")));
        read.next();
        assertThat(read.maxTuples()).as("once reading has begun").isEqualTo(-1);
        assertThat(ArgumentSource.of(ItemSource.of(List.of())).maxTuples()).isZero();
    }

    /** As GNU parallel: a source without items gives one empty value; only when every one is empty there is no job. */
    @Test
    void anEmptySourceGivesOneEmptyValue() throws IOException {
        ArgumentSource s = ArgumentSource.of(List.of(List.of(ItemSource.of(bytes("a", "b"))), List.of(ItemSource.of(List.of()))));
        assertThat(s.maxTuples()).isEqualTo(2);
        assertThat(all(s)).containsExactly("a,", "b,");
        ArgumentSource first = ArgumentSource.of(List.of(List.of(ItemSource.of(List.of())), List.of(ItemSource.of(bytes("1", "2")))));
        assertThat(all(first)).containsExactly(",1", ",2");
        ArgumentSource none = ArgumentSource.of(List.of(List.of(ItemSource.of(List.of())), List.of(ItemSource.of(List.of()))));
        assertThat(none.maxTuples()).isZero();
        assertThat(all(none)).isEmpty();
        ArgumentSource blocks = ArgumentSource.of(List.of(List.of(ItemSource.of(bytes("a", "b"))), List.of(ItemSource.of(List.of()))))
                .emptyMeansNone();
        assertThat(blocks.maxTuples()).isZero();
        assertThat(all(blocks)).isEmpty();
    }

    @Test
    void splitKeepsEveryPieceAndReadsSeveralByteDelimiters() throws IOException {
        assertThat(all(ArgumentSource.of(ItemSource.split(bytes("a:b", "c:", "", "d"), bytes(":").getFirst()))))
                .containsExactly("a", "b", "c", "", "", "d");
        byte[] in = "1\n2\n\n3\n\n\n4\n".getBytes(StandardCharsets.UTF_8);
        assertThat(all(ArgumentSource.of(ItemSource.delimited(new ByteArrayInputStream(in), bytes("\n\n").getFirst()))))
                .containsExactly("1\n2", "3", "\n4\n");
    }

    /** A NUL after a value's first byte is written as \0, with one warning per tuple, as GNU parallel's. */
    @Test
    void nulIsReplacedWithAWarningPerTuple() throws IOException {
        int[] warnings = {0};
        ArgumentSource s = ArgumentSource.of(List.of(List.of(ItemSource.of(List.of("a\0b\0".getBytes(StandardCharsets.UTF_8),
                "\0c".getBytes(StandardCharsets.UTF_8), "d".getBytes(StandardCharsets.UTF_8))), ItemSource.of(bytes("x\0", "y", "z")))))
                .nulReplaced(() -> warnings[0]++);
        assertThat(all(s)).containsExactly("a\\0b\\0,x\\0", "\0c,y", "d,z");
        assertThat(warnings[0]).isEqualTo(1);
    }

    @Test
    void delimitedSplitsKeepsEmptyItemsAndBytes() throws IOException {
        byte[] in = {'a', '\n', '\n', (byte) 0xff, 'b', '\n', 'c'};
        List<byte[]> items = ItemSource.delimited(new ByteArrayInputStream(in), (byte) '\n').readAll();
        assertThat(items).hasSize(4);
        assertThat(items.get(1)).isEmpty();
        assertThat(items.get(2)).containsExactly((byte) 0xff, 'b');
        assertThat(items.get(3)).containsExactly('c');
        assertThat(ItemSource.delimited(new ByteArrayInputStream(new byte[] {'x', 0, 'y', 0}), (byte) 0).readAll()).hasSize(2);
    }

    @Test
    void aHundredMegabyteLinePassesWhole() throws IOException {
        long size = 100L << 20;
        InputStream huge = new InputStream() {
            long left = size;

            @Override
            public int read() {
                return left-- > 0 ? 'x' : left == -1 ? '\n' : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left < 0) {
                    if (left == -1) {
                        left--;
                        b[off] = '\n';
                        return 1;
                    }
                    return -1;
                }
                int n = (int) Math.min(len, left);
                java.util.Arrays.fill(b, off, off + n, (byte) 'x');
                left -= n;
                if (left == 0) {
                    left = -1;
                }
                return n;
            }
        };
        ItemSource s = ItemSource.delimited(huge, (byte) '\n');
        assertThat(s.next()).hasSize((int) size);
        assertThat(s.next()).isNull();
    }

    @Test
    void haltAndTermSeqParseGnuForms() {
        assertThat(Halt.parse("now,fail=1")).isEqualTo(new Halt(Halt.When.NOW, Halt.Event.FAIL, 1, 0));
        assertThat(Halt.parse("soon,success=30%").percent()).isEqualTo(30.0);
        assertThat(Halt.parse("2").when()).isEqualTo(Halt.When.NOW);
        assertThat(Halt.parse("never")).isEqualTo(Halt.NEVER);
        assertThat(Halt.parse("-2")).isEqualTo(new Halt(Halt.When.NOW, Halt.Event.SUCCESS, 1, 0));
        assertThat(Halt.parse("-1")).isEqualTo(new Halt(Halt.When.SOON, Halt.Event.SUCCESS, 1, 0));
        assertThat(Halt.parse("5%")).isEqualTo(new Halt(Halt.When.SOON, Halt.Event.FAIL, 0, 5));
        // GNU parallel's messages
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Halt.parse("later,fail=1"))
                .hasMessage("--halt must have 'never', 'soon', or 'now'.");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Halt.parse("soon"))
                .hasMessage("--halt soon must be followed by ,success or ,fail.");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Halt.parse("now,fail=x"))
                .hasMessage("--halt now,fail must be followed by ,number or ,percent%.");
        assertThat(TermStep.parse("TERM,200,KILL")).containsExactly(new TermStep(15, 200), new TermStep(9, 25));
        assertThat(TermStep.parse("SIGINT,10,9,5")).containsExactly(new TermStep(2, 10), new TermStep(9, 5));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TermStep.parse("BOGUS,1")).hasMessageContaining("BOGUS");
    }
}
