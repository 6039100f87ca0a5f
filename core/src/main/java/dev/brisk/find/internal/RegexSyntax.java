// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.util.regex.Pattern;

/**
 * find's regular expressions, {@code -regextype} by {@code -regextype}, as glibc's regex reads
 * them (GNU find 4.9 compiles with {@code re_compile_pattern} under the type's syntax bits):
 * each type is a set of gnulib's {@code RE_*} bits, and one parser after glibc's
 * {@code peek_token}/{@code parse_expression} reads the expression under them into a
 * {@code java.util.regex} pattern, or refuses it with glibc's message ({@code Unmatched ( or
 * \(}, {@code Invalid preceding regular expression}, ...). The whole path must match. Names are
 * bytes read as ISO-8859-1, so classes are the C locale's. Stateless; a {@link #compile} per
 * expression.
 *
 * <p>Over 300 lines because it is glibc's grammar in one place: the token rules, the
 * context rules for anchors and repetitions, intervals and bracket expressions.
 */
final class RegexSyntax {
    // gnulib's regex.h bits, in its order
    private static final int BACKSLASH_ESCAPE_IN_LISTS = 1, BK_PLUS_QM = 1 << 1, CHAR_CLASSES = 1 << 2,
            CONTEXT_INDEP_ANCHORS = 1 << 3, CONTEXT_INDEP_OPS = 1 << 4, CONTEXT_INVALID_OPS = 1 << 5, DOT_NEWLINE = 1 << 6,
            DOT_NOT_NULL = 1 << 7, INTERVALS = 1 << 9, LIMITED_OPS = 1 << 10, NEWLINE_ALT = 1 << 11,
            NO_BK_BRACES = 1 << 12, NO_BK_PARENS = 1 << 13, NO_BK_REFS = 1 << 14, NO_BK_VBAR = 1 << 15,
            NO_EMPTY_RANGES = 1 << 16, UNMATCHED_RIGHT_PAREN_ORD = 1 << 17, NO_GNU_OPS = 1 << 19,
            INVALID_INTERVAL_ORD = 1 << 21, CONTEXT_INVALID_DUP = 1 << 24;
    private static final int POSIX_COMMON = CHAR_CLASSES | DOT_NEWLINE | DOT_NOT_NULL | INTERVALS | NO_EMPTY_RANGES,
            POSIX_BASIC = POSIX_COMMON | BK_PLUS_QM | CONTEXT_INVALID_DUP,
            POSIX_EXTENDED = POSIX_COMMON | CONTEXT_INDEP_ANCHORS | CONTEXT_INDEP_OPS | NO_BK_BRACES | NO_BK_PARENS
                    | NO_BK_VBAR | CONTEXT_INVALID_OPS | UNMATCHED_RIGHT_PAREN_ORD,
            EGREP = (POSIX_EXTENDED | INVALID_INTERVAL_ORD | NEWLINE_ALT) & ~(CONTEXT_INVALID_OPS | DOT_NOT_NULL);
    private static final int RE_DUP_MAX = 0x7fff;
    private static final String WORD = "[\\p{Alnum}_]";

    /** GNU find 4.9's -regextype names, in the order its message lists them. */
    static final java.util.List<String> TYPES = java.util.List.of("findutils-default", "ed", "emacs", "gnu-awk", "grep",
            "posix-awk", "awk", "posix-basic", "posix-egrep", "egrep", "posix-extended", "posix-minimal-basic", "sed");

    private RegexSyntax() {}

    /** The syntax bits of -regextype {@code type} (findutils' regextype.c), or -1 if find knows no such type. */
    static int syntax(String type) {
        return switch (type) {
            case "findutils-default" -> DOT_NEWLINE;
            case "emacs" -> 0;
            case "ed", "sed", "posix-basic" -> POSIX_BASIC;
            case "grep" -> (POSIX_BASIC | NEWLINE_ALT) & ~(CONTEXT_INVALID_DUP | DOT_NOT_NULL);
            case "egrep", "posix-egrep" -> EGREP;
            case "posix-extended" -> POSIX_EXTENDED;
            case "posix-minimal-basic" -> POSIX_COMMON | LIMITED_OPS;
            case "awk" -> BACKSLASH_ESCAPE_IN_LISTS | DOT_NOT_NULL | NO_BK_PARENS | NO_BK_REFS | NO_BK_VBAR | NO_EMPTY_RANGES
                    | DOT_NEWLINE | CONTEXT_INDEP_ANCHORS | CHAR_CLASSES | UNMATCHED_RIGHT_PAREN_ORD | NO_GNU_OPS;
            case "gnu-awk" -> (POSIX_EXTENDED | BACKSLASH_ESCAPE_IN_LISTS | INVALID_INTERVAL_ORD)
                    & ~(DOT_NOT_NULL | CONTEXT_INDEP_OPS | CONTEXT_INVALID_OPS);
            case "posix-awk" -> POSIX_EXTENDED | BACKSLASH_ESCAPE_IN_LISTS | INTERVALS | NO_GNU_OPS | INVALID_INTERVAL_ORD;
            default -> -1;
        };
    }

