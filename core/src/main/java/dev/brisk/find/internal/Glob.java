// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

/**
 * A shell pattern ({@code fnmatch(3)} without flags) matched against bytes: {@code *}, {@code ?},
 * bracket expressions with ranges, negation ({@code !} or {@code ^}) and POSIX classes, and
 * backslash escapes. A {@code *} matches {@code /} and a leading dot, as find's {@code -name} and
 * {@code -path} want. Optionally ASCII case-insensitive. Immutable and thread-safe.
 */
final class Glob {
    /** Whether the locale (LC_ALL, LC_CTYPE, LANG) is UTF-8, so that a character may span several bytes. */
    static final boolean UTF8 = utf8Locale();

    private final int[] pattern;
    private final boolean fold;

    Glob(byte[] pattern, boolean fold) {
        this.pattern = decode(pattern, 0, pattern.length);
        this.fold = fold;
    }

    private static boolean utf8Locale() {
        for (String v : new String[] {"LC_ALL", "LC_CTYPE", "LANG"}) {
            String s = System.getenv(v);
            if (s != null && !s.isEmpty()) {
                s = s.toLowerCase(java.util.Locale.ROOT);
                return s.contains("utf-8") || s.contains("utf8");
            }
        }
        return false;
    }

    /**
     * The characters of {@code b[from, to)}: in a UTF-8 locale valid sequences become code points;
     * every other byte becomes a value above any code point, so it matches only itself, {@code ?} and {@code *}.
     */
    static int[] decode(byte[] b, int from, int to) {
        int[] out = new int[to - from];
        int n = 0;
        for (int i = from; i < to; ) {
            int c = b[i] & 0xff;
            if (c < 0x80 || !UTF8) {
                out[n++] = c < 0x80 ? c : 0x110000 | c;
                i++;
                continue;
            }
            int len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
            if (c >= 0xf5) {
                len = 0;
            }
            int cp = len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
            boolean ok = len > 0 && i + len <= to;
            for (int k = 1; ok && k < len; k++) {
                int cc = b[i + k] & 0xff;
                ok = (cc & 0xc0) == 0x80;
                cp = (cp << 6) | (cc & 0x3f);
            }
            if (ok && ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))
                    || (cp >= 0xd800 && cp <= 0xdfff))) {
                ok = false;
            }
            if (ok) {
                out[n++] = cp;
                i += len;
            } else {
                out[n++] = 0x110000 | c;
                i++;
            }
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    boolean matches(byte[] bytes, int from, int to) {
        int[] s = decode(bytes, from, to);
        int[] p = pattern;
        int pi = 0, si = 0, starP = -1, starS = -1;
        to = s.length;
        while (si < to) {
            if (pi < p.length) {
                int c = p[pi];
                if (c == '*') {
                    starP = ++pi;
                    starS = si;
                    continue;
                }
                if (c == '?') {
                    pi++;
                    si++;
                    continue;
                }
                if (c == '[') {
                    int end = bracketEnd(pi);
                    if (end > 0) {
                        if (bracketMatches(pi + 1, end, s[si])) {
                            pi = end + 1;
                            si++;
                            continue;
                        }
                    } else if (same(c, s[si])) {
                        pi++;
                        si++;
                        continue;
                    }
                } else {
                    if (c == '\\' && pi + 1 < p.length) {
                        pi++;
                        c = p[pi];
                    }
                    if (same(c, s[si])) {
                        pi++;
                        si++;
                        continue;
                    }
                }
            }
            if (starP < 0) {
                return false;
            }
            pi = starP;
            si = ++starS;
        }
        while (pi < p.length && p[pi] == '*') {
            pi++;
        }
        return pi == p.length;
    }

    private boolean same(int a, int b) {
        return a == b || (fold && lower(a) == lower(b));
    }

    private static int lower(int c) {
        return c < 0x110000 ? Character.toLowerCase(c) : c;
    }

    private static int upper(int c) {
        return c < 0x110000 ? Character.toUpperCase(c) : c;
    }

    /** The index of the {@code ]} closing the bracket at {@code start}, or -1 if unclosed (then {@code [} is literal). */
    private int bracketEnd(int start) {
        int i = start + 1;
        if (i < pattern.length && (pattern[i] == '!' || pattern[i] == '^')) {
            i++;
        }
        if (i < pattern.length && pattern[i] == ']') {
            i++;
        }
        while (i < pattern.length) {
            if (pattern[i] == '[' && i + 1 < pattern.length && pattern[i + 1] == ':') {
                int close = indexOf(":]", i + 2);
                if (close > 0) {
                    i = close + 2;
                    continue;
                }
            }
            if (pattern[i] == '\\' && i + 1 < pattern.length) {
                i += 2;
                continue;
            }
            if (pattern[i] == ']') {
                return i;
            }
            i++;
        }
        return -1;
    }

    private int indexOf(String what, int from) {
        outer:
        for (int i = from; i + what.length() <= pattern.length; i++) {
            for (int k = 0; k < what.length(); k++) {
                if (pattern[i + k] != what.charAt(k)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private boolean bracketMatches(int from, int end, int c) {
        boolean negate = false;
        int i = from;
        if (pattern[i] == '!' || pattern[i] == '^') {
            negate = true;
            i++;
        }
        boolean hit = false;
        boolean first = true;
        while (i < end) {
            int lo = pattern[i];
            if (lo == '[' && i + 1 < end && pattern[i + 1] == ':') {
                int close = indexOf(":]", i + 2);
                if (close > 0 && close < end) {
                    String cls = new String(pattern, i + 2, close - i - 2);
                    hit |= inClass(cls, c) || (fold && (inClass(cls, lower(c)) || inClass(cls, upper(c))));
                    i = close + 2;
                    first = false;
                    continue;
                }
            }
            if (lo == ']' && !first) {
                break;
            }
            first = false;
            if (lo == '\\' && i + 1 < end) {
                lo = pattern[++i];
            }
            int hi = lo;
            if (i + 2 < end && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
                hi = pattern[i + 2];
                if (hi == '\\' && i + 3 < end) {
                    hi = pattern[i + 3];
                    i++;
                }
                i += 2;
            }
            i++;
            if ((c >= lo && c <= hi) || (fold && ((lower(c) >= lo && lower(c) <= hi) || (upper(c) >= lo && upper(c) <= hi)))) {
                hit = true;
            }
        }
        return hit != negate;
    }

    private static boolean inClass(String cls, int c) {
        if (c >= 0x110000 || (!UTF8 && c >= 0x80)) {
            return false;
        }
        return switch (cls) {
            case "alpha" -> Character.isLetter(c);
            case "digit" -> c >= '0' && c <= '9';
            case "alnum" -> Character.isLetterOrDigit(c);
            case "upper" -> Character.isUpperCase(c);
            case "lower" -> Character.isLowerCase(c);
            case "space" -> c == ' ' || (c >= 9 && c <= 13);
            case "blank" -> c == ' ' || c == '\t';
            case "punct" -> c > 32 && c < 127 && !Character.isLetterOrDigit(c);
            case "print" -> c >= 32 && c != 127 && !(c >= 0x80 && c < 0xa0);
            case "graph" -> c > 32 && c != 127 && !(c >= 0x80 && c < 0xa1);
            case "cntrl" -> c < 32 || c == 127;
            case "xdigit" -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            default -> false;
        };
    }
}
