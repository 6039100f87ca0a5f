// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.util.List;

/**
 * {@code brisk find}'s expression words (operators, options, tests, actions) with their argument
 * and a one-line meaning: the one list that {@code brisk-find(1)} and the shell completions are
 * generated from. find's syntax is parsed by the library's own parser, not picocli, so picocli's
 * model cannot describe it; {@code FindPrimariesTest} checks this list against the parser's
 * source and against the running {@code brisk find}, so a primary added to one and not the other
 * fails the build. Not loaded by {@code brisk find} itself (its start-up stays as it was).
 */
final class FindPrimaries {
    private FindPrimaries() {}

    /** Where a word belongs in find's grammar. */
    enum Kind {
        OPERATOR("Operators"), OPTION("Options"), TEST("Tests"), ACTION("Actions");

        final String title;

        Kind(String title) {
            this.title = title;
        }
    }

    /**
     * One expression word; {@code arg} names its argument ({@code null} for none; {@code FILE}
     * where a file name is expected, which the completions complete as one).
     */
    record Primary(Kind kind, String name, String arg, String help) {}

    /** The words, in the order the manual lists them. */
    static final List<Primary> ALL = List.of(
            op("(", null, "group: ( EXPR )"),
            op(")", null, "end of a group"),
            op("!", null, "negate the next expression (also -not)"),
            op("-not", null, "negate the next expression"),
            op("-a", null, "and (the default between two expressions; also -and)"),
            op("-and", null, "and"),
            op("-o", null, "or (also -or)"),
            op("-or", null, "or"),
            op(",", null, "evaluate both, yield the right one"),
            opt("-maxdepth", "N", "descend at most N levels below the roots"),
            opt("-mindepth", "N", "apply the expression only at depth N and below"),
            opt("-depth", null, "visit a directory's entries before the directory (also -d)"),
            opt("-d", null, "as -depth"),
            opt("-xdev", null, "stay on the roots' file systems (also -mount)"),
            opt("-mount", null, "as -xdev"),
            opt("-follow", null, "follow symbolic links (as -L)"),
            opt("-daystart", null, "measure -mtime and friends from the start of today"),
            opt("-regextype", "TYPE", "the regular-expression syntax of later -regex tests"),
            opt("-files0-from", "FILE", "read the roots from FILE, NUL-separated (- for stdin)"),
            opt("-noleaf", null, "accepted and ignored, as GNU find"),
            opt("-ignore_readdir_race", null, "accepted and ignored"),
            opt("-noignore_readdir_race", null, "accepted and ignored"),
            opt("-warn", null, "accepted and ignored"),
            opt("-nowarn", null, "accepted and ignored"),
            test("-name", "PATTERN", "the base name matches the glob PATTERN"),
            test("-iname", "PATTERN", "as -name, ignoring case"),
            test("-path", "PATTERN", "the whole path matches the glob PATTERN (also -wholename)"),
            test("-ipath", "PATTERN", "as -path, ignoring case (also -iwholename)"),
            test("-wholename", "PATTERN", "as -path"),
            test("-iwholename", "PATTERN", "as -ipath"),
            test("-regex", "REGEX", "the whole path matches REGEX"),
            test("-iregex", "REGEX", "as -regex, ignoring case"),
            test("-type", "TYPES", "the file type is one of TYPES (b c d p f l s D, comma-separated)"),
            test("-xtype", "TYPES", "as -type, for the target of a symbolic link"),
            test("-empty", null, "an empty file or directory"),
            test("-size", "[+-]N[cwbkMG]", "the size, rounded up to the unit, is (more, less than) N"),
            test("-mtime", "[+-]N", "modified N days ago"),
            test("-atime", "[+-]N", "accessed N days ago"),
            test("-ctime", "[+-]N", "status changed N days ago"),
            test("-mmin", "[+-]N", "modified N minutes ago"),
            test("-amin", "[+-]N", "accessed N minutes ago"),
            test("-cmin", "[+-]N", "status changed N minutes ago"),
            test("-used", "[+-]N", "accessed N days after its status last changed"),
            test("-newer", "FILE", "modified more recently than FILE"),
            test("-anewer", "FILE", "accessed more recently than FILE was modified"),
            test("-cnewer", "FILE", "status changed more recently than FILE was modified"),
            test("-newerXY", "REF", "time X (a B c m) newer than REF's time Y (a B c m), or than the date REF (Y = t)"),
            test("-perm", "MODE", "permission bits: exactly MODE, all of -MODE, any of /MODE"),
            test("-user", "NAME", "owned by the user NAME (or uid)"),
            test("-group", "NAME", "owned by the group NAME (or gid)"),
            test("-uid", "N", "owned by user id N"),
            test("-gid", "N", "owned by group id N"),
            test("-nouser", null, "no user has its uid"),
            test("-nogroup", null, "no group has its gid"),
            test("-links", "[+-]N", "has N hard links"),
            test("-inum", "[+-]N", "has inode number N"),
            test("-samefile", "FILE", "is the same file as FILE"),
            test("-lname", "PATTERN", "a symbolic link whose target matches PATTERN"),
            test("-ilname", "PATTERN", "as -lname, ignoring case"),
            test("-fstype", "TYPE", "on a file system of TYPE"),
            test("-readable", null, "readable by the real user (access(2))"),
            test("-writable", null, "writable by the real user"),
            test("-executable", null, "executable (or searchable) by the real user"),
            test("-context", "PATTERN", "SELinux context; refused without SELinux, as GNU find"),
            test("-true", null, "always true"),
            test("-false", null, "always false"),
            act("-print", null, "print the path and a newline (the default action)"),
            act("-print0", null, "print the path and a NUL byte"),
            act("-printf", "FORMAT", "print FORMAT (%p path, %f name, %s size, %m mode, ... as GNU find)"),
            act("-fprint", "FILE", "as -print, into FILE"),
            act("-fprint0", "FILE", "as -print0, into FILE"),
            act("-fprintf", "FILE", "as -printf, into FILE (then FORMAT)"),
            act("-ls", null, "list in ls -dils format"),
            act("-fls", "FILE", "as -ls, into FILE"),
            act("-exec", "COMMAND ;", "run COMMAND ({} is the path); true when it exits 0; or COMMAND {} + for batches"),
            act("-execdir", "COMMAND ;", "as -exec, in the entry's directory"),
            act("-ok", "COMMAND ;", "as -exec, after asking on the terminal"),
            act("-okdir", "COMMAND ;", "as -execdir, after asking"),
            act("-delete", null, "delete the entry (implies -depth)"),
            act("-prune", null, "do not descend into this directory"),
            act("-quit", null, "stop at once"));

