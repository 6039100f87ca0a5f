// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link PipeRecords}' blocks, each expectation GNU parallel 20221122's cut of the same input. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class PipeRecordsTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static List<String> cut(PipeRecords r, String input, List<String> warnings) throws IOException {
        List<String> blocks = new ArrayList<>();
        try (ItemSource s = r.blocks(new ByteArrayInputStream(b(input)), warnings::add)) {
            for (byte[] v; (v = s.next()) != null; ) {
                blocks.add(new String(v, StandardCharsets.ISO_8859_1));
            }
        }
        return blocks;
    }

    private static PipeRecords lines(long block, int n, int l) {
        return new PipeRecords(block, new byte[0], b("\n"), false, n, l);
    }

    @Test
    void blocksEndAtTheLastRecordEndOfEachRead() throws IOException {
        List<String> w = new ArrayList<>();
        assertThat(cut(lines(6, 0, 0), "aa\nbbb\ncccc\nd\n", w)).containsExactly("aa\n", "bbb\n", "cccc\n", "d\n");
        assertThat(cut(lines(6, 0, 0), "aa\nbbb\ncccc\nd", w)).containsExactly("aa\n", "bbb\n", "cccc\n", "d");
        assertThat(w).isEmpty();
    }

    @Test
    void aRecordLongerThanTheBlockGrowsItWithAWarning() throws IOException {
        List<String> w = new ArrayList<>();
        assertThat(cut(lines(4, 0, 0), "abcdefghij\nk\n", w)).containsExactly("abcdefghij\n", "k\n");
        assertThat(w).first().isEqualTo("A record was longer than 4. Increasing to --blocksize 7.");
    }

    private static List<String> headed(PipeRecords r, String header, String input) throws IOException {
        List<String> blocks = new ArrayList<>();
        try (ItemSource s = r.blocks(new ByteArrayInputStream(b(input)), header, w -> { })) {
            for (byte[] v; (v = s.next()) != null; ) {
                blocks.add(new String(v, StandardCharsets.ISO_8859_1));
            }
        }
        return blocks;
    }

    @Test
    void theHeaderGoesBeforeEveryBlock() throws IOException {
        // --header REGEX, : (one line), N (lines); a header that never matches is none
        assertThat(headed(lines(100, 2, 0), ".*\n.*\n", "h1\nh2\n1a\n1b\n2a\n2b\n3a\n"))
                .containsExactly("h1\nh2\n1a\n1b\n", "h1\nh2\n2a\n2b\n", "h1\nh2\n3a\n");
        assertThat(headed(lines(100, 1, 0), ":", "h\na\nb\n")).containsExactly("h\na\n", "h\nb\n");
        assertThat(headed(lines(100, 1, 0), "2", "h\ni\na\n")).containsExactly("h\ni\na\n");
        assertThat(headed(lines(3, 0, 0), "H+\n", "HH\nab\ncd\n")).containsExactly("HH\nab\n", "HH\ncd\n");
        assertThat(headed(lines(100, 1, 0), "x\n", "a\nb\n")).containsExactly("a\n", "b\n");
        assertThat(headed(lines(100, 1, 0), ":", "")).isEmpty();
        assertThatThrownBy(() -> headed(lines(100, 1, 0), "(", "a\n")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRegexpRecordsOwnStartEndsNothing() throws IOException {
        // GNU parallel: --recstart '.*, S' matches at a record's second and third byte too, but a record begins there
        PipeRecords r = new PipeRecords(100, b(".*, S"), new byte[0], true, 1, 0);
        assertThat(cut(r, "g\nA2, S, 1\nx\nA2, S, 2\n", new ArrayList<>())).containsExactly("g\n", "A2, S, 1\nx\n", "A2, S, 2\n");
    }

    @Test
    void noInputNoBlock() throws IOException {
        assertThat(cut(PipeRecords.LINES, "", new ArrayList<>())).isEmpty();
    }

    @Test
    void recordsPerJobAndLinesPerRecord() throws IOException {
        List<String> w = new ArrayList<>();
        assertThat(cut(lines(1 << 20, 2, 0), "1\n2\n3\n4\n5\n", w)).containsExactly("1\n2\n", "3\n4\n", "5\n");
        assertThat(cut(lines(1, 0, 2), "1\n2\n3\n4\n5\n", w)).containsExactly("1\n2\n", "3\n4\n", "5\n");
        assertThat(cut(lines(1 << 20, 2, 2), "1\n2\n3\n4\n5\n", w)).containsExactly("1\n2\n3\n4\n", "5\n");
    }

    @Test
    void recordStartsAndRegularExpressions() throws IOException {
        List<String> w = new ArrayList<>();
        PipeRecords start = new PipeRecords(1 << 20, b(">"), new byte[0], false, 1, 0);
        assertThat(cut(start, ">a\n1\n>b\n2\n", w)).containsExactly(">a\n1\n", ">b\n2\n");
        PipeRecords regexp = new PipeRecords(1 << 20, new byte[0], b("[0-9]+X"), true, 1, 0);
        assertThat(cut(regexp, "a1Xb22Xc", w)).containsExactly("a1X", "b22X", "c");
    }

    @Test
    void aFileIsSplitAtTheFirstBoundaryPastEachBlock(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("f");
        Files.write(f, b("aa\nbbb\ncccc\nd\n"));
        List<String> parts = new ArrayList<>();
        try (ItemSource s = lines(4, 0, 0).parts(f)) {
            for (byte[] v; (v = s.next()) != null; ) {
                parts.add(new String(v, StandardCharsets.ISO_8859_1));
            }
        }
        assertThat(parts).containsExactly("aa\nbbb\n", "cccc\n", "d\n");
    }

    @Test
    void aFilesHeaderGoesBeforeEveryPartAndThePartsStartAfterIt(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("f");
        Files.write(f, b("skip\nH\naa\nbbb\ncccc\nd\n"));
        // GNU parallel: parallel --pipepart -a f --skip-first-line --header 1 --block 4 ...
        List<String> parts = new ArrayList<>();
        try (ItemSource s = lines(4, 0, 0).parts(f, 5, "1")) {
            for (byte[] v; (v = s.next()) != null; ) {
                parts.add(new String(v, StandardCharsets.ISO_8859_1));
            }
        }
        assertThat(parts).containsExactly("H\naa\nbbb\n", "H\ncccc\n", "H\nd\n");
        assertThatThrownBy(() -> lines(4, 0, 0).parts(f, 0, "(")).hasMessage("--header: not a regular expression: '('");
    }

    @Test
    void badValuesAreNamed() {
        assertThatThrownBy(() -> lines(0, 0, 0)).hasMessage("blockSize must be at least 1, got 0");
        assertThatThrownBy(() -> new PipeRecords(1, new byte[0], b("["), true, 0, 0))
                .hasMessage("regexp: not a regular expression: '['");
    }

    private static PipeRecords with(String start, String end, boolean regexp, int n, boolean rrs, boolean csv) {
        return new PipeRecords(4, b(start), b(end), regexp, n, 0, rrs, java.time.Duration.ZERO, csv);
    }

    @Test
    void removeRecSepTakesTheSeparatorsOutOfEachBlock() throws IOException {
        List<String> w = new ArrayList<>();
        // GNU parallel: printf 'a\nb\nc\n' | parallel --pipe --rrs --block 4 ...
        assertThat(cut(with("", "\n", false, 0, true, false), "a\nb\nc\n", w)).containsExactly("ab", "c");
        assertThat(cut(with("X", "", false, 1, true, false), "Xa\nXb\n", w)).containsExactly("a\n", "b\n");
        assertThat(cut(with("", "[0-9]+X", true, 1, true, false), "a1Xb22Xc", w)).containsExactly("a", "b", "c");
        assertThat(cut(with("", ";", false, 0, true, false), "a;b;\n", w)).containsExactly("ab", "\n");
    }

    @Test
    void csvBlocksEndOnlyAtANewlineOutsideQuotes() throws IOException {
        List<String> w = new ArrayList<>();
        assertThat(cut(with("", "\n", false, 0, false, true), "a,\"b\nc\",d\ne\n", w))
                .containsExactly("a,\"b\nc\",d\n", "e\n");
        assertThat(cut(new PipeRecords(8, b(""), b("\n"), false, 0, 0, false, java.time.Duration.ZERO, true),
                "x,\"1\n2\"\ny\n", w)).containsExactly("x,\"1\n2\"\n", "y\n");
    }

    @Test
    void aBlockTimeoutPassesWhatCameInTime() throws Exception {
        java.io.PipedOutputStream writer = new java.io.PipedOutputStream();
        java.io.PipedInputStream in = new java.io.PipedInputStream(writer);
        PipeRecords r = new PipeRecords(1 << 20, new byte[0], b("\n"), false, 0, 0, false, java.time.Duration.ofMillis(300), false);
        List<String> w = new ArrayList<>();
        try (ItemSource s = r.blocks(in, w::add)) {
            writer.write(b("a\nb"));
            writer.flush();
            assertThat(new String(s.next(), StandardCharsets.ISO_8859_1)).isEqualTo("a\n"); // no end of input yet
            writer.write(b("\nc\n"));
            writer.close();
            assertThat(new String(s.next(), StandardCharsets.ISO_8859_1)).isEqualTo("b\nc\n");
            assertThat(s.next()).isNull();
        }
        assertThat(w).isEmpty();
        assertThatThrownBy(() -> new PipeRecords(1, b(""), b("\n"), false, 0, 0, false, java.time.Duration.ofSeconds(-1), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blockTimeout must not be negative");
    }
}
