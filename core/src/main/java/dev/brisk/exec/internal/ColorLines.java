// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * GNU parallel's coloured lines ({@code --color}, {@code --color-failed}): each line of a job's
 * output starts with its colour, clear-to-end-of-line and its tag, and ends with the reset
 * before its newline; a {@code \r} resets and starts the colour again; a last line without a
 * newline gets one ({@link #end}), as GNU's line-by-line print does. Not thread-safe; does not
 * close the stream under it.
 */
final class ColorLines extends OutputStream {
    /** Clear to the end of the line: what GNU parallel uses where {@code tput el} gives nothing. */
    private static final String EOL = "\033[K";
    /** Turn off all attributes: GNU parallel's fallback for {@code tput sgr0}. */
    static final byte[] RESET = "\033[m".getBytes(StandardCharsets.US_ASCII);
    /** White on red, a failed job's colour. */
    static final byte[] FAILED = ("\033[48;5;196;38;5;231m" + EOL).getBytes(StandardCharsets.US_ASCII);
    private static final List<byte[]> COLORS = colors();

    private final OutputStream out;
    private final byte[] start;
    private final byte[] reset;
    private boolean atLineStart = true;

    /** Lines on {@code out} starting with {@code color} and {@code tag}; a {@code color} of none resets nothing. */
    ColorLines(OutputStream out, byte[] color, byte[] tag) {
        this.out = out;
        this.start = new byte[color.length + tag.length];
        System.arraycopy(color, 0, start, 0, color.length);
        System.arraycopy(tag, 0, start, color.length, tag.length);
        this.reset = color.length == 0 ? new byte[0] : RESET;
    }

    /**
     * The colour of job {@code seq}, with clear-to-end-of-line: GNU parallel's table of readable
     * background and foreground pairs, ordered so that neighbours differ, taken by {@code seq}
     * modulo its size.
     */
    static byte[] ofSequence(long seq) {
        return COLORS.get((int) Math.floorMod(seq, (long) COLORS.size()));
    }

    private static List<byte[]> colors() {
        List<String[]> pairs = new ArrayList<>();
        int[][] black = {{6, 7}, {9, 11}, {13, 15}, {40, 51}, {75, 87}, {113, 123}, {147, 159}, {171, 182}, {185, 231},
            {249, 254}};
        int[][] white = {{1, 9}, {12, 13}, {16, 45}, {52, 81}, {88, 114}, {124, 149}, {160, 178}, {180, 180},
            {182, 184}, {196, 214}, {232, 250}};
        for (int[] r : black) {
            IntStream.rangeClosed(r[0], r[1]).forEach(n -> pairs.add(new String[] {String.format("%03d", n), "000"}));
        }
        for (int[] r : white) {
            IntStream.rangeClosed(r[0], r[1]).forEach(n -> pairs.add(new String[] {String.format("%03d", n), "231"}));
        }
        // GNU's order: by index mod 23, then by index mod 7 descending (a stable sort)
        List<Integer> order = new ArrayList<>(IntStream.range(0, pairs.size()).boxed().toList());
        order.sort(Comparator.<Integer>comparingInt(i -> i % 23).thenComparing(i -> i % 7, Comparator.reverseOrder()));
        List<byte[]> r = new ArrayList<>();
        for (int i : order) {
            String[] p = pairs.get(i);
            r.add(("\033[48;5;" + p[0] + ";38;5;" + p[1] + "m" + EOL).getBytes(StandardCharsets.US_ASCII));
        }
        return List.copyOf(r);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        int end = off + len;
        int from = off;
        for (int i = off; i < end; i++) {
            if (atLineStart) {
                out.write(start);
                atLineStart = false;
            }
            byte c = b[i];
            if (c == '\n' || c == '\r') {
                out.write(b, from, i - from);
                out.write(reset);
                out.write(c);
                from = i + 1;
                if (c == '\n') {
                    atLineStart = true;
                } else {
                    out.write(start);
                }
            }
        }
        out.write(b, from, end - from);
    }

    /** Ends the output: a last line without its newline gets the reset and one. */
    void end() throws IOException {
        if (!atLineStart) {
            out.write(reset);
            out.write('\n');
            atLineStart = true;
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
