// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.io.IOException;
import java.util.Arrays;

/**
 * xargs's input rules, as GNU parallel applies them to each input source's items (stdin,
 * {@code -a}, {@code ::::} and {@code :::} alike): an end-of-input string ({@code -E},
 * {@code -e}) ends the source; with {@code -r} blank items are left out; with {@code -L} or
 * {@code -l} an item that ends in white space goes on in the next one. Immutable; the sources
 * it makes are not thread-safe, as any {@link ItemSource}.
 *
 * <pre>{@code
 * ItemSource s = new InputRules("EOF".getBytes(), true, false).apply(ItemSource.delimited(in, (byte) '\n'));
 * }</pre>
 *
 * @param endOfInput the item that ends a source (itself left out), or null
 * @param skipBlank leave out items of white space only ({@code -r})
 * @param joinContinued an item ending in white space is joined with the next ({@code -L}, {@code -l})
 */
public record InputRules(byte[] endOfInput, boolean skipBlank, boolean joinContinued) {
    /** No rule: items as they come. */
    public static final InputRules NONE = new InputRules(null, false, false);

    public InputRules {
        endOfInput = endOfInput == null ? null : endOfInput.clone();
    }

    /**
     * The end-of-input string as GNU parallel takes it from {@code -E}/{@code -e}: Perl's truth,
     * so an empty string and {@code 0} set none.
     */
    public static byte[] endOfInput(String option) {
        return option == null || option.isEmpty() || option.equals("0")
                ? null : option.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** {@code source} under these rules (itself when there is none); closing it closes {@code source}. */
    public ItemSource apply(ItemSource source) {
        if (endOfInput == null && !skipBlank && !joinContinued) {
            return source;
        }
        return new ItemSource() {
            private boolean ended;

            @Override
            public byte[] next() throws IOException {
                byte[] pending = null;
                while (!ended) {
                    byte[] item = source.next();
                    if (item == null || endOfInput != null && Arrays.equals(item, endOfInput)) {
                        ended = true;
                        return pending; // a continued item the end cut short still counts
                    }
                    if (pending != null) {
                        byte[] joined = Arrays.copyOf(pending, pending.length + item.length);
                        System.arraycopy(item, 0, joined, pending.length, item.length);
                        item = joined;
                        pending = null;
                    }
                    if (skipBlank && blank(item, 0)) {
                        continue;
                    }
                    if (joinContinued && item.length > 0 && space(item[item.length - 1])) {
                        pending = item;
                        continue;
                    }
                    return item;
                }
                return null;
            }

            @Override
            public void close() throws IOException {
                source.close();
            }
        };
    }

    private static boolean blank(byte[] item, int from) {
        for (int i = from; i < item.length; i++) {
            if (!space(item[i])) {
                return false;
            }
        }
        return true;
    }

    /** Perl's {@code \s} in bytes: space, tab, newline, vertical tab, form feed, carriage return. */
    private static boolean space(byte b) {
        return b == ' ' || b >= '\t' && b <= '\r';
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InputRules r && Arrays.equals(endOfInput, r.endOfInput) && skipBlank == r.skipBlank
                && joinContinued == r.joinContinued;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(endOfInput) * 31 + (skipBlank ? 2 : 0) + (joinContinued ? 1 : 0);
    }

    @Override
    public String toString() {
        return "InputRules[endOfInput=" + (endOfInput == null ? null : new String(endOfInput,
                java.nio.charset.StandardCharsets.UTF_8)) + ", skipBlank=" + skipBlank + ", joinContinued=" + joinContinued + "]";
    }
}