    /**
     * {@code re} (bytes as ISO-8859-1 characters) under {@code syntax}, folding case if asked;
     * an invalid one throws with glibc's message ({@code Unmatched [, [^, [:, [., or [=}).
     */
    static Pattern compile(String re, int syntax, boolean fold) {
        Reader r = new Reader(re, syntax);
        String java = r.regex();
        return Pattern.compile(java, fold ? Pattern.CASE_INSENSITIVE : 0);
    }

    /** Token kinds, as glibc's. */
    private enum Kind { CHAR, ANY, BRACKET, BACKREF, CLASS, ANCHOR, OPEN, CLOSE, ALT, STAR, PLUS, QUESTION, OPEN_DUP, CLOSE_DUP,
        BACKSLASH, END }

    /** One expression's reader: glibc's recursive descent, writing the Java pattern as it goes. */
    private static final class Reader {
        private final String s;
        private final int syntax;
        private int pos;
        /** The current token: its kind, its start and length, its character or Java text. */
        private Kind kind;
        private int start, length;
        private char ch;
        private String text;
        private int groups;
        /** The groups closed so far (bit N: group N): a back reference may only name one of them. */
        private long completed;

        Reader(String s, int syntax) {
            this.s = s;
            this.syntax = syntax;
        }

        private boolean has(int bit) {
            return (syntax & bit) != 0;
        }

        String regex() {
            next(true);
            String r = alternation(0);
            if (kind != Kind.END) {
                throw new IllegalArgumentException("Invalid regular expression");
            }
            return r;
        }

        /** Reads the token at {@link #pos} (glibc's peek_token); {@code caretHere}: a ^ here is an anchor. */
        private void next(boolean caretHere) {
            start = pos;
            length = 1;
            text = null;
            if (pos >= s.length()) {
                kind = Kind.END;
                length = 0;
                return;
            }
            char c = s.charAt(pos);
            ch = c;
            kind = Kind.CHAR;
            if (c == '\\') {
                if (pos + 1 >= s.length()) {
                    kind = Kind.BACKSLASH;
                    return;
                }
                char d = s.charAt(pos + 1);
                ch = d;
                length = 2;
                boolean gnu = !has(NO_GNU_OPS);
                switch (d) {
                    case '|' -> kind = !has(LIMITED_OPS) && !has(NO_BK_VBAR) ? Kind.ALT : Kind.CHAR;
                    case '1', '2', '3', '4', '5', '6', '7', '8', '9' -> kind = !has(NO_BK_REFS) ? Kind.BACKREF : Kind.CHAR;
                    case '<' -> anchor(gnu, "(?<!" + WORD + ")(?=" + WORD + ")");
                    case '>' -> anchor(gnu, "(?<=" + WORD + ")(?!" + WORD + ")");
                    case 'b' -> anchor(gnu, "(?:(?<=" + WORD + ")(?!" + WORD + ")|(?<!" + WORD + ")(?=" + WORD + "))");
                    case 'B' -> anchor(gnu, "(?:(?<=" + WORD + ")(?=" + WORD + ")|(?<!" + WORD + ")(?!" + WORD + "))");
                    case '`' -> anchor(gnu, "\\A");
                    case '\'' -> anchor(gnu, "\\z");
                    case 'w' -> charClass(gnu, WORD);
                    case 'W' -> charClass(gnu, "[^\\p{Alnum}_]");
                    case 's' -> charClass(gnu, "\\p{Space}");
                    case 'S' -> charClass(gnu, "\\P{Space}");
                    case '(' -> kind = !has(NO_BK_PARENS) ? Kind.OPEN : Kind.CHAR;
                    case ')' -> kind = !has(NO_BK_PARENS) ? Kind.CLOSE : Kind.CHAR;
                    case '+' -> kind = !has(LIMITED_OPS) && has(BK_PLUS_QM) ? Kind.PLUS : Kind.CHAR;
                    case '?' -> kind = !has(LIMITED_OPS) && has(BK_PLUS_QM) ? Kind.QUESTION : Kind.CHAR;
                    case '{' -> kind = has(INTERVALS) && !has(NO_BK_BRACES) ? Kind.OPEN_DUP : Kind.CHAR;
                    case '}' -> kind = has(INTERVALS) && !has(NO_BK_BRACES) ? Kind.CLOSE_DUP : Kind.CHAR;
                    default -> kind = Kind.CHAR;
                }
                return;
            }
            switch (c) {
                case '\n' -> kind = has(NEWLINE_ALT) ? Kind.ALT : Kind.CHAR;
                case '|' -> kind = !has(LIMITED_OPS) && has(NO_BK_VBAR) ? Kind.ALT : Kind.CHAR;
                case '*' -> kind = Kind.STAR;
                case '+' -> kind = !has(LIMITED_OPS) && !has(BK_PLUS_QM) ? Kind.PLUS : Kind.CHAR;
                case '?' -> kind = !has(LIMITED_OPS) && !has(BK_PLUS_QM) ? Kind.QUESTION : Kind.CHAR;
                case '{' -> kind = has(INTERVALS) && has(NO_BK_BRACES) ? Kind.OPEN_DUP : Kind.CHAR;
                case '}' -> kind = has(INTERVALS) && has(NO_BK_BRACES) ? Kind.CLOSE_DUP : Kind.CHAR;
                case '(' -> kind = has(NO_BK_PARENS) ? Kind.OPEN : Kind.CHAR;
                case ')' -> kind = has(NO_BK_PARENS) ? Kind.CLOSE : Kind.CHAR;
                case '[' -> kind = Kind.BRACKET;
                case '.' -> kind = Kind.ANY;
                case '^' -> {
                    boolean anchor = has(CONTEXT_INDEP_ANCHORS) || caretHere || pos == 0
                            || (has(NEWLINE_ALT) && s.charAt(pos - 1) == '\n');
                    if (anchor) {
                        kind = Kind.ANCHOR;
                        text = "\\A";
                    }
                }
                case '$' -> {
                    boolean anchor = has(CONTEXT_INDEP_ANCHORS) || pos + 1 == s.length();
                    if (!anchor) {
                        int save = pos;
                        pos++;
                        next(false);
                        anchor = kind == Kind.ALT || kind == Kind.CLOSE;
                        pos = save;
                        start = save;
                        length = 1;
                        ch = '$';
                        text = null;
                    }
                    kind = anchor ? Kind.ANCHOR : Kind.CHAR;
                    if (anchor) {
                        text = "\\z";
                    }
                }
                default -> kind = Kind.CHAR;
            }
        }

