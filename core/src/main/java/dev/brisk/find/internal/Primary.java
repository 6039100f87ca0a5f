// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * find's parse table, after bfs's {@code parse_table}: one row per word that find's command line
 * knows (the options before the roots, then the expression's operators, options, tests and
 * actions), with its kind, its argument and a line of help. {@link Parser} looks each word up
 * here and dispatches on the row; {@code brisk find --help}, brisk-find(1), the shell completions
 * and the list in docs/FIND.md are rendered from the rows, so a word is declared once. The rows
 * are in the order the help lists them, grouped by kind. Immutable; the lookups are two maps
 * built once, when the parser first needs them (small: this class loads at every find's start).
 */
public enum Primary {
    ROOTS("-H", Kind.FLAG, null, "follow symbolic links given as roots, not those met below them"),
    LOGICAL("-L", Kind.FLAG, null, "follow every symbolic link (grouped, as -HL, the last letter wins)"),
    PHYSICAL("-P", Kind.FLAG, null, "follow no symbolic link (the default)"),
    DEBUG_FLAGS("-D", Kind.FLAG, "FLAGS", "GNU's debug flags, comma-separated: checked, then ignored; -D help lists them"),
    OPTIMISE("-O", Kind.FLAG, "LEVEL", true, "GNU's optimisation level, as -O3: checked, then ignored"),
    DEBUG("--debug", Kind.FLAG, null, "say which engine walks (the native one, or the portable java.nio fallback)"),
    THREADS("--threads=", Kind.FLAG, "N", true, "the walker's threads (default: one per core; 1 walks in find's order)"),
    ENGINE("--engine=", Kind.FLAG, "auto|native|portable", true, "force an engine"),
    END_OF_OPTIONS("--", Kind.FLAG, null, "the end of the options (find -- -name walks .)"),

    OPEN("(", Kind.OPERATOR, null, "group: ( EXPR )"),
    CLOSE(")", Kind.OPERATOR, null, "end of a group"),
    NOT("!", Kind.OPERATOR, null, "negate the next expression (also -not)"),
    NOT_WORD("-not", Kind.OPERATOR, null, "negate the next expression"),
    AND("-a", Kind.OPERATOR, null, "and (the default between two expressions; also -and)"),
    AND_WORD("-and", Kind.OPERATOR, null, "and"),
    OR("-o", Kind.OPERATOR, null, "or (also -or)"),
    OR_WORD("-or", Kind.OPERATOR, null, "or"),
    COMMA(",", Kind.OPERATOR, null, "evaluate both, yield the right one"),

    MAXDEPTH("-maxdepth", Kind.OPTION, "N", "descend at most N levels below the roots"),
    MINDEPTH("-mindepth", Kind.OPTION, "N", "apply the expression only at depth N and below"),
    DEPTH("-depth", Kind.OPTION, null, "visit a directory's entries before the directory (also -d)"),
    D("-d", Kind.OPTION, null, "as -depth"),
    XDEV("-xdev", Kind.OPTION, null, "stay on the roots' file systems (also -mount)"),
    MOUNT("-mount", Kind.OPTION, null, "as -xdev"),
    FILES0_FROM("-files0-from", Kind.OPTION, "FILE", "read the roots from FILE, NUL-separated (- for stdin)"),
    NOLEAF("-noleaf", Kind.OPTION, null, "accepted and ignored, as GNU find"),
    IGNORE_READDIR_RACE("-ignore_readdir_race", Kind.OPTION, null, "accepted and ignored"),
    NOIGNORE_READDIR_RACE("-noignore_readdir_race", Kind.OPTION, null, "accepted and ignored"),

    FOLLOW("-follow", Kind.POSITIONAL_OPTION, null, "follow symbolic links (as -L)"),
    DAYSTART("-daystart", Kind.POSITIONAL_OPTION, null, "measure -mtime and friends from the start of today"),
    REGEXTYPE("-regextype", Kind.POSITIONAL_OPTION, "TYPE",
            "the syntax of later -regex tests: findutils-default, emacs, posix-basic, posix-extended, ... as GNU find"),
    WARN("-warn", Kind.POSITIONAL_OPTION, null, "print GNU's warnings (the default when stdin is a terminal)"),
    NOWARN("-nowarn", Kind.POSITIONAL_OPTION, null, "print no warnings"),

    NAME("-name", Kind.TEST, "PATTERN", "the base name matches the glob PATTERN"),
    INAME("-iname", Kind.TEST, "PATTERN", "as -name, ignoring case"),
    PATH("-path", Kind.TEST, "PATTERN", "the whole path matches the glob PATTERN (also -wholename)"),
    IPATH("-ipath", Kind.TEST, "PATTERN", "as -path, ignoring case (also -iwholename)"),
    WHOLENAME("-wholename", Kind.TEST, "PATTERN", "as -path"),
    IWHOLENAME("-iwholename", Kind.TEST, "PATTERN", "as -ipath"),
    REGEX("-regex", Kind.TEST, "REGEX", "the whole path matches REGEX"),
    IREGEX("-iregex", Kind.TEST, "REGEX", "as -regex, ignoring case"),
    TYPE("-type", Kind.TEST, "TYPES", "the file type is one of TYPES (b c d p f l s, comma-separated)"),
    XTYPE("-xtype", Kind.TEST, "TYPES", "as -type, for the target of a symbolic link"),
    EMPTY("-empty", Kind.TEST, null, "an empty file or directory"),
    SIZE("-size", Kind.TEST, "[+-]N[cwbkMG]", "the size, rounded up to the unit, is (more, less than) N"),
    MTIME("-mtime", Kind.TEST, "[+-]N", "modified N days ago"),
    ATIME("-atime", Kind.TEST, "[+-]N", "accessed N days ago"),
    CTIME("-ctime", Kind.TEST, "[+-]N", "status changed N days ago"),
    MMIN("-mmin", Kind.TEST, "[+-]N", "modified N minutes ago"),
    AMIN("-amin", Kind.TEST, "[+-]N", "accessed N minutes ago"),
    CMIN("-cmin", Kind.TEST, "[+-]N", "status changed N minutes ago"),
    USED("-used", Kind.TEST, "[+-]N", "accessed N days after its status last changed"),
    NEWER("-newer", Kind.TEST, "FILE", "modified more recently than FILE"),
    ANEWER("-anewer", Kind.TEST, "FILE", "accessed more recently than FILE was modified"),
    CNEWER("-cnewer", Kind.TEST, "FILE", "status changed more recently than FILE was modified"),
    /** A family of 20 words ({@link #words()}): X one of {@link #NEWER_X}, Y one of {@link #NEWER_Y}. */
    NEWER_XY("-newerXY", Kind.TEST, "REF", "time X (a B c m) newer than REF's time Y (a B c m), or than the date REF (Y = t)"),
    PERM("-perm", Kind.TEST, "MODE", "permission bits: exactly MODE, all of -MODE, any of /MODE"),
    USER("-user", Kind.TEST, "NAME", "owned by the user NAME (or uid)"),
    GROUP("-group", Kind.TEST, "NAME", "owned by the group NAME (or gid)"),
    UID("-uid", Kind.TEST, "[+-]N", "owned by user id N"),
    GID("-gid", Kind.TEST, "[+-]N", "owned by group id N"),
    NOUSER("-nouser", Kind.TEST, null, "no user has its uid"),
    NOGROUP("-nogroup", Kind.TEST, null, "no group has its gid"),
    LINKS("-links", Kind.TEST, "[+-]N", "has N hard links"),
    INUM("-inum", Kind.TEST, "[+-]N", "has inode number N"),
    SAMEFILE("-samefile", Kind.TEST, "FILE", "is the same file as FILE"),
    LNAME("-lname", Kind.TEST, "PATTERN", "a symbolic link whose target matches PATTERN"),
    ILNAME("-ilname", Kind.TEST, "PATTERN", "as -lname, ignoring case"),
    FSTYPE("-fstype", Kind.TEST, "TYPE", "on a file system of TYPE (the name %F prints)"),
    READABLE("-readable", Kind.TEST, null, "readable by the real user (access(2))"),
    WRITABLE("-writable", Kind.TEST, null, "writable by the real user"),
    EXECUTABLE("-executable", Kind.TEST, null, "executable (or searchable) by the real user"),
    CONTEXT("-context", Kind.TEST, "PATTERN", "SELinux context; refused without SELinux, as GNU find"),
    TRUE("-true", Kind.TEST, null, "always true"),
    FALSE("-false", Kind.TEST, null, "always false"),

    PRINT("-print", Kind.ACTION, null, "print the path and a newline (the default action)"),
    PRINT0("-print0", Kind.ACTION, null, "print the path and a NUL byte"),
    PRINTF("-printf", Kind.ACTION, "FORMAT", "print FORMAT (%p path, %f name, %s size, %m mode, ... as GNU find)"),
    FPRINT("-fprint", Kind.ACTION, "FILE", "as -print, into FILE"),
    FPRINT0("-fprint0", Kind.ACTION, "FILE", "as -print0, into FILE"),
    FPRINTF("-fprintf", Kind.ACTION, "FILE FORMAT", "as -printf, into FILE"),
    LS("-ls", Kind.ACTION, null, "list in ls -dils format"),
    FLS("-fls", Kind.ACTION, "FILE", "as -ls, into FILE"),
    EXEC("-exec", Kind.ACTION, "COMMAND ;", "run COMMAND ({} is the path); true when it exits 0; or COMMAND {} + for batches"),
    EXECDIR("-execdir", Kind.ACTION, "COMMAND ;", "as -exec, in the entry's directory"),
    OK("-ok", Kind.ACTION, "COMMAND ;", "as -exec, after asking on the terminal"),
    OKDIR("-okdir", Kind.ACTION, "COMMAND ;", "as -execdir, after asking"),
    DELETE("-delete", Kind.ACTION, null, "delete the entry (implies -depth)"),
    PRUNE("-prune", Kind.ACTION, null, "do not descend into this directory"),
    QUIT("-quit", Kind.ACTION, null, "stop at once");

    /** Where a word belongs in find's command line, after GNU's and bfs's grouping. */
    public enum Kind {
        /** Before the roots ({@code -L}, {@code --threads=N}); not a word of the expression. */
        FLAG("Options before the roots"),
        OPERATOR("Operators"),
        /** GNU's global options: they apply to the whole expression, and warn when they follow a test, action or operator. */
        OPTION("Global options"),
        /** GNU's positional options: they apply to the tests after them, and never warn. */
        POSITIONAL_OPTION("Positional options"),
        TEST("Tests"),
        ACTION("Actions");

        private final String title;

        Kind(String title) {
            this.title = title;
        }

        /** The heading the help and the manual list this kind's words under. */
        public String title() {
            return title;
        }
    }

    /** The letters X and Y of {@code -newerXY}: the entry's time, and REF's time ({@code t}: REF is a date). */
    static final String NEWER_X = "aBcm", NEWER_Y = "aBcmt";

    private static final Map<String, Primary> FLAGS = new HashMap<>(16), EXPRESSION = new HashMap<>(128);
    /** The options whose argument is attached, which {@link #flag} matches by prefix. */
    private static final Primary[] ATTACHED;

    static {
        Primary[] rows = values();
        int attached = 0;
        for (Primary p : rows) {
            if (p != NEWER_XY) { // its 20 words are recognised by their letters, not made at every start
                (p.kind == Kind.FLAG ? FLAGS : EXPRESSION).put(p.word, p);
            }
            attached += p.attached ? 1 : 0;
        }
        ATTACHED = new Primary[attached];
        for (Primary p : rows) {
            if (p.attached) {
                ATTACHED[--attached] = p;
            }
        }
    }

    private final String word;
    private final Kind kind;
    private final String arg;
    private final boolean attached;
    private final String help;

    Primary(String word, Kind kind, String arg, String help) {
        this(word, kind, arg, false, help);
    }

    Primary(String word, Kind kind, String arg, boolean attached, String help) {
        this.word = word;
        this.kind = kind;
        this.arg = arg;
        this.attached = attached;
        this.help = help;
    }

    /** The word as the help shows it ({@code -newerXY} for its family). */
    public String word() {
        return word;
    }

    public Kind kind() {
        return kind;
    }

    /** Its argument's name ({@code FILE} where it is a file name), or null for none. */
    public String arg() {
        return arg;
    }

    /** Whether the argument is part of the word itself ({@code -O3}, {@code --threads=4}), not the next word. */
    public boolean attached() {
        return attached;
    }

    /** One line: what it does. */
    public String help() {
        return help;
    }

    /** The word with its argument as a user types it: {@code -maxdepth N}, {@code --threads=N}. */
    public String usage() {
        return arg == null ? word : attached ? word + arg : word + " " + arg;
    }

    /** Every word a user can type for this row: {@code -newerXY} spelled out ({@code -newerma}, ...), else the word. */
    public List<String> words() {
        if (this != NEWER_XY) {
            return List.of(word);
        }
        List<String> out = new ArrayList<>(NEWER_X.length() * NEWER_Y.length());
        for (int x = 0; x < NEWER_X.length(); x++) {
            for (int y = 0; y < NEWER_Y.length(); y++) {
                out.add("-newer" + NEWER_X.charAt(x) + NEWER_Y.charAt(y));
            }
        }
        return out;
    }

    /**
     * The option before the roots that {@code word} is (for one whose argument is attached,
     * {@code word} starts with it: {@code -O3}), or null.
     */
    static Primary flag(String word) {
        Primary p = FLAGS.get(word);
        if (p != null) {
            return p;
        }
        for (Primary f : ATTACHED) {
            if (word.startsWith(f.word)) {
                return f;
            }
        }
        return null;
    }

    /** The operator, option, test or action that {@code word} is, or null (GNU's unknown predicate). */
    static Primary expression(String word) {
        Primary p = EXPRESSION.get(word);
        if (p == null && word.length() == 8 && word.startsWith("-newer") && NEWER_X.indexOf(word.charAt(6)) >= 0
                && NEWER_Y.indexOf(word.charAt(7)) >= 0) {
            return NEWER_XY;
        }
        return p;
    }
}
