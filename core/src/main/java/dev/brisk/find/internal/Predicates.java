// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.walk.EntryType;
import dev.brisk.walk.FileStat;
import dev.brisk.walk.WalkEntry;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** find's tests: each a small {@link Expr} over an entry's name, type or attributes. Immutable. */
final class Predicates {
    private Predicates() {}

    /** A numeric comparison as find writes it: {@code +N} more than, {@code -N} less than, {@code N} exactly. */
    enum Cmp {
        LT, EQ, GT;

        /** Compares as unsigned 64-bit values, as GNU find's uintmax_t counts compare. */
        boolean test(long actual, long n) {
            return switch (this) {
                case LT -> Long.compareUnsigned(actual, n) < 0;
                case EQ -> actual == n;
                case GT -> Long.compareUnsigned(actual, n) > 0;
            };
        }
    }

    /** Where the base name of {@code e} starts; a root's is its last component, trailing slashes ignored. */
    static int nameStart(WalkEntry e) {
        return e.depth() == 0 ? rootNameStart(e) : e.nameOffset();
    }

    /** Where a root's base name ends (before trailing slashes; a lone "/" stays). */
    static int nameEnd(WalkEntry e) {
        if (e.depth() != 0) {
            return e.pathLength();
        }
        byte[] p = e.pathBuffer();
        int end = e.pathLength();
        while (end > 1 && p[end - 1] == '/') {
            end--;
        }
        return end;
    }

    private static int rootNameStart(WalkEntry e) {
        byte[] p = e.pathBuffer();
        int end = nameEnd(e);
        if (end == 1 && p[0] == '/') {
            return 0;
        }
        int i = end;
        while (i > 0 && p[i - 1] != '/') {
            i--;
        }
        return i;
    }

    static final class Name extends Expr {
        private final Glob glob;

        Name(byte[] pattern, boolean fold) {
            this.glob = new Glob(pattern, fold);
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            return glob.matches(e.pathBuffer(), nameStart(e), nameEnd(e));
        }
    }

    static final class PathGlob extends Expr {
        private final Glob glob;

        PathGlob(byte[] pattern, boolean fold) {
            this.glob = new Glob(pattern, fold);
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            return glob.matches(e.pathBuffer(), 0, e.pathLength());
        }
    }

    /** {@code -regex}: the whole path must match; bytes map one to one onto chars (ISO-8859-1). */
    static final class Regex extends Expr {
        private final Pattern pattern;

        Regex(Pattern pattern) {
            this.pattern = pattern;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            return pattern.matcher(new String(e.pathBuffer(), 0, e.pathLength(), StandardCharsets.ISO_8859_1)).matches();
        }
    }

    static final class Type extends Expr {
        private final boolean[] wanted = new boolean[EntryType.values().length];

        Type(String letters) {
            for (EntryType t : EntryType.values()) {
                wanted[t.ordinal()] = letters.indexOf(t.letter()) >= 0;
            }
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            EntryType t = e.type();
            if (t == EntryType.UNKNOWN) {
                FileStat s = e.stat();
                t = s == null ? t : s.type();
            }
            return wanted[t.ordinal()];
        }

        boolean wants(EntryType t) {
            return wanted[t.ordinal()];
        }
    }

    /**
     * {@code -xtype}: {@code -type} of what a symbolic link points to (a dangling link is still a
     * link); under {@code -L}, where the walk already reports targets, {@code -type} of the link
     * itself. Stats by path, and only entries that may be links.
     */
    static final class XType extends Expr {
        private final Type type;
        /** Whether the walk follows links (-L); set once the whole command line is parsed. */
        boolean logical;
        /** Whether roots are followed (-H): then a root is seen as under -L. */
        boolean roots;

        XType(Type type) {
            this.type = type;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            EntryType t = e.type();
            boolean logical = this.logical || (roots && e.depth() == 0);
            if (logical ? t != EntryType.SYMLINK : (t == EntryType.SYMLINK || t == EntryType.UNKNOWN)) {
                byte[] path = java.util.Arrays.copyOf(e.pathBuffer(), e.pathLength());
                FileStat s = dev.brisk.walk.Walker.stat(path, !logical);
                t = s != null ? s.type() : logical ? t : EntryType.SYMLINK;
                if (!logical && t == EntryType.SYMLINK
                        && dev.brisk.walk.Walker.followErrno(path) == dev.brisk.internal.posix.Errno.ELOOP) {
                    // as GNU find: a link in a loop has no type to test; an error, exit status 1
                    c.shared.failed = true;
                    c.message(Quote.q(path) + ": " + dev.brisk.internal.posix.Libc.strerror(dev.brisk.internal.posix.Errno.ELOOP));
                    return false;
                }
            }
            return type.wants(t);
        }
    }