        private void anchor(boolean gnu, String java) {
            kind = gnu ? Kind.ANCHOR : Kind.CHAR;
            text = gnu ? java : null;
        }

        private void charClass(boolean gnu, String java) {
            kind = gnu ? Kind.CLASS : Kind.CHAR;
            text = gnu ? java : null;
        }

        /** Moves past the current token and reads the next. */
        private void advance(boolean caretHere) {
            pos = start + length;
            next(caretHere);
        }

        /** glibc's parse_reg_exp: branches separated by alternation, up to END (or CLOSE inside a group). */
        private String alternation(int nest) {
            StringBuilder out = new StringBuilder(branch(nest));
            while (kind == Kind.ALT) {
                advance(true);
                out.append('|');
                if (kind != Kind.ALT && kind != Kind.END && (nest == 0 || kind != Kind.CLOSE)) {
                    out.append(branch(nest));
                }
            }
            return out.toString();
        }

        /** glibc's parse_branch. */
        private String branch(int nest) {
            StringBuilder out = new StringBuilder();
            while (kind != Kind.ALT && kind != Kind.END && (nest == 0 || kind != Kind.CLOSE)) {
                out.append(expression(nest));
            }
            return out.toString();
        }

        /** glibc's parse_expression: an atom and its repetitions. */
        private String expression(int nest) {
            String atom;
            switch (kind) {
                case CHAR -> {
                    atom = literal(ch);
                    advance(false);
                }
                case ANY -> {
                    atom = has(DOT_NEWLINE) ? "(?s:.)" : "[^\\n]";
                    advance(false);
                }
                case CLASS -> {
                    atom = text;
                    advance(false);
                }
                case BRACKET -> {
                    pos = start + 1;
                    atom = bracket();
                    next(false);
                }
                case BACKREF -> {
                    int n = ch - '0';
                    if ((completed & (1L << n)) == 0) {
                        throw new IllegalArgumentException("Invalid back reference");
                    }
                    atom = "(?:\\" + n + ")";
                    advance(false);
                }
                case OPEN -> {
                    int group = ++groups;
                    advance(true);
                    String inner = kind == Kind.CLOSE ? "" : alternation(nest + 1);
                    if (kind != Kind.CLOSE) {
                        throw new IllegalArgumentException("Unmatched ( or \\(");
                    }
                    if (group < 64) {
                        completed |= 1L << group;
                    }
                    atom = "(" + inner + ")";
                    advance(false);
                }
                case ANCHOR -> {
                    // no repetition applies to an anchor: a * after one starts a new expression
                    String a = text;
                    advance(false);
                    return a;
                }
                case BACKSLASH -> throw new IllegalArgumentException("Trailing backslash");
                case OPEN_DUP, STAR, PLUS, QUESTION -> {
                    if (kind == Kind.OPEN_DUP && has(CONTEXT_INVALID_DUP)) {
                        throw new IllegalArgumentException("Invalid preceding regular expression");
                    }
                    if (has(CONTEXT_INVALID_OPS) && !has(CONTEXT_INVALID_DUP)) {
                        throw new IllegalArgumentException("Invalid preceding regular expression");
                    }
                    if (has(CONTEXT_INDEP_OPS)) {
                        advance(false);
                        return kind == Kind.END || kind == Kind.ALT || (nest > 0 && kind == Kind.CLOSE) ? "" : expression(nest);
                    }
                    atom = literal(ch);
                    advance(false);
                }
                case CLOSE -> {
                    if (!has(UNMATCHED_RIGHT_PAREN_ORD)) {
                        throw new IllegalArgumentException("Unmatched ) or \\)");
                    }
                    atom = literal(ch);
                    advance(false);
                }
                case CLOSE_DUP -> {
                    atom = literal(ch);
                    advance(false);
                }
                default -> throw new IllegalArgumentException("Invalid regular expression");
            }
            while (kind == Kind.STAR || kind == Kind.PLUS || kind == Kind.QUESTION || kind == Kind.OPEN_DUP) {
                String dup = repetition();
                if (dup == null) {
                    break; // an interval read as plain characters (RE_INVALID_INTERVAL_ORD): the token is now a CHAR
                }
                atom = "(?:" + atom + ")" + dup;
                if (has(CONTEXT_INVALID_DUP) && (kind == Kind.STAR || kind == Kind.OPEN_DUP)) {
                    throw new IllegalArgumentException("Invalid preceding regular expression"); // BRE: a** is refused
                }
            }
            return atom;
        }