    /** Every word a user can type, {@code -newerXY} spelled out (-newerma, -newermt, ...). */
    static List<String> words() {
        List<String> out = new java.util.ArrayList<>();
        for (Primary p : ALL) {
            if (p.name().equals("-newerXY")) {
                for (char x : "aBcm".toCharArray()) {
                    for (char y : "aBcmt".toCharArray()) {
                        out.add("-newer" + x + y);
                    }
                }
            } else {
                out.add(p.name());
            }
        }
        return out;
    }

    /** The words whose argument is a file name. */
    static List<String> takingFiles() {
        return ALL.stream().filter(p -> "FILE".equals(p.arg())).map(Primary::name).toList();
    }

    /** The words that take an argument (the next word is not an expression word). */
    static List<String> takingArgs() {
        return ALL.stream().filter(p -> p.arg() != null && !p.arg().startsWith("COMMAND")).map(Primary::name).toList();
    }

    private static Primary op(String name, String arg, String help) {
        return new Primary(Kind.OPERATOR, name, arg, help);
    }

    private static Primary opt(String name, String arg, String help) {
        return new Primary(Kind.OPTION, name, arg, help);
    }

    private static Primary test(String name, String arg, String help) {
        return new Primary(Kind.TEST, name, arg, help);
    }

    private static Primary act(String name, String arg, String help) {
        return new Primary(Kind.ACTION, name, arg, help);
    }
}
