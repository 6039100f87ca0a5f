// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PathCalls;
import dev.brisk.walk.Backend;
import dev.brisk.walk.FileStat;
import dev.brisk.walk.Order;
import dev.brisk.walk.SymlinkMode;
import dev.brisk.walk.WalkOptions;
import dev.brisk.walk.Walker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Parses a find command line, {@code [-H|-L|-P] [ROOT...] [EXPRESSION]}, into a {@link Plan},
 * with POSIX find's grammar: {@code ( )}, {@code !}/{@code -not}, implicit or explicit
 * {@code -a}, {@code -o}, {@code ,}. Errors are {@link UsageError}s worded as GNU find words
 * them. Arguments are bytes; only option names are compared as ASCII. Not thread-safe.
 *
 * <p>Over 500 lines because it is find's whole grammar (options, tests, actions, operators, with
 * GNU's messages): each word is looked up in {@link Primary}, find's parse table, and the parser
 * switches on the row it names.
 */
public final class Parser {
    private static final byte[] SEMICOLON = {';'}, PLUS = {'+'};
    private static final long DAY = 86_400;
    private final List<byte[]> args;
    private int pos;
    private SymlinkMode symlinks = SymlinkMode.PHYSICAL;
    private int maxDepth = Integer.MAX_VALUE, minDepth = 0, threads = 0;
    private boolean postOrder, debug, sameFileSystem;
    /** For -delete's checks: it turns -depth on, where -prune does nothing unless -depth was asked for. */
    private boolean deleteSeen, pruneSeen, depthGiven;
    /** The files of -fprint and its kin, each opened once per file (by device and inode), in the order first named. */
    private final List<FileOutput> files = new ArrayList<>();
    private final List<Predicates.XType> xtypes = new ArrayList<>();
    private Backend backend = Backend.AUTO;
    /** The syntax of -regex and -iregex, as -regextype last set it (GNU's findutils-default to begin with). */
    private int regexSyntax = RegexSyntax.syntax("findutils-default");
    /**
     * The time ages count from, as GNU find keeps it: when find started, or after -daystart the
     * midnight that starts today (local time) plus 24 hours.
     */
    private long nowSec, nowNsec;
    /** Column widths shared by every -ls and -fls; made on first use (ListLine loads time zones). */
    private int[] lsWidths;
    private boolean dayStart;
    /** The caller's time zone ({@link TimeZones}), looked up on first use: loading zones costs a cold JVM milliseconds. */
    private java.time.ZoneId zone;
    /** What runs -exec and its kin, made with the first of them. */
    private ExecRunner runner;
    private final List<String> warnings = new ArrayList<>();
    /** -files0-from's file, and whether an -ok/-okdir would read the same standard input. */
    private byte[] files0;
    private boolean okSeen;
    /** Errors GNU find reports and walks on (a zero-length name in -files0-from's list): status 1 at the end. */
    private final List<String> errors = new ArrayList<>();

    /** The name of the last word of the expression read (for GNU's hint after a stray path). */
    private String lastPredicate = "(";
    /** The first word of the expression that is no option, for GNU's warning about a global option after it. */
    private String firstNonOption;
    private Boolean warn;
    /** The expression as GNU find lists it before building its tree; {@link #next} is the build's position. */
    private final List<Token> tokens = new ArrayList<>();
    private int next;

    private Parser(List<byte[]> args) {
        this.args = args;
        java.time.Instant start = java.time.Instant.now();
        nowSec = start.getEpochSecond();
        nowNsec = start.getNano();
    }

    /** Parses {@code args} (everything after {@code find}). */
    static Plan parse(List<byte[]> args) throws UsageError, DebugHelp {
        Parser p = new Parser(args);
        boolean done = false;
        try {
            Plan plan = p.plan();
            done = true;
            return plan;
        } catch (UsageError e) {
            if (p.warnings.isEmpty()) {
                throw e;
            }
            // GNU prints the warnings of what it read before the error, then the error
            throw UsageError.of(String.join("\nfind: ", p.warnings) + "\nfind: ", e.bytes());
        } finally {
            if (!done) {
                p.files.forEach(FileOutput::close); // a long-lived server keeps no descriptor of a failed call
            }
        }
    }