        /**
         * glibc's parse_dup_op: the Java quantifier of the repetition at the current token, the
         * next token read; null where an invalid interval is taken as plain characters.
         */
        private String repetition() {
            if (kind != Kind.OPEN_DUP) {
                String q = kind == Kind.STAR ? "*" : kind == Kind.PLUS ? "+" : "?";
                advance(false);
                return q;
            }
            int open = start;
            advance(false);
            int[] min = number();
            int lo = min[0], hi;
            if (lo == -1) {
                if (kind == Kind.CHAR && ch == ',') {
                    lo = 0; // {,n} is {0,n}
                } else if (kind == Kind.END || !has(INVALID_INTERVAL_ORD)) {
                    throw new IllegalArgumentException(kind == Kind.END ? "Unmatched \\{" : "Invalid content of \\{\\}");
                }
            }
            hi = -2;
            if (lo != -2) {
                if (kind == Kind.CLOSE_DUP) {
                    hi = lo;
                } else if (kind == Kind.CHAR && ch == ',') {
                    advance(false);
                    hi = number()[0];
                }
            }
            if (lo == -2 || hi == -2) {
                if (!has(INVALID_INTERVAL_ORD)) {
                    throw new IllegalArgumentException(kind == Kind.END ? "Unmatched \\{" : "Invalid content of \\{\\}");
                }
                pos = open; // the brace is a plain character after all
                next(false);
                kind = Kind.CHAR;
                return null;
            }
            if ((hi != -1 && lo > hi) || kind != Kind.CLOSE_DUP) {
                throw new IllegalArgumentException("Invalid content of \\{\\}");
            }
            if ((hi == -1 ? lo : hi) > RE_DUP_MAX) {
                throw new IllegalArgumentException("Regular expression too big");
            }
            advance(false);
            return hi == -1 ? "{" + lo + ",}" : "{" + lo + "," + hi + "}";
        }

