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
 * GNU's messages), one {@code switch} on the primary's name.
 */
public final class Parser {
    private final List<byte[]> args;
    private int pos;
    private SymlinkMode symlinks = SymlinkMode.PHYSICAL;
    private int maxDepth = Integer.MAX_VALUE, minDepth = 0, threads = 0;
    private boolean postOrder, debug, sameFileSystem;
    /** For -delete's checks: it turns -depth on, where -prune does nothing unless -depth was asked for. */
    private boolean deleteSeen, pruneSeen, depthGiven;
    private final java.util.Map<String, FileOutput> files = new java.util.HashMap<>();
    private final List<Predicates.XType> xtypes = new ArrayList<>();
    private Backend backend = Backend.AUTO;
    private boolean regexExtended;
    /** The time ages count from: now, or after -daystart the coming midnight (local time), as GNU find does. */
    private double now = System.currentTimeMillis() / 1000.0;
    /** Column widths shared by every -ls and -fls; made on first use (ListLine loads time zones). */
    private int[] lsWidths;
    private boolean dayStart;
    private final List<String> warnings = new ArrayList<>();
    /** -files0-from's file, and whether an -ok/-okdir would read the same standard input. */
    private byte[] files0;
    private boolean okSeen;
    /** Errors GNU find reports and walks on (a zero-length name in -files0-from's list): status 1 at the end. */
    private final List<String> errors = new ArrayList<>();

    /** Where the expression starts, and the last primary read (for GNU's hint after a stray path). */
    private int exprStart;
    private String lastPredicate = "(";
    private Boolean warn;

    private Parser(List<byte[]> args) {
        this.args = args;
    }

    /** Parses {@code args} (everything after {@code find}). */
    static Plan parse(List<byte[]> args) throws UsageError {
        Parser p = new Parser(args);
        try {
            return p.plan();
        } catch (UsageError e) {
            if (p.warnings.isEmpty()) {
                throw e;
            }
            // GNU prints the warnings of what it read before the error, then the error
            throw new UsageError(String.join("\nfind: ", p.warnings) + "\nfind: " + e.getMessage());
        }
    }

