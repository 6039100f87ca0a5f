// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

/**
 * A shell pattern matched against bytes exactly as glibc's {@code fnmatch(3)} (flags 0 or
 * {@code FNM_CASEFOLD}), which GNU find's {@code -name} and {@code -path} call: {@code *},
 * {@code ?}, bracket expressions ({@code !} or {@code ^}, a leading {@code ]}, ranges, classes,
 * {@code [=c=]} and {@code [.c.]}), backslash before any character, and glibc's corners: a
 * trailing unescaped backslash matches nothing, an unknown class name ({@code [[:foo:]]}) matches
 * nothing, {@code [:} followed by anything but lower-case letters is an ordinary {@code [}, an
 * unclosed {@code [} is literal. A {@code *} matches {@code /} and a leading dot.
 *
 * <p>In a UTF-8 locale glibc matches by characters when pattern and name are both valid UTF-8,
 * and by bytes otherwise; and since glibc 2.36 a pattern that fails by characters is tried again
 * by bytes (so {@code ??} matches the two-byte {@code é}). This class does the same: characters
 * first, then bytes. Classes and case folding of bytes are the C locale's (ASCII); of characters
 * Unicode's; ranges of characters follow C.UTF-8's collation sequence (see {@link #inWideRange}).
 * Immutable and thread-safe.
 */
final class Glob {
    private static final int CHAR_CLASS_MAX_LENGTH = 256;

    private final int[] bytePattern;
    /** The pattern as code points, or null where it is not valid UTF-8 (or the locale is not UTF-8). */
    private final int[] charPattern;
    private final boolean fold;
    /** glibc: {@code ^} negates a bracket too, unless POSIXLY_CORRECT is set. */
    private final boolean caretNegates;
    /** Whether the pattern is pure ASCII: then a pure-ASCII name needs one pass only. */
    private final boolean ascii;

    /**
     * {@code pattern} in the locale and with the {@code POSIXLY_CORRECT} of the current
     * {@link dev.brisk.internal.posix.Caller} (both read here, once).
     */
    Glob(byte[] pattern, boolean fold) {
        this.bytePattern = bytes(pattern, 0, pattern.length);
        this.charPattern = dev.brisk.internal.posix.Environ.utf8Locale() ? chars(pattern, 0, pattern.length) : null;
        this.caretNegates = dev.brisk.internal.posix.Environ.get("POSIXLY_CORRECT") == null;
        this.fold = fold;
        boolean a = true;
        for (byte b : pattern) {
            a &= b >= 0;
        }
        this.ascii = a;
    }

    boolean matches(byte[] name, int from, int to) {
        int[] s = bytes(name, from, to);
        boolean asciiName = true;
        for (int c : s) {
            asciiName &= c < 0x80;
        }
        if (charPattern != null && !(ascii && asciiName)) {
            int[] w = chars(name, from, to);
            if (w != null && match(charPattern, 0, w, 0, true)) {
                return true;
            }
        }
        return match(bytePattern, 0, s, 0, false);
    }

    private static int[] bytes(byte[] b, int from, int to) {
        int[] out = new int[to - from];
        for (int i = from; i < to; i++) {
            out[i - from] = b[i] & 0xff;
        }
        return out;
    }