        /**
         * glibc's fetch_number: digits up to a comma or the interval's end (the current token is
         * then that one); -1 for none, -2 for anything else or the end of the expression.
         */
        private int[] number() {
            int n = -1;
            while (true) {
                if (kind == Kind.END) {
                    return new int[] {-2};
                }
                if (kind == Kind.CLOSE_DUP || ch == ',') {
                    return new int[] {n};
                }
                n = kind != Kind.CHAR || ch < '0' || ch > '9' || n == -2 ? -2
                        : n == -1 ? ch - '0' : Math.min(RE_DUP_MAX + 1, n * 10 + ch - '0');
                advance(false);
            }
        }

        /** glibc's parse_bracket_exp from just after the {@code [}; leaves {@link #pos} after the {@code ]}. */
        private String bracket() {
            StringBuilder set = new StringBuilder();
            boolean negate = false;
            if (pos < s.length() && s.charAt(pos) == '^') {
                negate = true;
                pos++;
            }
            boolean first = true;
            while (true) {
                if (pos >= s.length()) {
                    throw unmatchedBracket();
                }
                if (!first && s.charAt(pos) == ']') {
                    pos++;
                    break;
                }
                int[] from = element(first);
                first = false;
                if (from[0] == -2) {
                    set.append(className(from[1]));
                    continue;
                }
                if (pos >= s.length()) {
                    throw unmatchedBracket();
                }
                if (s.charAt(pos) == '-' && from[0] != -3) {
                    if (pos + 1 >= s.length()) {
                        throw unmatchedBracket();
                    }
                    if (s.charAt(pos + 1) != ']') {
                        pos++;
                        int[] to = element(true);
                        if (to[0] < 0) {
                            throw new IllegalArgumentException("Invalid range end");
                        }
                        if (from[0] > to[0]) {
                            if (has(NO_EMPTY_RANGES)) {
                                throw new IllegalArgumentException("Invalid range end");
                            }
                        } else {
                            set.append(hex(from[0])).append('-').append(hex(to[0]));
                        }
                        continue;
                    }
                }
                set.append(hex(from[1]));
            }
            if (set.isEmpty()) {
                return negate ? "(?s:.)" : "(?!)";
            }
            return (negate ? "[^" : "[") + set + "]";
        }

        /**
         * One element of a bracket expression at {@link #pos}, read past: {c, c} for a character
         * c, {-2, class index} for {@code [:name:]}, {-3, c} for an equivalence class (no range).
         */
        private int[] element(boolean acceptHyphen) {
            char c = s.charAt(pos);
            if (c == '[' && pos + 1 < s.length()) {
                char d = s.charAt(pos + 1);
                if (d == '.' || d == '=' || (d == ':' && has(CHAR_CLASSES))) {
                    int close = s.indexOf(d + "]", pos + 2);
                    if (close < 0) {
                        throw unmatchedBracket();
                    }
                    String name = s.substring(pos + 2, close);
                    pos = close + 2;
                    if (d == ':') {
                        int k = CLASSES.indexOf(name);
                        if (name.isEmpty() || name.contains(" ") || k < 0 || k % 8 != 0) {
                            throw new IllegalArgumentException("Invalid character class name");
                        }
                        return new int[] {-2, k / 8};
                    }
                    if (name.length() != 1) {
                        throw new IllegalArgumentException("Invalid collation character");
                    }
                    return new int[] {d == '=' ? -3 : name.charAt(0), name.charAt(0)};
                }
            }
            if (c == '\\' && has(BACKSLASH_ESCAPE_IN_LISTS) && pos + 1 < s.length()) {
                pos += 2;
                return new int[] {s.charAt(pos - 1), s.charAt(pos - 1)};
            }
            if (c == '-' && !acceptHyphen && pos + 1 < s.length() && s.charAt(pos + 1) != ']') {
                throw new IllegalArgumentException("Invalid range end");
            }
            pos++;
            return new int[] {c, c};
        }

        private IllegalArgumentException unmatchedBracket() {
            return new IllegalArgumentException("Unmatched [, [^, [:, [., or [=");
        }
    }

    /** The class names, each in 8 characters, in the order of {@link #JAVA_CLASSES}. */
    private static final String CLASSES = "alpha   upper   lower   digit   xdigit  space   print   punct   graph   cntrl   blank   "
            + "alnum   ";
    private static final String[] JAVA_CLASSES = {"Alpha", "Upper", "Lower", "Digit", "XDigit", "Space", "Print", "Punct",
        "Graph", "Cntrl", "Blank", "Alnum"};

    private static String className(int index) {
        return "\\p{" + JAVA_CLASSES[index] + "}";
    }

    private static String hex(int c) {
        return "\\x{" + Integer.toHexString(c) + "}";
    }

    /** A character matched as itself (letters as they are, so that case folding applies to them). */
    private static String literal(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ? String.valueOf(c) : hex(c);
    }
}