    private Plan plan() throws UsageError, DebugHelp {
        flags:
        while (pos < args.size()) {
            String a = str(pos);
            Primary flag = Primary.flag(a);
            if (flag == null) {
                if (!linkFlags(a)) {
                    break;
                }
                // grouped as getopt groups them (POSIX's utility syntax guideline 5): the last one wins
                char last = a.charAt(a.length() - 1);
                symlinks = last == 'P' ? SymlinkMode.PHYSICAL : last == 'H' ? SymlinkMode.ROOTS : SymlinkMode.LOGICAL;
                pos++;
                continue;
            }
            switch (flag) {
                case PHYSICAL -> symlinks = SymlinkMode.PHYSICAL;
                case ROOTS -> symlinks = SymlinkMode.ROOTS;
                case LOGICAL -> symlinks = SymlinkMode.LOGICAL;
                case DEBUG -> debug = true;
                case DEBUG_FLAGS -> {
                    if (++pos == args.size()) {
                        throw new UsageError("Missing argument after the -D option.\nTry 'find --help' for more information.");
                    }
                    debugFlags(args.get(pos));
                }
                case THREADS -> {
                    threads = number(a.substring(flag.word().length()), "--threads");
                    if (threads < 0) {
                        throw new UsageError("--threads must be >= 0, got " + threads);
                    }
                }
                case ENGINE -> {
                    String engine = a.substring(flag.word().length());
                    backend = switch (engine) {
                        case "native" -> Backend.NATIVE;
                        case "portable" -> Backend.PORTABLE;
                        case "auto" -> Backend.AUTO;
                        default -> throw new UsageError("unknown engine '" + engine + "' (auto, native or portable)");
                    };
                }
                case END_OF_OPTIONS -> {
                    pos++; // the end of the options, as in GNU find (POSIX's utility syntax guideline 10)
                    break flags;
                }
                case OPTIMISE -> {
                    if (a.length() == 2) {
                        throw new UsageError("The -O option must be immediately followed by a decimal integer");
                    }
                    if (a.charAt(2) < '0' || a.charAt(2) > '9') {
                        throw new UsageError("Please specify a decimal number immediately after -O");
                    }
                }
                default -> throw new IllegalStateException(flag + ": a row of the table the parser does not read");
            }
            pos++;
        }
        List<byte[]> roots = new ArrayList<>();
        while (pos < args.size()) {
            if (looksLikeExpression(args.get(pos), true)) {
                break;
            }
            roots.add(args.get(pos));
            pos++;
        }
        Expr expr = expression();
        if (files0 != null) {
            if (!roots.isEmpty()) {
                throw new UsageError("extra operand " + Quote.q(roots.getFirst())
                        + "\nfind: file operands cannot be combined with -files0-from");
            }
            if (okSeen && files0.length == 1 && files0[0] == '-') {
                // GNU's message ends in a newline of its own: a blank line follows it
                throw new UsageError("option -files0-from reading from standard input cannot be combined with -ok, -okdir\n");
            }
            roots.addAll(Files0.read(files0, errors));
        } else if (roots.isEmpty()) {
            roots.add(new byte[] {'.'});
        }
        for (Predicates.XType x : xtypes) {
            x.logical = symlinks == SymlinkMode.LOGICAL;
            x.roots = symlinks == SymlinkMode.ROOTS;
        }
        WalkOptions options = new WalkOptions(symlinks, postOrder ? Order.POST_ORDER : Order.PRE_ORDER, maxDepth,
                expr.needsOneThread() ? 1 : threads, backend, sameFileSystem);
        return new Plan(roots, options, expr, minDepth, debug, warnings, errors, files.isEmpty() ? List.of() : List.copyOf(files), runner);
    }