    static final class Prune extends Expr {
        @Override
        boolean eval(Ctx c, WalkEntry e) {
            c.prune = true;
            return true;
        }
    }

    /** {@code -size}: the size in units of {@code unit} bytes, rounded up, compared with n. */
    static final class Size extends Expr {
        private final Cmp cmp;
        private final long n, unit;

        Size(Cmp cmp, long n, long unit) {
            this.cmp = cmp;
            this.n = n;
            this.unit = unit;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            FileStat s = e.stat();
            if (s == null) {
                return false;
            }
            long units = unit == 1 ? s.size() : (s.size() + unit - 1) / unit;
            return cmp.test(units, n);
        }
    }

    /** Which timestamp a time test reads. */
    enum Stamp { ACCESS, MODIFY, CHANGE }

    /**
     * {@code -mtime}/{@code -atime}/{@code -ctime} and {@code -mmin}/{@code -amin}/{@code -cmin},
     * as GNU find evaluates them (its {@code pred_timewindow}): against a reference time
     * ({@code refSec}, {@code refNsec}), which the parser computes as GNU does, {@code +N} is
     * "before it", {@code -N} "after it", {@code N} "within {@code window} seconds after it".
     */
    static final class Age extends Expr {
        private final Stamp stamp;
        private final Cmp cmp;
        private final long refSec, refNsec, window;

        Age(Stamp stamp, Cmp cmp, long refSec, long refNsec, long window) {
            this.stamp = stamp;
            this.cmp = cmp;
            this.refSec = refSec;
            this.refNsec = refNsec;
            this.window = window;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            FileStat s = e.stat();
            if (s == null) {
                return false;
            }
            long sec = switch (stamp) {
                case ACCESS -> s.atimeSec();
                case MODIFY -> s.mtimeSec();
                case CHANGE -> s.ctimeSec();
            };
            long nsec = switch (stamp) {
                case ACCESS -> s.atimeNsec();
                case MODIFY -> s.mtimeNsec();
                case CHANGE -> s.ctimeNsec();
            };
            return switch (cmp) {
                case GT -> sec < refSec || (sec == refSec && nsec < refNsec);
                case LT -> sec > refSec || (sec == refSec && nsec > refNsec);
                case EQ -> {
                    double delta = ((double) sec - (double) refSec) + 1.0e-9 * (nsec - refNsec);
                    yield delta > 0.0 && delta <= window;
                }
            };
        }
    }

    /**
     * {@code -used [+-]N}: the time from the last status change to the last access, in days, as
     * GNU find measures it: {@code +N} more than N days, {@code -N} less than N days, {@code N}
     * at least N-1 and less than N days; a file accessed before its last change never matches.
     */
    static final class Used extends Expr {
        private static final long DAY = 86_400_000_000_000L;
        private final Cmp cmp;
        /** N days in nanoseconds, cut to whole nanoseconds as GNU cuts them. */
        private final long limit;

        Used(Cmp cmp, double days) {
            this.cmp = cmp;
            double seconds = days * 86400;
            double whole = seconds < 0 ? Math.ceil(seconds) : Math.floor(seconds);
            long l;
            if (Math.abs(whole) >= 9.2e9) {
                l = whole < 0 ? Long.MIN_VALUE / 2 : Long.MAX_VALUE / 2;
            } else {
                l = (long) whole * 1_000_000_000L + (long) ((seconds - whole) * 1e9);
            }
            this.limit = l;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            FileStat s = e.stat();
            if (s == null) {
                return false;
            }
            long delta = (s.atimeSec() - s.ctimeSec()) * 1_000_000_000L + (s.atimeNsec() - s.ctimeNsec());
            if (delta < 0) {
                return false;
            }
            return switch (cmp) {
                case GT -> delta > limit;
                case LT -> delta < limit;
                case EQ -> delta < limit && delta >= limit - DAY;
            };
        }
    }

    /** {@code -readable}, {@code -writable}, {@code -executable}: access(2) for the real user. */
    static final class Access extends Expr {
        private final int mode;

        Access(int mode) {
            this.mode = mode;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            return dev.brisk.internal.posix.PathCalls.access(e.pathBuffer(), e.pathLength(), mode);
        }
    }

    /** {@code -samefile}: the entry is the file (device and inode) {@code -samefile} named. */
    static final class SameFile extends Expr {
        private final long dev, ino;

        SameFile(long dev, long ino) {
            this.dev = dev;
            this.ino = ino;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            FileStat s = e.stat();
            return s != null && s.ino() == ino && s.dev() == dev;
        }
    }