    private Plan plan() throws UsageError {
        while (pos < args.size()) {
            String a = str(pos);
            if (a.equals("-P")) {
                symlinks = SymlinkMode.PHYSICAL;
            } else if (a.equals("-H")) {
                symlinks = SymlinkMode.ROOTS;
            } else if (a.equals("-L")) {
                symlinks = SymlinkMode.LOGICAL;
            } else if (a.equals("--debug")) {
                debug = true;
            } else if (a.equals("-D")) {
                pos++; // GNU's debug options: accepted, ignored
            } else if (a.startsWith("--threads=")) {
                threads = number(a.substring(10), "--threads");
                if (threads < 0) {
                    throw new UsageError("--threads must be >= 0, got " + threads);
                }
            } else if (a.startsWith("--engine=")) {
                backend = switch (a.substring(9)) {
                    case "native" -> Backend.NATIVE;
                    case "portable" -> Backend.PORTABLE;
                    case "auto" -> Backend.AUTO;
                    default -> throw new UsageError("unknown engine '" + a.substring(9) + "' (auto, native or portable)");
                };
            } else if (!(a.startsWith("-O") && a.length() > 2)) {
                break;
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
        Expr expr = null;
        exprStart = pos;
        if (pos < args.size()) {
            expr = comma();
            if (pos < args.size()) {
                if (is(pos, ")")) {
                    throw new UsageError("invalid expression; you have too many ')'");
                }
                throw new UsageError("paths must precede expression: `" + str(pos) + "'");
            }
        }
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
        if (deleteSeen) {
            if (pruneSeen && !depthGiven) {
                throw new UsageError("The -delete action automatically turns on -depth, but -prune does nothing when"
                        + " -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option.");
            }
            postOrder = true;
        }
        for (Predicates.XType x : xtypes) {
            x.logical = symlinks == SymlinkMode.LOGICAL;
            x.roots = symlinks == SymlinkMode.ROOTS;
        }
        Expr print = new Actions.Print('\n');
        if (expr == null) {
            expr = print;
        } else if (!expr.hasAction()) {
            expr = new Expr.And(expr, print);
        }
        WalkOptions options = new WalkOptions(symlinks, postOrder ? Order.POST_ORDER : Order.PRE_ORDER, maxDepth,
                expr.needsOneThread() ? 1 : threads, backend, sameFileSystem);
        return new Plan(roots, options, expr, minDepth, debug, warnings, errors);
    }

    private Expr comma() throws UsageError {
        Expr left = or();
        while (pos < args.size() && is(pos, ",")) {
            pos++;
            left = new Expr.Comma(left, or());
        }
        return left;
    }

    private Expr or() throws UsageError {
        Expr left = and();
        while (pos < args.size() && (is(pos, "-o") || is(pos, "-or"))) {
            String op = str(pos++);
            lastPredicate = op;
            if (pos >= args.size()) {
                throw new UsageError("invalid expression; you have used a binary operator '" + op + "' with nothing after it.");
            }
            left = new Expr.Or(left, and());
        }
        return left;
    }

    private Expr and() throws UsageError {
        Expr left = unary();
        while (pos < args.size() && !is(pos, ")") && !is(pos, ",") && !is(pos, "-o") && !is(pos, "-or")) {
            if (is(pos, "-a") || is(pos, "-and")) {
                String op = str(pos++);
                lastPredicate = op;
                if (pos >= args.size()) {
                    throw new UsageError("invalid expression; you have used a binary operator '" + op + "' with nothing after it.");
                }
            }
            left = new Expr.And(left, unary());
        }
        return left;
    }

    private Expr unary() throws UsageError {
        if (pos >= args.size()) {
            throw new UsageError("invalid expression");
        }
        if (is(pos, "!") || is(pos, "-not")) {
            String op = str(pos++);
            lastPredicate = op;
            if (pos >= args.size()) {
                // GNU names the operator only where nothing but openers stand before it
                throw new UsageError(pos == exprStart + 1 || is(pos - 2, "(") || is(pos - 2, "!") || is(pos - 2, "-not")
                        ? "expected an expression after '" + op + "'" : "invalid expression");
            }
            if (is(pos, ")")) {
                throw new UsageError("expected an expression between '" + op + "' and ')'");
            }
            return new Expr.Not(unary());
        }
        if (is(pos, "(")) {
            pos++;
            lastPredicate = "(";
            if (pos >= args.size()) {
                throw new UsageError("invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('");
            }
            if (is(pos, ")")) {
                throw new UsageError("invalid expression; empty parentheses are not allowed.");
            }
            Expr inner = comma();
            if (pos >= args.size() || !is(pos, ")")) {
                throw new UsageError("invalid expression; I was expecting to find a ')' somewhere but did not see one.");
            }
            pos++;
            return inner;
        }
        String a = str(pos);
        if (a.equals("-o") || a.equals("-or") || a.equals("-a") || a.equals("-and") || a.equals(",")) {
            throw new UsageError("invalid expression; you have used a binary operator '" + a + "' with nothing before it.");
        }
        if (a.equals(")")) {
            throw new UsageError("invalid expression; you have too many ')'");
        }
        if (!looksLikeExpression(args.get(pos), false)) {
            String msg = "paths must precede expression: `" + a + "'";
            // GNU's guess at a glob the shell expanded: offered when the word names an existing file
            if (lastPredicate != null && PathCalls.access(args.get(pos), args.get(pos).length, 0)) {
                msg += "\nfind: possible unquoted pattern after predicate `" + lastPredicate + "'?";
            }
            throw new UsageError(msg);
        }
        pos++;
        lastPredicate = a;
        return primary(a);
    }

    private Expr primary(String a) throws UsageError {
        return switch (a) {
            case "-name", "-iname" -> {
                byte[] pattern = arg(a);
                if (indexOf(pattern, '/') >= 0 && warn()) {
                    warnings.add("warning: " + Quote.q(a) + " matches against basenames only, but the given pattern contains a"
                            + " directory separator (" + Quote.q("/") + "), thus the expression will evaluate to false all the"
                            + " time.  Did you mean " + Quote.q(a.equals("-iname") ? "-iwholename" : "-wholename") + "?");
                }
                yield new Predicates.Name(pattern, a.equals("-iname"));
            }
            case "-path", "-ipath", "-wholename", "-iwholename" -> new Predicates.PathGlob(arg(a), a.startsWith("-i"));
            case "-regex", "-iregex" -> new Predicates.Regex(regex(arg(a), a.equals("-iregex")));
            case "-regextype" -> {
                String t = new String(arg(a), StandardCharsets.UTF_8);
                regexExtended = switch (t) {
                    case "posix-extended", "posix-egrep", "egrep", "extended" -> true;
                    case "emacs", "findutils-default", "posix-basic", "grep", "posix-minimal-basic" -> false;
                    default -> throw new UsageError("Unknown regular expression type " + Quote.q(t) + "; valid types are "
                            + String.join(", ", java.util.stream.Stream.of("findutils-default", "ed", "emacs", "gnu-awk", "grep",
                                    "posix-awk", "awk", "posix-basic", "posix-egrep", "egrep", "posix-extended",
                                    "posix-minimal-basic", "sed").map(Quote::q).toList()) + ".");
                };
                yield Expr.Constant.TRUE;
            }
            case "-type" -> type(new String(arg(a), StandardCharsets.ISO_8859_1));
            case "-xtype" -> {
                Predicates.XType x = new Predicates.XType(type(new String(arg(a), StandardCharsets.ISO_8859_1)));
                xtypes.add(x);
                yield x;
            }
            case "-prune" -> {
                pruneSeen = true;
                yield new Predicates.Prune();
            }
            case "-maxdepth" -> {
                maxDepth = depth(a);
                yield Expr.Constant.TRUE;
            }
            case "-mindepth" -> {
                minDepth = depth(a);
                yield Expr.Constant.TRUE;
            }
            case "-depth", "-d" -> {
                postOrder = true;
                depthGiven = true;
                yield Expr.Constant.TRUE;
            }
            case "-xdev", "-mount" -> {
                sameFileSystem = true;
                yield Expr.Constant.TRUE;
            }
            case "-follow" -> {
                symlinks = SymlinkMode.LOGICAL;
                yield Expr.Constant.TRUE;
            }
            case "-daystart" -> {
                if (!dayStart) {
                    dayStart = true;
                    java.time.ZonedDateTime t = java.time.Instant.ofEpochMilli((long) (now * 1000)).atZone(java.time.ZoneId.systemDefault());
                    now = t.toLocalDate().plusDays(1).atStartOfDay(t.getZone()).toEpochSecond();
                }
                yield Expr.Constant.TRUE;
            }
            case "-files0-from" -> {
                files0 = arg(a);
                yield Expr.Constant.TRUE;
            }
            case "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race" -> Expr.Constant.TRUE;
            case "-warn", "-nowarn" -> {
                warn = a.equals("-warn");
                yield Expr.Constant.TRUE;
            }
            case "-size" -> size(a);
            case "-mtime" -> age(a, Predicates.Stamp.MODIFY, 86400);
            case "-atime" -> age(a, Predicates.Stamp.ACCESS, 86400);
            case "-ctime" -> age(a, Predicates.Stamp.CHANGE, 86400);
            case "-used" -> used(a);
            case "-context" -> {
                arg(a);
                if (!SeLinux.enabled()) {
                    throw new UsageError("invalid predicate -context: SELinux is not enabled.");
                }
                throw new UsageError("-context is not supported by brisk find");
            }
            case "-mmin" -> age(a, Predicates.Stamp.MODIFY, 60);
            case "-amin" -> age(a, Predicates.Stamp.ACCESS, 60);
            case "-cmin" -> age(a, Predicates.Stamp.CHANGE, 60);
            case "-newer", "-anewer", "-cnewer" -> newer(a.equals("-newer") ? 'm' : a.charAt(1), 'm', arg(a));
            case "-perm" -> perm(new String(arg(a), StandardCharsets.ISO_8859_1));
            case "-user", "-group" -> owner(a);
            case "-nouser" -> new Predicates.Owner(false, -1, Accounts.get());
            case "-nogroup" -> new Predicates.Owner(true, -1, Accounts.get());
            case "-links" -> {
                String v = numericArg(a);
                Predicates.Cmp cmp = cmp(v);
                yield new Predicates.Links(cmp, parseLong(strip(v), a, v));
            }
            case "-inum", "-uid", "-gid" -> {
                String v = numericArg(a);
                Predicates.Cmp cmp = cmp(v);
                yield new Predicates.Ident(a.charAt(1), cmp, parseLong(strip(v), a, v));
            }
            case "-fstype" -> new Predicates.FsType(new String(arg(a), StandardCharsets.UTF_8));
            case "-empty" -> new Predicates.Empty();
            case "-true" -> Expr.Constant.TRUE;
            case "-false" -> Expr.Constant.FALSE;
            case "-print" -> new Actions.Print('\n');
            case "-print0" -> new Actions.Print(0);
            case "-printf" -> {
                byte[] f = arg(a);
                try {
                    yield new Actions.PrintFormat(Printf.compile(f, warnings));
                } catch (IllegalArgumentException e) {
                    throw new UsageError(e.getMessage());
                }
            }
            case "-quit" -> new Actions.Quit();
            case "-ls" -> new ListLine(System.currentTimeMillis() / 1000, lsWidths());
            case "-fls" -> new Actions.FilePrint(file(arg(a)), new ListLine(System.currentTimeMillis() / 1000, lsWidths()));
            case "-fprint", "-fprint0" -> new Actions.FilePrint(file(arg(a)), new Actions.Print(a.equals("-fprint") ? '\n' : 0));
            case "-fprintf" -> {
                FileOutput file = file(arg(a));
                byte[] f = arg(a);
                try {
                    yield new Actions.FilePrint(file, new Actions.PrintFormat(Printf.compile(f, warnings)));
                } catch (IllegalArgumentException e) {
                    throw new UsageError(e.getMessage());
                }
            }
            case "-delete" -> {
                deleteSeen = true;
                yield new Actions.Delete();
            }
            case "-samefile" -> {
                FileStat s = referenceStat(arg(a));
                yield new Predicates.SameFile(s.dev(), s.ino());
            }
            case "-lname", "-ilname" -> new Predicates.LinkName(arg(a), a.equals("-ilname"));
            case "-readable" -> new Predicates.Access(4);
            case "-writable" -> new Predicates.Access(2);
            case "-executable" -> new Predicates.Access(1);
            case "-exec", "-execdir", "-ok", "-okdir" -> {
                okSeen |= a.startsWith("-ok");
                yield exec(a);
            }
            default -> {
                if (a.length() == 8 && a.startsWith("-newer") && "aBcm".indexOf(a.charAt(6)) >= 0
                        && "aBcmt".indexOf(a.charAt(7)) >= 0) {
                    yield newer(a.charAt(6), a.charAt(7), arg(a));
                }
                throw new UsageError("unknown predicate `" + a + "'");
            }
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
            String text = new String(ref, StandardCharsets.UTF_8);
            long[] t = DateArg.parse(text);
            if (t == null) {
                throw new UsageError("I cannot figure out how to interpret " + Quote.q(text) + " as a date or time");
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

    private FileOutput file(byte[] name) throws UsageError {
        String key = java.util.HexFormat.of().formatHex(name);
        FileOutput f = files.get(key);
        if (f == null) {
            f = new FileOutput(name);
            files.put(key, f);
        }
        return f;
    }

    private Expr exec(String a) throws UsageError {
        List<byte[]> template = new ArrayList<>();
        while (pos < args.size()) {
            byte[] t = args.get(pos++);
            if (Arrays.equals(t, new byte[] {';'})) {
                if (template.isEmpty()) {
                    break;
                }
                return new Actions.Exec(template, false, a.endsWith("dir"), a.startsWith("-ok"));
            }
            if (Arrays.equals(t, new byte[] {'+'}) && !template.isEmpty()
                    && Arrays.equals(template.getLast(), new byte[] {'{', '}'}) && !a.startsWith("-ok")) {
                if (template.size() == 1) {
                    break;
                }
                template.add(t);
                return new Actions.Exec(template, true, a.endsWith("dir"), false);
            }
            template.add(t);
        }
        throw new UsageError("missing argument to `" + a + "'");
    }

    private Predicates.Type type(String v) throws UsageError {
        StringBuilder letters = new StringBuilder();
        for (String t : v.split(",", -1)) {
            if (t.length() != 1 || "fdlpsbcD".indexOf(t.charAt(0)) < 0) {
                throw new UsageError(t.isEmpty() ? "Arguments to -type should contain only one letter"
                        : "Unknown argument to -type: " + t);
            }
            letters.append(t);
        }
        return new Predicates.Type(letters.toString());
    }

    private Expr size(String a) throws UsageError {
        String v = new String(arg(a), StandardCharsets.ISO_8859_1);
        Predicates.Cmp cmp = cmp(v);
        String num = strip(v);
        long unit = 512;
        if (!num.isEmpty() && !Character.isDigit(num.charAt(num.length() - 1))) {
            unit = switch (num.charAt(num.length() - 1)) {
                case 'c' -> 1;
                case 'w' -> 2;
                case 'b' -> 512;
                case 'k' -> 1024;
                case 'M' -> 1024 * 1024;
                case 'G' -> 1024L * 1024 * 1024;
                default -> throw new UsageError("invalid -size type `" + num.charAt(num.length() - 1) + "'");
            };
            num = num.substring(0, num.length() - 1);
        }
        return new Predicates.Size(cmp, parseLong(num, a, v), unit);
    }

    private Expr age(String a, Predicates.Stamp stamp, long unit) throws UsageError {
        String v = new String(arg(a), StandardCharsets.ISO_8859_1);
        Predicates.Cmp cmp = cmp(v);
        String num = strip(v);
        if (!num.matches("[0-9]+(\\.[0-9]*)?")) {
            throw new UsageError("invalid argument `" + v + "' to `" + a + "'");
        }
        return new Predicates.Age(stamp, cmp, Double.parseDouble(num), unit, now);
    }

    /**
     * {@code -used [+-]N}: days between the last status change and the last access, GNU's way
     * (a decimal number, fractions allowed; {@code +N} more than N days, {@code -N} less, {@code N}
     * in the N-th day).
     */
    private Expr used(String a) throws UsageError {
        String v = new String(arg(a), StandardCharsets.ISO_8859_1);
        Predicates.Cmp cmp = cmp(v);
        String num = strip(v).stripLeading();
        double days;
        try {
            if (num.isEmpty() || !(Character.isDigit(num.charAt(num.length() - 1)) || num.endsWith("."))
                    || num.chars().anyMatch(ch -> "0123456789.eE+-".indexOf(ch) < 0)) {
                throw new NumberFormatException(num);
            }
            days = Double.parseDouble(num);
        } catch (NumberFormatException e) {
            throw new UsageError("Invalid argument " + v + " to -used");
        }
        return new Predicates.Used(cmp, days);
    }

    private Expr owner(String a) throws UsageError {
        String v = new String(arg(a), StandardCharsets.UTF_8);
        boolean group = a.equals("-group");
        if (v.isEmpty()) {
            throw new UsageError("argument to " + a + " is empty");
        }
        Long id = group ? Accounts.get().groupId(v) : Accounts.get().userId(v);
        if (id == null && v.matches("[0-9]+")) {
            id = Long.parseLong(v);
        }
        if (id == null) {
            throw new UsageError(Quote.q(v) + " is not the name of " + (group ? "an existing group" : "a known user"));
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
            throw new UsageError("invalid mode " + Quote.q(v));
        }
        if (match == Predicates.PermMatch.ANY && mode.bits(false) == 0 && mode.bits(true) == 0) {
            warnings.add("warning: you have specified a mode pattern " + v + " (which is equivalent to /000). The meaning of"
                    + " -perm /000 has now been changed to be consistent with -perm -000; that is, while it used to match no"
                    + " files, it now matches all files.");
        }
        return new Predicates.Perm(match, mode.bits(false), mode.bits(true));
    }

    private Pattern regex(byte[] re, boolean fold) throws UsageError {
        String src = new String(re, StandardCharsets.ISO_8859_1);
        try {
            return Pattern.compile(RegexSyntax.translate(src, regexExtended), Pattern.DOTALL | (fold ? Pattern.CASE_INSENSITIVE : 0));
        } catch (PatternSyntaxException e) {
            throw new UsageError("failed to compile regular expression '" + src + "': Invalid regular expression");
        }
    }

    private int depth(String a) throws UsageError {
        String v = new String(arg(a), StandardCharsets.ISO_8859_1);
        if (!v.matches("[0-9]+")) {
            throw new UsageError("Expected a positive decimal integer argument to " + a + ", but got " + Quote.q(v));
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
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

    private static long parseLong(String num, String a, String whole) throws UsageError {
        if (!num.matches("[0-9]+")) {
            throw new UsageError("invalid argument `" + whole + "' to `" + a + "'");
        }
        try {
            return Long.parseLong(num);
        } catch (NumberFormatException e) {
            throw new UsageError("invalid argument `" + whole + "' to `" + a + "'");
        }
    }

    /** The argument of a numeric test; missing, GNU find names the test itself as the bad argument. */
    private String numericArg(String a) throws UsageError {
        if (pos >= args.size()) {
            throw new UsageError("invalid argument `" + a + "' to `" + a + "'");
        }
        return new String(args.get(pos++), StandardCharsets.ISO_8859_1);
    }

    private byte[] arg(String a) throws UsageError {
        if (pos >= args.size()) {
            throw new UsageError("missing argument to `" + a + "'");
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

    private boolean is(int i, String s) {
        byte[] a = args.get(i);
        if (a.length != s.length()) {
            return false;
        }
        for (int k = 0; k < a.length; k++) {
            if (a[k] != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private String str(int i) {
        return new String(args.get(i), StandardCharsets.UTF_8);
    }
}
