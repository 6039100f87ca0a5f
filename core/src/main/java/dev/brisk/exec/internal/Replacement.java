// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.util.Arrays;

/**
 * One replacement string of a {@link Template}: which value it takes ({@code {}} all,
 * {@code {N}} the Nth, {@code {#}} the job number, {@code {%}} the job slot) and how it changes
 * it ({@code .} no extension, {@code /} base name, {@code //} directory, {@code /.} base name
 * without extension), or, for a Perl expression ({@link PerlReplacements}), which of the
 * template's expressions computes it from each value ({@link Kind#ALL}) or the Nth. Immutable.
 *
 * @param kind what the string stands for
 * @param position for {@link Kind#POSITIONAL}: 1-based, or negative to count from the end
 * @param modifier how each value is transformed
 * @param perl the index of its Perl expression in its template ({@code {= =}}, {@code --rpl}), or -1
 */
public record Replacement(Kind kind, int position, Modifier modifier, int perl) {
    /** A replacement string brisk computes itself. */
    public Replacement(Kind kind, int position, Modifier modifier) {
        this(kind, position, modifier, -1);
    }

    /** What a replacement string stands for. */
    public enum Kind { ALL, POSITIONAL, SEQUENCE, SLOT }

    /** How a value is transformed; all work on bytes. */
    public enum Modifier {
        /** The value as it is: {@code {}}. */
        NONE(""),
        /** Without its extension: {@code {.}}. */
        NO_EXTENSION("."),
        /** Its base name: {@code {/}}. */
        BASENAME("/"),
        /** Its directory, or {@code .}: {@code {//}}. */
        DIRNAME("//"),
        /** Its base name without extension: {@code {/.}}. */
        BASENAME_NO_EXTENSION("/.");

        private final String suffix;

        Modifier(String suffix) {
            this.suffix = suffix;
        }

        /** The characters after the position inside the braces, as in {@code {2/.}}. */
        public String suffix() {
            return suffix;
        }

        /** Applies this modifier to {@code v} (never changed; a new array when it differs). */
        public byte[] apply(byte[] v) {
            return switch (this) {
                case NONE -> v;
                case NO_EXTENSION -> noExtension(v);
                case BASENAME -> Arrays.copyOfRange(v, lastSlash(v) + 1, v.length);
                case DIRNAME -> {
                    int s = lastSlash(v);
                    yield s < 0 ? new byte[] {'.'} : s == 0 ? new byte[] {'/'} : Arrays.copyOf(v, s);
                }
                case BASENAME_NO_EXTENSION -> noExtension(Arrays.copyOfRange(v, lastSlash(v) + 1, v.length));
            };
        }

        private static int lastSlash(byte[] v) {
            for (int i = v.length - 1; i >= 0; i--) {
                if (v[i] == '/') {
                    return i;
                }
            }
            return -1;
        }

        /** GNU parallel's {@code s:\.[^/.]*$::}. */
        private static byte[] noExtension(byte[] v) {
            for (int i = v.length - 1; i >= 0; i--) {
                if (v[i] == '/') {
                    return v;
                }
                if (v[i] == '.') {
                    return Arrays.copyOf(v, i);
                }
            }
            return v;
        }
    }

    /**
     * Parses the text inside braces ({@code ""}, {@code "."}, {@code "2/."}, {@code "#"}, ...);
     * returns null when it is not a replacement string (so {@code {print}} stays literal).
     */
    public static Replacement parse(String inner) {
        if (inner.equals("#")) {
            return new Replacement(Kind.SEQUENCE, 0, Modifier.NONE);
        }
        if (inner.equals("%")) {
            return new Replacement(Kind.SLOT, 0, Modifier.NONE);
        }
        int i = 0;
        if (i < inner.length() && inner.charAt(i) == '-') {
            i++;
        }
        int digits = i;
        while (i < inner.length() && Character.isDigit(inner.charAt(i))) {
            i++;
        }
        if (i == digits && digits > 0) {
            return null;
        }
        int end = i;
        // as GNU parallel's \{(-?\d+)\s*: blanks may follow a position ({1 .})
        while (end > digits && i < inner.length() && " \t\n\r\f".indexOf(inner.charAt(i)) >= 0) {
            i++;
        }
        String rest = inner.substring(i);
        Modifier m = null;
        for (Modifier candidate : Modifier.values()) {
            if (candidate.suffix.equals(rest)) {
                m = candidate;
            }
        }
        if (m == null) {
            return null;
        }
        if (end == 0) {
            return new Replacement(Kind.ALL, 0, m);
        }
        if (end - digits > 9) {
            return null;
        }
        int n = Integer.parseInt(inner.substring(0, end));
        return n == 0 ? null : new Replacement(Kind.POSITIONAL, n, m);
    }
}