    /**
     * {@code -lname}/{@code -ilname}: a symbolic link whose target matches the pattern. Under
     * {@code -L} only dangling links are still links, as in GNU find.
     */
    static final class LinkName extends Expr {
        private final Glob glob;

        LinkName(byte[] pattern, boolean fold) {
            this.glob = new Glob(pattern, fold);
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            if (e.type() != EntryType.SYMLINK) {
                return false;
            }
            byte[] t = e.readLink();
            return t != null && glob.matches(t, 0, t.length);
        }
    }

    /** {@code -newer} and its kin: the entry's access (a), change (c) or modification (m) time later than a given instant. */
    static final class Newer extends Expr {
        private final char which;
        private final long sec;
        private final int nsec;

        Newer(char which, long sec, int nsec) {
            this.which = which;
            this.sec = sec;
            this.nsec = nsec;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            FileStat s = e.stat();
            if (s == null) {
                return false;
            }
            long es = which == 'a' ? s.atimeSec() : which == 'c' ? s.ctimeSec() : s.mtimeSec();
            int en = which == 'a' ? s.atimeNsec() : which == 'c' ? s.ctimeNsec() : s.mtimeNsec();
            return es > sec || (es == sec && en > nsec);
        }
    }

    /** How {@code -perm} compares: exactly, all of the bits ({@code -MODE}), or any of them ({@code /MODE}). */
    enum PermMatch { EXACT, ALL, ANY }

    static final class Perm extends Expr {
        private final PermMatch match;
        /** The bits asked for of a file, and of a directory (they differ by {@code X} and set-id bits). */
        private final int fileMode, dirMode;

        Perm(PermMatch match, int fileMode, int dirMode) {
            this.match = match;
            this.fileMode = fileMode;
            this.dirMode = dirMode;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            FileStat s = e.stat();
            if (s == null) {
                return false;
            }
            int m = s.permissions();
            int mode = s.type() == EntryType.DIRECTORY ? dirMode : fileMode;
            return switch (match) {
                case EXACT -> m == mode;
                case ALL -> (m & mode) == mode;
                case ANY -> mode == 0 || (m & mode) != 0;
            };
        }
    }

    /** {@code -user}, {@code -group} (an id), {@code -nouser}, {@code -nogroup} (an id with no name). */
    static final class Owner extends Expr {
        private final boolean group;
        private final long id;
        private final Accounts accounts;

        /** {@code accounts} non-null means "no name for the id" (-nouser/-nogroup). */
        Owner(boolean group, long id, Accounts accounts) {
            this.group = group;
            this.id = id;
            this.accounts = accounts;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            FileStat s = e.stat();
            if (s == null) {
                return false;
            }
            long actual = Integer.toUnsignedLong(group ? s.gid() : s.uid());
            if (accounts != null) {
                return (group ? accounts.groupName(actual) : accounts.userName(actual)) == null;
            }
            return actual == id;
        }
    }

    static final class Links extends Expr {
        private final Cmp cmp;
        private final long n;

        Links(Cmp cmp, long n) {
            this.cmp = cmp;
            this.n = n;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            FileStat s = e.stat();
            return s != null && cmp.test(s.nlink(), n);
        }
    }

    /** {@code -inum}, {@code -uid}, {@code -gid} ({@code which} is i, u or g): the inode number or owner id compared with n. */
    static final class Ident extends Expr {
        private final char which;
        private final Cmp cmp;
        private final long n;

        Ident(char which, Cmp cmp, long n) {
            this.which = which;
            this.cmp = cmp;
            this.n = n;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            FileStat s = e.stat();
            if (s == null) {
                return false;
            }
            long v = switch (which) {
                case 'i' -> s.ino();
                case 'u' -> Integer.toUnsignedLong(s.uid());
                default -> Integer.toUnsignedLong(s.gid());
            };
            return cmp.test(v, n);
        }
    }

    /** {@code -fstype TYPE}: the entry is on a file system of that type, by the name {@code %F} prints. */
    static final class FsType extends Expr {
        private final String type;

        FsType(String type) {
            this.type = type;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            FileStat s = e.stat();
            return s != null && c.shared.fileSystemType(s.dev()).equals(type);
        }
    }

    static final class Empty extends Expr {
        @Override
        boolean eval(Ctx c, WalkEntry e) {
            EntryType t = e.type();
            if (t == EntryType.DIRECTORY) {
                return e.isEmptyDirectory();
            }
            if (t == EntryType.FILE) {
                FileStat s = e.stat();
                return s != null && s.size() == 0;
            }
            return false;
        }
    }
}