    /** The code points of {@code b[from, to)}, or null if it is not valid UTF-8 (as mbsrtowcs fails). */
    static int[] chars(byte[] b, int from, int to) {
        int[] out = new int[to - from];
        int n = 0;
        for (int i = from; i < to; ) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                out[n++] = c;
                i++;
                continue;
            }
            int len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
            if (len == 0 || i + len > to) {
                return null;
            }
            int cp = len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
            for (int k = 1; k < len; k++) {
                int cc = b[i + k] & 0xff;
                if ((cc & 0xc0) != 0x80) {
                    return null;
                }
                cp = (cp << 6) | (cc & 0x3f);
            }
            if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff)) {
                return null;
            }
            out[n++] = cp;
            i += len;
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    private static int at(int[] p, int i) {
        return i < p.length ? p[i] : 0;
    }

    private int fold(int c, boolean wide) {
        if (!fold) {
            return c;
        }
        return wide ? Character.toLowerCase(c) : c >= 'A' && c <= 'Z' ? c + 32 : c;
    }

    /** glibc's internal_fnmatch, step for step, over {@code p} from {@code pi} and {@code s} from {@code si}. */
    private boolean match(int[] p, int pi, int[] s, int si, boolean wide) {
        int c;
        while ((c = at(p, pi++)) != 0) {
            c = fold(c, wide);
            switch (c) {
                case '?' -> {
                    if (si == s.length) {
                        return false;
                    }
                }
                case '\\' -> {
                    c = at(p, pi++);
                    if (c == 0) {
                        return false; // trailing \ loses
                    }
                    c = fold(c, wide);
                    if (si == s.length || fold(s[si], wide) != c) {
                        return false;
                    }
                }
                case '*' -> {
                    for (c = at(p, pi++); c == '?' || c == '*'; c = at(p, pi++)) {
                        if (c == '?') {
                            if (si == s.length) {
                                return false;
                            }
                            si++;
                        }
                    }
                    if (c == 0) {
                        return true;
                    }
                    if (c == '[') {
                        for (--pi; si < s.length; si++) {
                            if (match(p, pi, s, si, wide)) {
                                return true;
                            }
                        }
                    } else {
                        if (c == '\\') {
                            c = at(p, pi);
                        }
                        c = fold(c, wide);
                        for (--pi; si < s.length; si++) {
                            if (fold(s[si], wide) == c && match(p, pi, s, si, wide)) {
                                return true;
                            }
                        }
                    }
                    return false;
                }
                case '[' -> {
                    int r = bracket(p, pi, s, si, wide);
                    if (r == NO) {
                        return false;
                    }
                    if (r == LITERAL) {
                        if (si == s.length || '[' != fold(s[si], wide)) {
                            return false;
                        }
                    } else {
                        pi = r;
                    }
                }
                default -> {
                    if (si == s.length || c != fold(s[si], wide)) {
                        return false;
                    }
                }
            }
            si++;
        }
        return si == s.length;
    }

    private static final int NO = -1, LITERAL = -2;

    /**
     * The bracket expression whose {@code [} is just before {@code pi}, against {@code s[si]}: the
     * pattern index after it when it matches, {@link #NO}, or {@link #LITERAL} when it is not closed
     * (the {@code [} is then an ordinary character).
     */
    private int bracket(int[] p, int pi, int[] s, int si, boolean wide) {
        if (si == s.length) {
            return NO;
        }
        boolean not = at(p, pi) == '!' || (caretNegates && at(p, pi) == '^');
        if (not) {
            pi++;
        }
        int n = s[si];
        int fn = fold(n, wide);
        int c = at(p, pi++);
        boolean matched = false;
        scan:
        for (;;) {
            int cold;
            boolean normal = false, handled = false;
            if (c == '\\') {
                if (at(p, pi) == 0) {
                    return NO;
                }
                c = fold(at(p, pi), wide);
                pi++;
                normal = true;
            } else if (c == '[' && at(p, pi) == ':') {
                StringBuilder name = new StringBuilder();
                int startp = pi;
                for (;;) {
                    if (name.length() == CHAR_CLASS_MAX_LENGTH) {
                        return NO;
                    }
                    c = at(p, ++pi);
                    if (c == ':' && at(p, pi + 1) == ']') {
                        pi += 2;
                        break;
                    }
                    if (c < 'a' || c >= 'z') {
                        // cannot be a class name: an ordinary [
                        pi = startp;
                        c = '[';
                        normal = true;
                        break;
                    }
                    name.append((char) c);
                }
                if (!normal) {
                    Boolean in = inClass(name.toString(), n, wide);
                    if (in == null) {
                        return NO; // an unknown class name spoils the whole pattern
                    }
                    if (in) {
                        matched = true;
                        break scan;
                    }
                    c = at(p, pi++);
                    handled = true;
                }
            } else if (c == '[' && at(p, pi) == '=') {
                int startp = pi;
                int eq = at(p, pi + 1);
                if (eq == 0 || at(p, pi + 2) != '=' || at(p, pi + 3) != ']') {
                    pi = startp;
                    c = '[';
                    normal = true;
                } else {
                    pi += 4;
                    if (n == eq) { // no collation rules in C and C.UTF-8: a class of one
                        matched = true;
                        break scan;
                    }
                    c = at(p, pi++);
                    handled = true;
                }
            } else if (c == 0) {
                return LITERAL;
            }
            if (!handled) {
                if (!normal && c == '[' && at(p, pi) == '.') {
                    int startp = pi;
                    int len = 0;
                    for (;;) {
                        c = at(p, ++pi);
                        if (c == '.' && at(p, pi + 1) == ']') {
                            pi += 2;
                            break;
                        }
                        if (c == 0) {
                            return NO;
                        }
                        len++;
                    }
                    if (len != 1) {
                        return NO;
                    }
                    boolean isRange = at(p, pi) == '-' && at(p, pi + 1) != 0;
                    if (!isRange && n == p[startp + 1]) {
                        matched = true;
                        break scan;
                    }
                    cold = p[startp + 1];
                    c = at(p, pi++);
                } else {
                    if (!normal) {
                        c = fold(c, wide);
                    }
                    boolean isRange = at(p, pi) == '-' && at(p, pi + 1) != 0 && at(p, pi + 1) != ']';
                    if (!isRange && c == fn) {
                        matched = true;
                        break scan;
                    }
                    cold = c;
                    c = at(p, pi++);
                }
                if (c == '-' && at(p, pi) != ']') {
                    int cend = at(p, pi++);
                    if (cend == '[' && at(p, pi) == '.') {
                        int startp = pi;
                        int len = 0;
                        for (;;) {
                            int cc = at(p, ++pi);
                            if (cc == '.' && at(p, pi + 1) == ']') {
                                pi += 2;
                                break;
                            }
                            if (cc == 0) {
                                return NO;
                            }
                            len++;
                        }
                        if (len != 1) {
                            return NO;
                        }
                        cend = p[startp + 1];
                    } else {
                        if (cend == '\\') {
                            cend = at(p, pi++);
                        }
                        if (cend == 0) {
                            return NO;
                        }
                        cend = fold(cend, wide);
                    }
                    if (wide ? inWideRange(cold, fn, cend) : cold <= fn && fn <= cend) {
                        matched = true;
                        break scan;
                    }
                    c = at(p, pi++);
                }
            }
            if (c == ']') {
                break;
            }
        }
        if (!matched) {
            return not ? pi : NO;
        }
        // skip the rest of the bracket that already matched
        do {
            c = at(p, pi++);
            if (c == 0) {
                return NO;
            }
            if (c == '\\') {
                if (at(p, pi) == 0) {
                    return NO;
                }
                pi++;
            } else if (c == '[' && at(p, pi) == ':') {
                int len = 0;
                int startp = pi;
                boolean reset = false;
                for (;;) {
                    c = at(p, ++pi);
                    if (++len == CHAR_CLASS_MAX_LENGTH) {
                        return NO;
                    }
                    if (at(p, pi) == ':' && at(p, pi + 1) == ']') {
                        break;
                    }
                    if (c < 'a' || c >= 'z') {
                        pi = startp;
                        reset = true;
                        break;
                    }
                }
                if (!reset) {
                    pi += 2;
                    c = at(p, pi++);
                }
            } else if (c == '[' && at(p, pi) == '=') {
                c = at(p, ++pi);
                if (c == 0) {
                    return NO;
                }
                c = at(p, ++pi);
                if (c != '=' || at(p, pi + 1) != ']') {
                    return NO;
                }
                pi += 2;
                c = at(p, pi++);
            } else if (c == '[' && at(p, pi) == '.') {
                ++pi;
                for (;;) {
                    c = at(p, ++pi);
                    if (c == 0) {
                        return NO;
                    }
                    if (at(p, pi) == '.' && at(p, pi + 1) == ']') {
                        break;
                    }
                }
                pi += 2;
                c = at(p, pi++);
            }
        } while (c != ']');
        return not ? NO : pi;
    }

    /**
     * glibc's range test between characters, which compares collation sequence values: in
     * C.UTF-8 only U+0000 to U+00FF have one (their code point). A character above U+00FF is in
     * no range; a range that starts above it matches nothing; one that ends above it matches
     * only its first character ({@code [à-ž]} matches {@code à} alone, as glibc 2.36 does).
     */
    private static boolean inWideRange(int lo, int c, int hi) {
        if (c > 0xff || lo > 0xff) {
            return false;
        }
        return hi > 0xff ? c == lo : lo <= c && c <= hi;
    }

    /** Whether {@code c} is in the class, or null for a name that is no class. Bytes: C locale; characters: Unicode. */
    private static Boolean inClass(String cls, int c, boolean wide) {
        boolean known = switch (cls) {
            case "alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl", "xdigit" -> true;
            default -> false;
        };
        if (!known) {
            return null;
        }
        if (!wide && c >= 0x80) {
            return false;
        }
        boolean letter = c < 0x80 ? (c | 32) >= 'a' && (c | 32) <= 'z' : Character.isLetter(c);
        boolean digit = c >= '0' && c <= '9';
        boolean cntrl = c < 32 || c == 127 || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029;
        boolean space = c == ' ' || (c >= 9 && c <= 13) || (c >= 0x80 && Character.isWhitespace(c));
        boolean print = !cntrl && (c < 0x80 || (Character.getType(c) != Character.UNASSIGNED && Character.getType(c) != Character.SURROGATE));
        return switch (cls) {
            case "alpha" -> letter || (c >= 0x80 && Character.isDigit(c));
            case "digit" -> digit;
            case "alnum" -> letter || digit || (c >= 0x80 && Character.isDigit(c));
            case "upper" -> c < 0x80 ? c >= 'A' && c <= 'Z' : Character.isUpperCase(c);
            case "lower" -> c < 0x80 ? c >= 'a' && c <= 'z' : Character.isLowerCase(c);
            case "space" -> space;
            case "blank" -> c == ' ' || c == '\t' || (c >= 0x80 && Character.getType(c) == Character.SPACE_SEPARATOR && c != 0xa0 && c != 0x2007 && c != 0x202f);
            case "punct" -> print && !space && !letter && !digit && !(c >= 0x80 && Character.isDigit(c)) && c != ' ';
            case "print" -> print;
            case "graph" -> print && !space;
            case "cntrl" -> cntrl;
            default -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        };
    }
}
