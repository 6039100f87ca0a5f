package dev.brisk.find.internal;

/**
 * A shell pattern ({@code fnmatch(3)} without flags) matched against bytes: {@code *}, {@code ?},
 * bracket expressions with ranges, negation ({@code !} or {@code ^}) and POSIX classes, and
 * backslash escapes. A {@code *} matches {@code /} and a leading dot, as find's {@code -name} and
 * {@code -path} want. Optionally ASCII case-insensitive. Immutable and thread-safe.
 */
final class Glob {
    private final byte[] pattern;
    private final boolean fold;

    Glob(byte[] pattern, boolean fold) {
        this.pattern = pattern;
        this.fold = fold;
    }

    boolean matches(byte[] s, int from, int to) {
        byte[] p = pattern;
        int pi = 0, si = from, starP = -1, starS = -1;
        while (si < to) {
            if (pi < p.length) {
                byte c = p[pi];
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
                        if (bracketMatches(pi + 1, end, s[si] & 0xff)) {
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

    private boolean same(byte a, byte b) {
        return a == b || (fold && lower(a) == lower(b));
    }

    private static int lower(int c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c & 0xff;
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
            int lo = pattern[i] & 0xff;
            if (lo == '[' && i + 1 < end && pattern[i + 1] == ':') {
                int close = indexOf(":]", i + 2);
                if (close > 0 && close < end) {
                    String cls = new String(pattern, i + 2, close - i - 2, java.nio.charset.StandardCharsets.US_ASCII);
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
                lo = pattern[++i] & 0xff;
            }
            int hi = lo;
            if (i + 2 < end && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
                hi = pattern[i + 2] & 0xff;
                if (hi == '\\' && i + 3 < end) {
                    hi = pattern[i + 3] & 0xff;
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

    private static int upper(int c) {
        return c >= 'a' && c <= 'z' ? c - 32 : c;
    }

    private static boolean inClass(String cls, int c) {
        return switch (cls) {
            case "alpha" -> Character.isLetter(c) && c < 128;
            case "digit" -> c >= '0' && c <= '9';
            case "alnum" -> c < 128 && Character.isLetterOrDigit(c);
            case "upper" -> c >= 'A' && c <= 'Z';
            case "lower" -> c >= 'a' && c <= 'z';
            case "space" -> c == ' ' || (c >= 9 && c <= 13);
            case "blank" -> c == ' ' || c == '\t';
            case "punct" -> c > 32 && c < 127 && !Character.isLetterOrDigit(c);
            case "print" -> c >= 32 && c < 127;
            case "graph" -> c > 32 && c < 127;
            case "cntrl" -> c < 32 || c == 127;
            case "xdigit" -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            default -> false;
        };
    }
}