    /** Whether {@code a} is two or more of {@code -H}, {@code -L}, {@code -P} in one word ({@code -HL}). */
    private static boolean linkFlags(String a) {
        if (a.length() < 3 || a.charAt(0) != '-') {
            return false;
        }
        for (int i = 1; i < a.length(); i++) {
            if ("HLP".indexOf(a.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The argument of {@code -D}, GNU's debug flags separated by commas: accepted and ignored
     * (brisk prints no debugging output), an unknown one with GNU's warning, {@code help} with
     * GNU's list of them ({@link DebugHelp}).
     */
    private void debugFlags(byte[] list) throws UsageError, DebugHelp {
        boolean any = false, help = false;
        for (String flag : new String(list, StandardCharsets.ISO_8859_1).split(",")) {
            if (flag.isEmpty()) {
                continue;
            }
            any = true;
            switch (flag) {
                case "exec", "opt", "rates", "search", "stat", "time", "tree", "all" -> { }
                case "help" -> help = true;
                default -> warnings.add("Ignoring unrecognised debug flag " + Quote.q(raw(flag)));
            }
        }
        if (!any) {
            throw new UsageError("Empty argument to the -D option.\nTry 'find --help' for more information.");
        }
        if (help) {
            throw new DebugHelp(warnings);
        }
    }

    /** {@code -D help}: find prints the list of debug flags on standard output and exits with status 0. */
    static final class DebugHelp extends Exception {
        private static final long serialVersionUID = 1L;
        static final String TEXT = """
                Valid arguments for -D:
                exec       Show diagnostic information relating to -exec, -execdir, -ok and -okdir
                opt        Show diagnostic information relating to optimisation
                rates      Indicate how often each predicate succeeded
                search     Navigate the directory tree verbosely
                stat       Trace calls to stat(2) and lstat(2)
                time       Show diagnostic information relating to time-of-day and timestamp comparisons
                tree       Display the expression tree
                all        Set all of the debug flags (but help)
                help       Explain the various -D options
                """;
        /** The warnings printed before the list. */
        final transient List<String> warnings;

        DebugHelp(List<String> warnings) {
            super(null, null, false, false);
            this.warnings = List.copyOf(warnings);
        }
    }

    /**
     * The expression from {@code pos} on, as GNU find 4.9 reads it, so that a bad one gets GNU's
     * message: first every word is read into a list (each primary parsed, its errors reported in
     * order; an {@code -a} put between two operands that have none), with an opening parenthesis
     * in front; then, where no action is given, the list becomes {@code ( LIST ) -a -print};
     * then GNU's tree builder (tree.c's {@code get_expr} and {@code scan_rest}, precedence
     * {@code !} over {@code -a} over {@code -o} over {@code ,}) makes the tree.
     */
    private Expr expression() throws UsageError {
        tokens.add(new Token(Token.OPEN, "(", null, true));
        while (pos < args.size()) {
            byte[] word = args.get(pos);
            if (!looksLikeExpression(word, false)) {
                // GNU's guess at a glob the shell expanded: offered when the word names an existing file
                boolean exists = PathCalls.access(word, word.length, 0);
                throw UsageError.of("paths must precede expression: `", word, "'"
                        + (exists ? "\nfind: possible unquoted pattern after predicate `" : ""),
                        exists ? lastPredicate.getBytes(StandardCharsets.ISO_8859_1) : new byte[0], exists ? "'?" : "");
            }
            String a = new String(word, StandardCharsets.ISO_8859_1);
            pos++;
            Primary p = Primary.expression(a);
            Primary.Kind kind = p == null ? null : p.kind();
            if (kind == Primary.Kind.OPTION) {
                if (firstNonOption != null && warn()) {
                    warnings.add("warning: you have specified the global option " + a + " after the argument " + firstNonOption
                            + ", but global options are not positional, i.e., " + a + " affects tests specified before it as"
                            + " well as those specified after it.  Please specify global options before other arguments.");
                }
            } else if (firstNonOption == null && kind != Primary.Kind.POSITIONAL_OPTION) {
                firstNonOption = a;
            }
            if (kind == Primary.Kind.OPERATOR) {
                switch (p) {
                    case OPEN -> operand(new Token(Token.OPEN, a, null, false));
                    case CLOSE -> tokens.add(new Token(Token.CLOSE, a, null, false));
                    case NOT, NOT_WORD -> operand(new Token(Token.NOT, a, null, false));
                    case AND, AND_WORD -> tokens.add(new Token(Token.AND, a, null, false));
                    case OR, OR_WORD -> tokens.add(new Token(Token.OR, a, null, false));
                    case COMMA -> tokens.add(new Token(Token.COMMA, a, null, false));
                    default -> throw new IllegalStateException(p + ": a row of the table the parser does not read");
                }
            } else {
                operand(new Token(Token.PRIMARY, a, primary(p, a), false));
            }
            lastPredicate = a;
        }
        if (deleteSeen) {
            if (pruneSeen && !depthGiven) {
                throw new UsageError("The -delete action automatically turns on -depth, but -prune does nothing when"
                        + " -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option.");
            }
            postOrder = true;
        }
        if (tokens.size() == 1) {
            return new Actions.Print('\n');
        }
        boolean action = false;
        for (Token t : tokens) {
            action |= t.expr != null && t.expr.hasAction();
        }
        if (action) {
            tokens.removeFirst();
        } else {
            tokens.add(new Token(Token.CLOSE, ")", null, true));
            operand(new Token(Token.PRIMARY, "-print", new Actions.Print('\n'), true));
        }
        Expr tree = tree(Token.NO_PREC, null);
        if (next < tokens.size()) {
            Token t = tokens.get(next);
            throw UsageError.of(t.kind == Token.CLOSE ? "you have too many ')'" : "unexpected extra predicate '" + t.name + "'");
        }
        return tree;
    }

    /** Appends an operand (a primary, {@code !} or {@code (}), with GNU's implicit {@code -a} after an operand or {@code )}. */
    private void operand(Token t) {
        int last = tokens.getLast().kind;
        if (last == Token.PRIMARY || last == Token.CLOSE) {
            tokens.add(new Token(Token.AND, "-a", null, false));
        }
        tokens.add(t);
    }

    /** GNU's {@code get_expr}: the expression at {@link #next}, with the operators that bind tighter than {@code prevPrec}. */
    private Expr tree(int prevPrec, Token prev) throws UsageError {
        if (next >= tokens.size()) {
            throw new UsageError("invalid expression");
        }
        Token t = tokens.get(next);
        Expr e;
        switch (t.kind) {
            case Token.PRIMARY -> {
                e = t.expr;
                next++;
            }
            case Token.NOT -> {
                next++;
                e = new Expr.Not(tree(Token.NOT, t));
            }
            case Token.OPEN -> {
                if (next + 1 >= tokens.size() || tokens.get(next + 1).artificial) {
                    throw new UsageError("invalid expression; expected to find a ')' but didn't see one. Perhaps you need an"
                            + " extra predicate after '" + t.name + "'");
                }
                next++;
                if (tokens.get(next).kind == Token.CLOSE) {
                    throw new UsageError(t.artificial ? "invalid expression: expected expression before closing parentheses '"
                            + tokens.get(next).name + "'." : "invalid expression; empty parentheses are not allowed.");
                }
                e = tree(Token.NO_PREC, t);
                if (next >= tokens.size() || tokens.get(next).kind != Token.CLOSE) {
                    throw new UsageError("invalid expression; I was expecting to find a ')' somewhere but did not see one.");
                }
                next++;
            }
            case Token.CLOSE -> {
                if (prev == null) {
                    throw new UsageError("invalid expression: expected expression before closing parentheses '" + t.name + "'.");
                }
                if (prev.kind >= Token.COMMA && !t.artificial) {
                    throw new UsageError("expected an expression between '" + prev.name + "' and ')'");
                }
                throw new UsageError(t.artificial ? "expected an expression after '" + prev.name + "'"
                        : "invalid expression; you have too many ')'");
            }
            default -> throw new UsageError("invalid expression; you have used a binary operator '" + t.name
                    + "' with nothing before it.");
        }
        if (next < tokens.size() && tokens.get(next).precedence() > prevPrec) {
            e = rest(e, prevPrec);
        }
        return e;
    }

    /** GNU's {@code scan_rest}: the binary operators after {@code head} that bind tighter than {@code prevPrec}. */
    private Expr rest(Expr head, int prevPrec) throws UsageError {
        if (tokens.get(next).kind == Token.CLOSE) {
            throw new UsageError("invalid expression");
        }
        Expr e = head;
        while (next < tokens.size() && tokens.get(next).precedence() > prevPrec) {
            Token op = tokens.get(next);
            if (op.kind == Token.CLOSE) {
                return e;
            }
            if (op.kind < Token.COMMA || op.kind == Token.NOT) {
                throw new UsageError("invalid expression");
            }
            next++;
            Expr right = tree(op.kind, op);
            e = switch (op.kind) {
                case Token.AND -> new Expr.And(e, right);
                case Token.OR -> new Expr.Or(e, right);
                default -> new Expr.Comma(e, right);
            };
        }
        return e;
    }

    /**
     * A word of the expression as GNU's tree builder sees it. The binary operators' kinds are
     * their precedences ({@code ,} lowest); an artificial token is one find added itself.
     */
    private record Token(int kind, String name, Expr expr, boolean artificial) {
        static final int NO_PREC = 0, PRIMARY = -3, OPEN = -2, CLOSE = -1, COMMA = 1, OR = 2, AND = 3, NOT = 4;

        int precedence() {
            return kind > 0 ? kind : NO_PREC;
        }
    }

    /** The option, test or action {@code p} ({@code a} as given; null for a word find does not know), its arguments read. */
    private Expr primary(Primary p, String a) throws UsageError {
        if (p == null) {
            throw UsageError.of("unknown predicate `", raw(a), "'");
        }
        return switch (p) {
            case NAME, INAME -> {
                byte[] pattern = arg(a);
                if (indexOf(pattern, '/') >= 0 && warn()) {
                    warnings.add("warning: " + Quote.q(a) + " matches against basenames only, but the given pattern contains a"
                            + " directory separator (" + Quote.q("/") + "), thus the expression will evaluate to false all the"
                            + " time.  Did you mean " + Quote.q(a.equals("-iname") ? "-iwholename" : "-wholename") + "?");
                }
                yield new Predicates.Name(pattern, a.equals("-iname"));
            }
            case PATH, IPATH, WHOLENAME, IWHOLENAME -> new Predicates.PathGlob(arg(a), a.startsWith("-i"));
            case REGEX, IREGEX -> new Predicates.Regex(regex(arg(a), a.equals("-iregex")));
            case REGEXTYPE -> {
                String t = new String(arg(a), StandardCharsets.ISO_8859_1);
                regexSyntax = RegexSyntax.syntax(t);
                if (regexSyntax < 0) {
                    throw new UsageError("Unknown regular expression type " + Quote.q(raw(t)) + "; valid types are "
                            + String.join(", ", RegexSyntax.TYPES.stream().map(Quote::q).toList()) + ".");
                }
                yield Expr.Constant.TRUE;
            }
            case TYPE -> type(new String(arg(a), StandardCharsets.ISO_8859_1), a);
            case XTYPE -> {
                Predicates.XType x = new Predicates.XType(type(new String(arg(a), StandardCharsets.ISO_8859_1), a));
                xtypes.add(x);
                yield x;
            }
            case PRUNE -> {
                pruneSeen = true;
                yield new Predicates.Prune();
            }
            case MAXDEPTH -> {
                maxDepth = depth(a);
                yield Expr.Constant.TRUE;
            }
            case MINDEPTH -> {
                minDepth = depth(a);
                yield Expr.Constant.TRUE;
            }
            case DEPTH, D -> {
                if (a.equals("-d") && warn()) {
                    warnings.add("warning: the -d option is deprecated; please use -depth instead, because the latter is a"
                            + " POSIX-compliant feature.");
                }
                postOrder = true;
                depthGiven = true;
                yield Expr.Constant.TRUE;
            }
            case XDEV, MOUNT -> {
                sameFileSystem = true;
                yield Expr.Constant.TRUE;
            }
            case FOLLOW -> {
                symlinks = SymlinkMode.LOGICAL;
                yield Expr.Constant.TRUE;
            }
            case DAYSTART -> {
                if (!dayStart) {
                    dayStart = true;
                    java.time.LocalTime t = java.time.Instant.ofEpochSecond(nowSec).atZone(zone()).toLocalTime();
                    nowSec = nowSec - t.toSecondOfDay() + DAY; // GNU adds 24 hours, whatever the clocks do that day
                    nowNsec = 0;
                }
                yield Expr.Constant.TRUE;
            }
            case FILES0_FROM -> {
                files0 = arg(a);
                yield Expr.Constant.TRUE;
            }
            case NOLEAF, IGNORE_READDIR_RACE, NOIGNORE_READDIR_RACE -> Expr.Constant.TRUE;
            case WARN, NOWARN -> {
                warn = a.equals("-warn");
                yield Expr.Constant.TRUE;
            }
            case SIZE -> size(a);
            case MTIME -> age(a, Predicates.Stamp.MODIFY, 86400);
            case ATIME -> age(a, Predicates.Stamp.ACCESS, 86400);
            case CTIME -> age(a, Predicates.Stamp.CHANGE, 86400);
            case USED -> used(a);
            case CONTEXT -> {
                arg(a);
                if (!SeLinux.enabled()) {
                    throw new UsageError("invalid predicate -context: SELinux is not enabled.");
                }
                throw new UsageError("-context is not supported by brisk find");
            }
            case MMIN -> age(a, Predicates.Stamp.MODIFY, 60);
            case AMIN -> age(a, Predicates.Stamp.ACCESS, 60);
            case CMIN -> age(a, Predicates.Stamp.CHANGE, 60);
            case NEWER, ANEWER, CNEWER -> newer(a.equals("-newer") ? 'm' : a.charAt(1), 'm', arg(a));
            case PERM -> perm(new String(arg(a), StandardCharsets.ISO_8859_1));
            case USER, GROUP -> owner(a);
            case NOUSER -> new Predicates.Owner(false, -1, Accounts.get());
            case NOGROUP -> new Predicates.Owner(true, -1, Accounts.get());
            case LINKS -> {
                String v = numericArg(a);
                yield new Predicates.Links(cmp(v), count(v, a));
            }
            case INUM, UID, GID -> {
                String v = numericArg(a);
                yield new Predicates.Ident(a.charAt(1), cmp(v), count(v, a));
            }
            case FSTYPE -> new Predicates.FsType(new String(arg(a), StandardCharsets.UTF_8));
            case EMPTY -> new Predicates.Empty();
            case TRUE -> Expr.Constant.TRUE;
            case FALSE -> Expr.Constant.FALSE;
            case PRINT -> new Actions.Print('\n');
            case PRINT0 -> new Actions.Print(0);
            case PRINTF -> {
                byte[] f = arg(a);
                try {
                    yield new Actions.PrintFormat(Printf.compile(f, warnings, this::zone));
                } catch (IllegalArgumentException e) {
                    throw new UsageError(e.getMessage());
                }
            }
            case QUIT -> new Actions.Quit();
            case LS -> new ListLine(System.currentTimeMillis() / 1000, zone(), lsWidths());
            case FLS -> new Actions.FilePrint(file(arg(a)), new ListLine(System.currentTimeMillis() / 1000, zone(), lsWidths()));
            case FPRINT, FPRINT0 -> new Actions.FilePrint(file(arg(a)), new Actions.Print(a.equals("-fprint") ? '\n' : 0));
            case FPRINTF -> {
                FileOutput file = file(arg(a));
                byte[] f = arg(a);
                try {
                    yield new Actions.FilePrint(file, new Actions.PrintFormat(Printf.compile(f, warnings, this::zone)));
                } catch (IllegalArgumentException e) {
                    throw new UsageError(e.getMessage());
                }
            }
            case DELETE -> {
                deleteSeen = true;
                yield new Actions.Delete();
            }
            case SAMEFILE -> {
                FileStat s = referenceStat(arg(a));
                yield new Predicates.SameFile(s.dev(), s.ino());
            }
            case LNAME, ILNAME -> new Predicates.LinkName(arg(a), a.equals("-ilname"));
            case READABLE -> new Predicates.Access(4);
            case WRITABLE -> new Predicates.Access(2);
            case EXECUTABLE -> new Predicates.Access(1);
            case EXEC, EXECDIR, OK, OKDIR -> {
                okSeen |= a.startsWith("-ok");
                yield exec(a);
            }
            case NEWER_XY -> newer(a.charAt(6), a.charAt(7), arg(a));
            default -> throw new IllegalStateException(p + ": a row of the table the parser does not read");
        };
    }

    /**
     * {@code -newerXY REF} (and {@code -newer}, {@code -anewer}, {@code -cnewer}): the entry's
     * time X (a, c, m) later than REF's time Y, or than the date REF when Y is t.
     */
    private Expr newer(char x, char y, byte[] ref) throws UsageError {
        if (x == 'B' || y == 'B') {
            throw new UsageError("This system does not provide a way to find the birth time of a file.");
        }
        if (y == 't') {
            long[] t = DateArg.parse(new String(ref, StandardCharsets.UTF_8), zone());
            if (t == null) {
                throw new UsageError("I cannot figure out how to interpret " + Quote.q(ref) + " as a date or time");
            }
            return new Predicates.Newer(x, t[0], (int) t[1]);
        }
        FileStat s = referenceStat(ref);
        return switch (y) {
            case 'a' -> new Predicates.Newer(x, s.atimeSec(), s.atimeNsec());
            case 'c' -> new Predicates.Newer(x, s.ctimeSec(), s.ctimeNsec());
            default -> new Predicates.Newer(x, s.mtimeSec(), s.mtimeNsec());
        };
    }

    /** The metadata of a reference file (-newer, -samefile), followed as the walk follows links. */
    private FileStat referenceStat(byte[] ref) throws UsageError {
        FileStat s = Walker.stat(ref, symlinks != SymlinkMode.PHYSICAL);
        if (s == null) {
            throw new UsageError(Quote.q(ref) + ": No such file or directory");
        }
        return s;
    }

    /** The file of a -fprint action, opened once per name (two actions on one name share it, as in find). */
    private int[] lsWidths() {
        if (lsWidths == null) {
            lsWidths = ListLine.startingWidths();
        }
        return lsWidths;
    }

    private java.time.ZoneId zone() {
        if (zone == null) {
            zone = TimeZones.current();
        }
        return zone;
    }

    private ExecRunner runner() {
        if (runner == null) {
            runner = new ExecRunner();
        }
        return runner;
    }

    /**
     * The file of an -fprint action, as GNU find 4.9 opens it: {@code /dev/stdout} is standard
     * output itself (null: the records go with the other actions' output) and {@code /dev/stderr}
     * standard error; any other name is opened (and truncated) each time it is named, and names of
     * one file (the same name again, a hard link, a symbolic link) share the first one's stream.
     * A warm server's caller names its standard streams as {@code /proc/self/fd/N}.
     */
    private FileOutput file(byte[] name) throws UsageError {
        if (standardStream(name, "/dev/stdout", 1)) {
            return null;
        }
        if (standardStream(name, "/dev/stderr", 2)) {
            for (FileOutput f : files) {
                if (f.unbuffered()) {
                    return f;
                }
            }
            FileOutput f = FileOutput.standardError();
            files.add(f);
            return f;
        }
        FileOutput f = FileOutput.open(name);
        for (FileOutput o : files) {
            if (o.sameFile(f)) {
                f.close();
                return o;
            }
        }
        files.add(f);
        return f;
    }

    private static boolean standardStream(byte[] name, String path, int fd) {
        String n = new String(name, StandardCharsets.ISO_8859_1);
        if (n.equals(path)) {
            return true;
        }
        dev.brisk.internal.posix.Caller c = dev.brisk.internal.posix.Caller.current();
        return !c.self() && n.equals("/proc/self/fd/" + (fd == 1 ? c.stdout() : c.stderr()));
    }

    /**
     * {@code -exec} and friends: the command runs up to {@code ;}, or (not for {@code -ok} and
     * {@code -okdir}) up to a {@code +} right after a word that is exactly {@code {}}, as POSIX
     * says (any other {@code +} is a word of the command: {@code -exec printf %s {}+ +{} + ;});
     * a batch's {@code {}} must be the only word holding {@code {}}, with GNU find 4.9's message.
     * Where no {@code ;} follows, a {@code +} after another word holding {@code {}} gets the
     * message GNU gives it.
     */
    private Expr exec(String a) throws UsageError {
        if (a.endsWith("dir") && pos < args.size()) {
            checkPathSafety(a);
        }
        boolean plusEnds = !a.startsWith("-ok");
        int start = pos, end = pos, braces = 0;
        byte[] braceWord = null;
        boolean sawBraces = false, sawExactBraces = false, batch = false;
        // where GNU find would have ended the command (a + after any word holding {}), the count of {} and the word
        int gnuEnd = -1, gnuBraces = 0;
        byte[] gnuBraceWord = null;
        for (; end < args.size() && !Arrays.equals(args.get(end), SEMICOLON); end++) {
            byte[] w = args.get(end);
            if (plusEnds && Arrays.equals(w, PLUS)) {
                if (sawExactBraces) {
                    batch = true;
                    break;
                }
                if (sawBraces && gnuEnd < 0) {
                    gnuEnd = end;
                    gnuBraces = braces;
                    gnuBraceWord = braceWord;
                }
            }
            sawBraces = hasBraces(w);
            sawExactBraces = sawBraces && w.length == 2;
            if (sawBraces) {
                braces++;
                braceWord = w;
            }
        }
        if (end >= args.size() && gnuEnd >= 0) {
            end = gnuEnd;
            braces = gnuBraces;
            braceWord = gnuBraceWord;
            batch = true;
        }
        if (end == start || end >= args.size()) {
            if (end < args.size()) {
                throw invalidArgument(new String(args.get(end), StandardCharsets.ISO_8859_1), a);
            }
            throw UsageError.of("missing argument to `", raw(a), "'");
        }
        pos = end + 1;
        if (batch) {
            String suffix = a.equals("-execdir") ? "dir" : "";
            if (braces > 1) {
                throw new UsageError("Only one instance of {} is supported with -exec" + suffix + " ... +");
            }
            if (braceWord.length != 2) {
                throw new UsageError("In " + Quote.q("-exec" + suffix + " ... {} +") + " the " + Quote.q("{}")
                        + " must appear by itself, but you specified " + Quote.q(braceWord));
            }
            return new Actions.Exec(runner(), new ArrayList<>(args.subList(start, end + 1)), true, a.endsWith("dir"), false);
        }
        return new Actions.Exec(runner(), new ArrayList<>(args.subList(start, end)), false, a.endsWith("dir"),
                a.startsWith("-ok"));
    }

    /**
     * GNU find's refusal of {@code -execdir} and {@code -okdir} where the caller's PATH would find
     * a program in the directory of the file at hand: an empty entry or {@code .} (the current
     * directory), or any relative one. No PATH at all is taken as safe.
     */
    private static void checkPathSafety(String action) throws UsageError {
        String path = dev.brisk.internal.posix.Environ.get("PATH");
        if (path == null) {
            return;
        }
        for (String entry : path.split(":", -1)) {
            if (entry.isEmpty() || entry.equals(".")) {
                throw new UsageError("The current directory is included in the PATH environment variable, which is insecure"
                        + " in combination with the " + action + " action of find.  Please remove the current directory from"
                        + " your $PATH (that is, remove \".\", doubled colons, or leading or trailing colons)");
            }
            if (entry.charAt(0) != '/') {
                throw new UsageError("The relative path " + Quote.q(entry) + " is included in the PATH environment variable,"
                        + " which is insecure in combination with the " + action + " action of find.  Please remove that"
                        + " entry from $PATH");
            }
        }
    }

    private static boolean hasBraces(byte[] w) {
        for (int i = 0; i + 1 < w.length; i++) {
            if (w[i] == '{' && w[i + 1] == '}') {
                return true;
            }
        }
        return false;
    }

    /**
     * The argument of {@code -type} or {@code -xtype} ({@code a}): letters separated by commas,
     * checked letter by letter as GNU find checks them, with its messages (a letter is one byte).
     */
    private Predicates.Type type(String v, String a) throws UsageError {
        if (v.isEmpty()) {
            throw new UsageError("Arguments to " + a + " should contain at least one letter");
        }
        StringBuilder letters = new StringBuilder();
        for (int i = 0; ; ) {
            char t = v.charAt(i);
            if (t == 'D') {
                throw new UsageError(a + " D is not supported because Solaris doors are not supported on the platform"
                        + " find was compiled on.");
            }
            if ("fdlpsbc".indexOf(t) < 0) {
                throw UsageError.of("Unknown argument to " + a + ": ", new byte[] {(byte) t});
            }
            if (letters.indexOf(String.valueOf(t)) >= 0) {
                throw new UsageError("Duplicate file type '" + t + "' in the argument list to " + a + ".");
            }
            letters.append(t);
            if (++i == v.length()) {
                break;
            }
            if (v.charAt(i) != ',') {
                throw new UsageError("Must separate multiple arguments to " + a + " using: ','");
            }
            if (++i == v.length()) {
                throw new UsageError("Last file type in list argument to " + a + " is missing, i.e., list is ending on: ','");
            }
        }
        return new Predicates.Type(letters.toString());
    }

    /**
     * {@code -size [+-]N[cwbkMG]}, checked as GNU find checks it: an empty argument, then the
     * last byte (a unit or a digit), then the number, each with GNU's own message.
     */
    private Expr size(String a) throws UsageError {
        String v = new String(arg(a), StandardCharsets.ISO_8859_1);
        if (v.isEmpty()) {
            throw new UsageError("invalid null argument to -size");
        }
        char last = v.charAt(v.length() - 1);
        long unit = switch (last) {
            case 'c' -> 1;
            case 'w' -> 2;
            case 'b' -> 512;
            case 'k' -> 1024;
            case 'M' -> 1024 * 1024;
            case 'G' -> 1024L * 1024 * 1024;
            default -> {
                if (last < '0' || last > '9') {
                    throw UsageError.of("invalid -size type `", new byte[] {(byte) last}, "'");
                }
                yield 0;
            }
        };
        String num = unit == 0 ? v : v.substring(0, v.length() - 1);
        Long n = Numbers.unsigned(strip(num));
        if (n == null) {
            throw UsageError.of("Invalid argument `", raw(v), "' to -size");
        }
        return new Predicates.Size(cmp(num), n, unit == 0 ? 512 : unit);
    }

    /**
     * {@code -mtime}, {@code -mmin} and the like: {@code [+-]N}, N as C's strtod reads it, turned
     * into GNU find's reference time (its {@code get_relative_timestamp}, step for step): the
     * origin is the start time less a day for the day tests (less one second more for
     * {@code -N}), and N units before it, the fraction kept in nanoseconds.
     */
    private Expr age(String a, Predicates.Stamp stamp, long unit) throws UsageError {
        String v = new String(arg(a), StandardCharsets.ISO_8859_1);
        Double n = Numbers.decimal(strip(v));
        if (n == null) {
            throw invalidArgument(v, a);
        }
        Predicates.Cmp cmp = cmp(v);
        long originSec = unit == 60 ? nowSec : nowSec - DAY + (cmp == Predicates.Cmp.LT ? DAY - 1 : 0);
        double x = n * unit;
        double seconds = Double.isInfinite(x) ? x : x >= 0 ? Math.floor(x) : Math.ceil(x); // C's modf
        double nanosec = (Double.isInfinite(x) ? 0.0 : x - seconds) * 1.0e9;
        long refSec = cTimeT(originSec - seconds);
        if ((originSec < refSec) != (seconds < 0)) {
            throw UsageError.of("arithmetic overflow while converting ", raw(strip(v)),
                    unit == 60 ? " minutes to a number of seconds" : " days to a number of seconds");
        }
        long refNsec = (long) (nowNsec - nanosec);
        if (nowNsec < nanosec) {
            refNsec += 1_000_000_000L;
            refSec -= 1;
        }
        return new Predicates.Age(stamp, cmp, refSec, refNsec, unit);
    }

    /** A double as C converts it to a 64-bit time_t on x86-64: out of range (or NaN) gives the minimum. */
    private static long cTimeT(double d) {
        return d >= 0x1p63 || d < -0x1p63 || Double.isNaN(d) ? Long.MIN_VALUE : (long) d;
    }

    /**
     * {@code -used [+-]N}: days between the last status change and the last access, GNU's way
     * (N as C's strtod reads it; {@code +N} more than N days, {@code -N} less, {@code N} in the
     * N-th day).
     */
    private Expr used(String a) throws UsageError {
        String v = new String(arg(a), StandardCharsets.ISO_8859_1);
        Double days = Numbers.decimal(strip(v));
        if (days == null) {
            throw UsageError.of("Invalid argument ", raw(v), " to -used");
        }
        return new Predicates.Used(cmp(v), days);
    }

    private Expr owner(String a) throws UsageError {
        byte[] name = arg(a);
        String v = new String(name, StandardCharsets.UTF_8);
        boolean group = a.equals("-group");
        if (v.isEmpty()) {
            throw new UsageError("argument to " + a + " is empty");
        }
        Long id = group ? Accounts.get().groupId(v) : Accounts.get().userId(v);
        if (id == null && v.matches("[0-9]+")) {
            id = Long.parseLong(v);
        }
        if (id == null) {
            throw new UsageError(Quote.q(name) + " is not the name of " + (group ? "an existing group" : "a known user"));
        }
        return new Predicates.Owner(group, id, null);
    }

    /**
     * {@code -perm MODE}, {@code -MODE} (all these bits), {@code /MODE} (any of them), as GNU find
     * 4.9: a leading {@code +} is part of a symbolic mode (an exact match), {@code +} before an
     * octal number is refused (its old meaning, "any", broke POSIX).
     */
    private Expr perm(String v) throws UsageError {
        Predicates.PermMatch match = Predicates.PermMatch.EXACT;
        int start = 0;
        if (v.startsWith("-")) {
            match = Predicates.PermMatch.ALL;
            start = 1;
        } else if (v.startsWith("/")) {
            match = Predicates.PermMatch.ANY;
            start = 1;
        }
        SymbolicMode mode = SymbolicMode.compile(v.substring(start));
        if (mode == null || (v.length() > 1 && v.charAt(0) == '+' && v.charAt(1) >= '0' && v.charAt(1) < '8')) {
            throw new UsageError("invalid mode " + Quote.q(raw(v)));
        }
        // POSIX's -perm [-]MODE takes the umask where a clause names no class; GNU's /MODE does not
        int umask = match == Predicates.PermMatch.ANY || !SymbolicMode.namesNoClass(v.substring(start)) ? 0 : SymbolicMode.umask();
        if (match == Predicates.PermMatch.ANY && mode.bits(false, 0) == 0 && mode.bits(true, 0) == 0) {
            warnings.add("warning: you have specified a mode pattern " + v + " (which is equivalent to /000). The meaning of"
                    + " -perm /000 has now been changed to be consistent with -perm -000; that is, while it used to match no"
                    + " files, it now matches all files.");
        }
        return new Predicates.Perm(match, mode.bits(false, umask), mode.bits(true, umask));
    }

    private Pattern regex(byte[] re, boolean fold) throws UsageError {
        String src = new String(re, StandardCharsets.ISO_8859_1);
        try {
            return RegexSyntax.compile(src, regexSyntax, fold);
        } catch (PatternSyntaxException e) {
            throw UsageError.of("failed to compile regular expression '", re, "': Invalid regular expression");
        } catch (IllegalArgumentException e) {
            throw UsageError.of("failed to compile regular expression '", re, "': " + e.getMessage());
        }
    }

    /**
     * {@code -maxdepth} and {@code -mindepth}: digits only, then read as GNU's {@code safe_atoi}
     * reads them (a value beyond C's int is refused with strtol's error, as GNU refuses it).
     */
    private int depth(String a) throws UsageError {
        String v = new String(arg(a), StandardCharsets.ISO_8859_1);
        // by hand, not by a regular expression or BigInteger: their classes are not in find's
        // AOT cache, and loading and compiling them cost every -maxdepth run start-up time
        if (v.isEmpty() || !Numbers.digitsOnly(v)) {
            throw new UsageError("Expected a positive decimal integer argument to " + a + ", but got " + Quote.q(raw(v)));
        }
        int first = 0;
        while (first < v.length() - 1 && v.charAt(first) == '0') {
            first++; // leading zeros
        }
        String digits = v.substring(first);
        if (digits.equals(Long.toString(Long.MAX_VALUE))) {
            throw UsageError.of(raw(v)); // strtol's LONG_MAX without an error: GNU prints the bare number
        }
        if (digits.length() > 10 || Long.parseLong(digits) > Integer.MAX_VALUE) {
            throw UsageError.of(raw(v), ": Numerical result out of range");
        }
        return Integer.parseInt(digits);
    }

    /** The count of {@code -links}, {@code -inum}, {@code -uid} or {@code -gid}: GNU's get_num after the sign. */
    private static long count(String v, String a) throws UsageError {
        Long n = Numbers.unsigned(strip(v));
        if (n == null) {
            throw invalidArgument(v, a);
        }
        return n;
    }

    private static int number(String v, String what) throws UsageError {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageError("invalid number '" + v + "' for " + what);
        }
    }

    private static Predicates.Cmp cmp(String v) {
        return v.startsWith("+") ? Predicates.Cmp.GT : v.startsWith("-") ? Predicates.Cmp.LT : Predicates.Cmp.EQ;
    }

    private static String strip(String v) {
        return v.startsWith("+") || v.startsWith("-") ? v.substring(1) : v;
    }


    /** The argument of a numeric test; missing, GNU find names the test itself as the bad argument. */
    private String numericArg(String a) throws UsageError {
        if (pos >= args.size()) {
            throw invalidArgument(a, a);
        }
        return new String(args.get(pos++), StandardCharsets.ISO_8859_1);
    }

    private byte[] arg(String a) throws UsageError {
        if (pos >= args.size()) {
            throw UsageError.of("missing argument to `", raw(a), "'");
        }
        return args.get(pos++);
    }

    /**
     * GNU find's test for a word that starts the expression: {@code -X} (but not {@code -} alone),
     * {@code (} or {@code !}, and {@code )} or {@code ,} except where roots are read ({@code
     * leading}). Where roots end, this is what POSIX says, except that {@code -} alone is a root
     * as in GNU find and bfs.
     */
    static boolean looksLikeExpression(byte[] a, boolean leading) {
        if (a.length == 0) {
            return false;
        }
        return switch (a[0]) {
            case '-' -> a.length > 1;
            case ')', ',' -> a.length == 1 && !leading;
            case '!', '(' -> a.length == 1;
            default -> false;
        };
    }

    /** Whether GNU's warnings are on: {@code -warn}, {@code -nowarn}, else whether standard input is a terminal. */
    private boolean warn() {
        if (warn == null) {
            warn = Libc.isatty(0);
        }
        return warn;
    }

    private static int indexOf(byte[] a, int b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** GNU's message for a bad argument {@code v} of primary {@code a}, both as given on the command line. */
    private static UsageError invalidArgument(String v, String a) {
        return UsageError.of("invalid argument `", raw(v), "' to `", raw(a), "'");
    }

    /** The bytes of a word read as ISO-8859-1 (one char per byte), as given on the command line. */
    private static byte[] raw(String word) {
        return word.getBytes(StandardCharsets.ISO_8859_1);
    }

    private String str(int i) {
        return new String(args.get(i), StandardCharsets.UTF_8);
    }
}
