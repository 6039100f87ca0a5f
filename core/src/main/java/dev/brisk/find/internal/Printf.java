// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.walk.EntryType;
import dev.brisk.walk.FileStat;
import dev.brisk.walk.WalkEntry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A compiled {@code -printf} format: literal bytes, backslash escapes and GNU find's {@code %}
 * directives ({@code %a %A %b %c %C %d %D %f %F %g %G %h %H %i %k %l %m %M %n %p %P %s %S %t %T
 * %u %U %y %Y %Z}, the time ones with a strftime letter or {@code @}), with flags, width and
 * precision applied as GNU find's C {@code printf} applies them ({@link CFormat}). Immutable and
 * thread-safe.
 */
final class Printf {
    /** The formats, made on first use: loading time zones costs a cold JVM milliseconds, and most formats print no time. */
    private static final class Zone {
        static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT);
    }

    private record Piece(byte[] literal, char conv, char sub, String flags, int width, int precision, boolean stop) {}

    /** A width this large is written out in chunks rather than built in one array. */
    private static final int CHUNKED = 1 << 20;
    /** The width of a directive whose width or precision does not fit C's int. */
    private static final int OVERFLOW = -1;
    private static final long TOO_LARGE = 1L << 40;
    private static final byte[] BLANKS = new byte[4096], ZEROS = new byte[4096];

    static {
        java.util.Arrays.fill(BLANKS, (byte) ' ');
        java.util.Arrays.fill(ZEROS, (byte) '0');
    }

    private final List<Piece> pieces;
    /** The zone times are shown in; null when the format shows none. */
    private final ZoneId zone;

    private Printf(List<Piece> pieces, Supplier<ZoneId> zone) {
        this.pieces = pieces;
        boolean times = false;
        for (Piece p : pieces) {
            times |= "aAcCtT".indexOf(p.conv) >= 0;
        }
        this.zone = times ? zone.get() : null;
    }

    /**
     * Compiles {@code f}; throws IllegalArgumentException with GNU find's message for a format
     * GNU refuses, and adds GNU's warnings (an unknown escape or directive, kept as text) to
     * {@code warnings}. Times are shown in {@code zone}, asked for only when the format shows one.
     */
    static Printf compile(byte[] f, List<String> warnings, Supplier<ZoneId> zone) {
        List<Piece> out = new ArrayList<>();
        ByteArrayOutputStream lit = new ByteArrayOutputStream();
        for (int i = 0; i < f.length; i++) {
            int b = f[i] & 0xff;
            if (b == '\\' && i + 1 < f.length) {
                int c = f[++i] & 0xff;
                switch (c) {
                    case 'a' -> lit.write(7);
                    case 'b' -> lit.write(8);
                    case 'f' -> lit.write(12);
                    case 'n' -> lit.write('\n');
                    case 'r' -> lit.write('\r');
                    case 't' -> lit.write('\t');
                    case 'v' -> lit.write(11);
                    case '\\' -> lit.write('\\');
                    case 'c' -> {
                        flushLiteral(out, lit);
                        out.add(new Piece(null, '\0', '\0', "", 0, -1, true));
                        return new Printf(out, zone);
                    }
                    default -> {
                        if (c >= '0' && c <= '7') {
                            int v = 0, k = 0;
                            while (k < 3 && i < f.length && f[i] >= '0' && f[i] <= '7') {
                                v = v * 8 + (f[i] - '0');
                                i++;
                                k++;
                            }
                            i--;
                            lit.write(v);
                        } else {
                            warnings.add("warning: unrecognized escape `\\" + (char) c + "'");
                            lit.write('\\');
                            lit.write(c);
                        }
                    }
                }
            } else if (b == '%') {
                if (i + 1 >= f.length) {
                    throw new IllegalArgumentException("error: % at end of format string");
                }
                int j = i + 1;
                while (j < f.length && "-+ #".indexOf(f[j]) >= 0) {
                    j++;
                }
                // GNU find's flags are these four; a 0 is the width's first digit (C reads it as
                // the 0 flag), so "%0+d" is the unknown directive "%0+" followed by "d"
                String flags = new String(f, i + 1, j - i - 1, StandardCharsets.ISO_8859_1)
                        + (j < f.length && f[j] == '0' ? "0" : "");
                long w = 0;
                while (j < f.length && f[j] >= '0' && f[j] <= '9') {
                    w = Math.min(w * 10 + (f[j++] - '0'), TOO_LARGE);
                }
                long prec = -1;
                if (j < f.length && f[j] == '.') {
                    j++;
                    prec = 0;
                    while (j < f.length && f[j] >= '0' && f[j] <= '9') {
                        prec = Math.min(prec * 10 + (f[j++] - '0'), TOO_LARGE);
                    }
                }
                // beyond an int, C's printf fails with EOVERFLOW and GNU find reports it at the end
                int width = w > Integer.MAX_VALUE || prec > Integer.MAX_VALUE ? OVERFLOW : (int) w;
                int precision = (int) Math.min(prec, Integer.MAX_VALUE);
                if (j >= f.length) {
                    throw new IllegalArgumentException("error: the format directive `%\0' is reserved for future use"); // GNU prints the NUL
                }
                // the directive as written, up to its letter: GNU prints it back for %% and unknown letters
                byte[] spec = java.util.Arrays.copyOfRange(f, i, j);
                char conv = (char) (f[j] & 0xff);
                char sub = '\0';
                i = j;
                if (conv == '%') {
                    lit.writeBytes(spec);
                    continue;
                }
                if (conv == '{' || conv == '[' || conv == '(') {
                    throw new IllegalArgumentException("error: the format directive `%" + conv + "' is reserved for future use");
                }
                if (conv == 'T' || conv == 'A' || conv == 'C') {
                    if (j + 1 >= f.length) {
                        warnings.add("warning: format directive `%" + conv + "' should be followed by another character");
                        lit.writeBytes(spec);
                        lit.write(conv);
                        continue;
                    }
                    sub = (char) (f[++j] & 0xff);
                    i = j;
                }
                if ("aAbcCdDfFgGhHiklmMnpPsStTuUyYZ".indexOf(conv) < 0) {
                    warnings.add("warning: unrecognized format directive `%" + conv + "'");
                    lit.writeBytes(spec);
                    lit.write(conv);
                    continue;
                }
                flushLiteral(out, lit);
                out.add(new Piece(null, conv, sub, flags, width, precision, false));
            } else {
                if (b == '\\') {
                    warnings.add("warning: escape `\\' followed by nothing at all");
                }
                lit.write(b);
            }
        }
        flushLiteral(out, lit);
        return new Printf(out, zone);
    }

    private static void flushLiteral(List<Piece> out, ByteArrayOutputStream lit) {
        if (lit.size() > 0) {
            out.add(new Piece(lit.toByteArray(), '\0', '\0', "", 0, -1, false));
            lit.reset();
        }
    }

    void print(Ctx c, WalkEntry e) {
        for (Piece p : pieces) {
            if (p.stop) {
                c.flush();
                return;
            }
            if (p.literal != null) {
                c.write(p.literal, 0, p.literal.length);
                continue;
            }
            if (p.width == OVERFLOW) {
                c.shared.outputTooLarge = true; // prints nothing, as C's printf
                continue;
            }
            if (p.width > CHUNKED || ((p.conv == 'd' || p.conv == 'm') && p.precision > CHUNKED)) {
                printWide(c, e, p);
                continue;
            }
            byte[] v = format(c, e, p, p.width, p.precision);
            c.write(v, 0, v.length);
        }
    }

    private byte[] format(Ctx c, WalkEntry e, Piece p, int width, int precision) {
        if (p.conv == 'd') {
            return CFormat.decimal(e.depth(), p.flags, width, precision);
        }
        if (p.conv == 'm' || p.conv == 'S') {
            FileStat s = e.stat();
            if (s == null) {
                return CFormat.string(new byte[0], p.flags, width, precision);
            }
            return p.conv == 'm' ? CFormat.octal(s.permissions(), p.flags, width, precision)
                    : CFormat.general(sparseness(s), p.flags, width, precision);
        }
        return CFormat.string(value(c, e, p), p.flags, width, precision);
    }

    /** GNU find's {@code %S}: allocated bytes over the size; 1 for an empty file without blocks. */
    private static double sparseness(FileStat s) {
        if (s.size() == 0) {
            return s.blocks() == 0 ? 1.0 : s.blocks() < 0 ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return 512.0 * s.blocks() / s.size();
    }

    /**
     * A directive with a width or a number's precision of megabytes or more: the value formatted
     * without them, then the zeros and blanks written in chunks, where C's printf puts them.
     */
    private void printWide(Ctx c, WalkEntry e, Piece p) {
        boolean numeric = p.conv == 'd' || p.conv == 'm';
        int precision = numeric ? -1 : p.precision;
        byte[] v = format(c, e, p, 0, precision);
        int sign = numeric && v.length > 0 && (v[0] == '-' || v[0] == '+' || v[0] == ' ') ? 1 : 0;
        long digits = v.length - sign;
        long zeros = numeric && p.precision > digits ? p.precision - digits : 0;
        if (numeric && p.precision == 0 && digits == 1 && v[sign] == '0') {
            digits = 0; // C prints no digit for 0 at precision 0
        }
        long body = sign + zeros + digits;
        boolean left = p.flags.indexOf('-') >= 0;
        if (numeric && !left && p.precision < 0 && p.flags.indexOf('0') >= 0 && p.width > body) {
            zeros += p.width - body; // the 0 flag pads with zeros after the sign
            body = p.width;
        }
        long blanks = Math.max(0, (long) p.width - body);
        if (!left) {
            repeat(c, BLANKS, blanks);
        }
        c.write(v, 0, sign);
        repeat(c, ZEROS, zeros);
        c.write(v, sign, (int) digits);
        if (left) {
            repeat(c, BLANKS, blanks);
        }
    }

    private static void repeat(Ctx c, byte[] fill, long count) {
        for (long rest = count; rest > 0; ) {
            int n = (int) Math.min(rest, fill.length);
            c.write(fill, 0, n);
            rest -= n;
        }
    }

    /** {@code %Z}: the SELinux context, or nothing, a message and exit status 1 when there is none (as GNU find). */
    private static byte[] context(Ctx c, WalkEntry e) {
        SeLinux.Result r = SeLinux.context(e.pathBuffer(), e.pathLength(), e.type() != EntryType.SYMLINK);
        if (r.context() != null) {
            return r.context();
        }
        c.shared.failed = true;
        c.message("getfilecon failed: " + Quote.q(e.pathBuffer(), 0, e.pathLength()) + ": " + r.error());
        return new byte[0];
    }

    /**
     * {@code %h} as GNU find 4.9 cuts it: trailing slashes go, but not the one after a first
     * byte ({@code a/} gives {@code a}, {@code ///} gives {@code //}), then what precedes the
     * last slash, or {@code .} without one.
     */
    static byte[] leadingDirectories(byte[] path, int len) {
        int s = len - 1;
        while (s >= 0 && path[s] == '/') {
            s--;
        }
        int end = s > 0 && s + 1 < len ? s + 1 : len;
        for (int i = end - 1; i >= 0; i--) {
            if (path[i] == '/') {
                return java.util.Arrays.copyOf(path, i);
            }
        }
        return new byte[] {'.'};
    }

    private static boolean allSlashes(byte[] path, int len) {
        for (int i = 0; i < len; i++) {
            if (path[i] != '/') {
                return false;
            }
        }
        return len > 0;
    }

    private byte[] value(Ctx c, WalkEntry e, Piece p) {
        byte[] path = e.pathBuffer();
        int len = e.pathLength();
        return switch (p.conv) {
            case 'p' -> java.util.Arrays.copyOf(path, len);
            case 'f' -> allSlashes(path, len) ? new byte[] {'/'} // keeps one trailing slash, as find
                    : java.util.Arrays.copyOfRange(path, Predicates.nameStart(e), Math.min(len, Predicates.nameEnd(e) + 1));
            case 'h' -> leadingDirectories(path, len);
            case 'P' -> {
                int rl = c.shared.rootLength;
                if (e.depth() == 0 || rl >= len) {
                    yield new byte[0];
                }
                int from = path[rl] == '/' ? rl + 1 : rl;
                yield java.util.Arrays.copyOfRange(path, from, len);
            }
            case 'H' -> java.util.Arrays.copyOf(path, Math.min(c.shared.rootLength, len));
            case 'd' -> ascii(Integer.toString(e.depth()));
            case 'y' -> ascii(String.valueOf(typeLetter(e.type())));
            case 'Y' -> ascii(String.valueOf(targetLetter(c, e)));
            case 'l' -> {
                byte[] t = e.type() == EntryType.SYMLINK ? e.readLink() : null;
                yield t == null ? new byte[0] : t;
            }
            case 'Z' -> context(c, e);
            default -> statValue(c, e, p);
        };
    }

    private byte[] statValue(Ctx c, WalkEntry e, Piece p) {
        FileStat s = e.stat();
        if (s == null) {
            return new byte[0];
        }
        Accounts acc;
        return switch (p.conv) {
            case 's' -> ascii(Long.toString(s.size()));
            case 'D' -> ascii(Long.toUnsignedString(s.dev()));
            case 'F' -> c.shared.fileSystemType(s.dev()).getBytes(StandardCharsets.UTF_8);
            case 'M' -> ascii(symbolic(s.mode()));
            case 'U' -> ascii(Integer.toUnsignedString(s.uid()));
            case 'G' -> ascii(Integer.toUnsignedString(s.gid()));
            case 'u' -> {
                acc = Accounts.get();
                String n = acc.userName(Integer.toUnsignedLong(s.uid()));
                yield (n == null ? Integer.toUnsignedString(s.uid()) : n).getBytes(StandardCharsets.UTF_8);
            }
            case 'g' -> {
                acc = Accounts.get();
                String n = acc.groupName(Integer.toUnsignedLong(s.gid()));
                yield (n == null ? Integer.toUnsignedString(s.gid()) : n).getBytes(StandardCharsets.UTF_8);
            }
            case 'i' -> ascii(Long.toUnsignedString(s.ino()));
            case 'n' -> ascii(Long.toString(s.nlink()));
            case 'k' -> ascii(Long.toString((s.blocks() * 512 + 1023) / 1024));
            case 'b' -> ascii(Long.toString(s.blocks()));
            case 't' -> ctime(s.mtimeSec(), s.mtimeNsec());
            case 'a' -> ctime(s.atimeSec(), s.atimeNsec());
            case 'c' -> ctime(s.ctimeSec(), s.ctimeNsec());
            case 'T' -> time(s.mtimeSec(), s.mtimeNsec(), p.sub);
            case 'A' -> time(s.atimeSec(), s.atimeNsec(), p.sub);
            case 'C' -> time(s.ctimeSec(), s.ctimeNsec(), p.sub);
            default -> new byte[0];
        };
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static char typeLetter(EntryType t) {
        return t == EntryType.UNKNOWN ? 'U' : t.letter();
    }

    /**
     * {@code %Y}: the type of a link's target; {@code L} for a loop, {@code N} for no target,
     * and {@code ?} with GNU's message for any other error (a directory on the way that cannot be
     * searched, say), which brisk also counts in its exit status, as bfs (GNU find 4.9 exits 0).
     */
    private static char targetLetter(Ctx c, WalkEntry e) {
        if (e.type() != EntryType.SYMLINK) {
            return typeLetter(e.type());
        }
        byte[] p = e.path();
        FileStat s = dev.brisk.walk.Walker.stat(p, true);
        if (s == null || s.type() == EntryType.SYMLINK) {
            int errno = dev.brisk.walk.Walker.followErrno(p);
            if (errno == Errno.ELOOP) {
                return 'L';
            }
            if (errno == Errno.ENOENT || errno == Errno.ENOTDIR) {
                return 'N';
            }
            if (errno == 0) {
                return '?'; // followed by now: it changed under the walk
            }
            c.shared.failed = true;
            c.message(Quote.q(p) + ": " + Errno.message(errno));
            return '?';
        }
        return typeLetter(s.type());
    }

    /** {@code ls -l} style mode, such as {@code -rw-r--r--}. */
    static String symbolic(int mode) {
        char[] r = new char[10];
        r[0] = switch (EntryType.ofMode(mode)) {
            case DIRECTORY -> 'd';
            case SYMLINK -> 'l';
            case FIFO -> 'p';
            case SOCKET -> 's';
            case BLOCK_DEVICE -> 'b';
            case CHAR_DEVICE -> 'c';
            default -> '-';
        };
        String rwx = "rwxrwxrwx";
        for (int i = 0; i < 9; i++) {
            r[i + 1] = (mode & (0400 >> i)) != 0 ? rwx.charAt(i) : '-';
        }
        if ((mode & 04000) != 0) {
            r[3] = r[3] == 'x' ? 's' : 'S';
        }
        if ((mode & 02000) != 0) {
            r[6] = r[6] == 'x' ? 's' : 'S';
        }
        if ((mode & 01000) != 0) {
            r[9] = r[9] == 'x' ? 't' : 'T';
        }
        return new String(r);
    }

    private byte[] ctime(long sec, int nsec) {
        ZonedDateTime t = Instant.ofEpochSecond(sec, nsec).atZone(zone);
        String s = String.format(Locale.ROOT, "%s %s %2d %02d:%02d:%02d.%09d0 %d",
                t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ROOT),
                t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ROOT),
                t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond(), (long) nsec, t.getYear());
        return ascii(s);
    }

    private byte[] time(long sec, int nsec, char k) {
        if (k == '@') {
            return ascii(sec + "." + String.format(Locale.ROOT, "%09d0", (long) nsec));
        }
        ZonedDateTime t = Instant.ofEpochSecond(sec, nsec).atZone(zone);
        String s = switch (k) {
            case 'Y' -> Integer.toString(t.getYear());
            case 'y' -> String.format(Locale.ROOT, "%02d", t.getYear() % 100);
            case 'm' -> String.format(Locale.ROOT, "%02d", t.getMonthValue());
            case 'd' -> String.format(Locale.ROOT, "%02d", t.getDayOfMonth());
            case 'e' -> String.format(Locale.ROOT, "%2d", t.getDayOfMonth());
            case 'H' -> String.format(Locale.ROOT, "%02d", t.getHour());
            case 'I' -> String.format(Locale.ROOT, "%02d", (t.getHour() + 11) % 12 + 1);
            case 'k' -> String.format(Locale.ROOT, "%2d", t.getHour());
            case 'l' -> String.format(Locale.ROOT, "%2d", (t.getHour() + 11) % 12 + 1);
            case 'M' -> String.format(Locale.ROOT, "%02d", t.getMinute());
            case 'S' -> String.format(Locale.ROOT, "%02d.%09d0", t.getSecond(), (long) nsec);
            case 'j' -> String.format(Locale.ROOT, "%03d", t.getDayOfYear());
            case 'p' -> t.getHour() < 12 ? "AM" : "PM";
            case 'a' -> t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ROOT);
            case 'A' -> t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.US);
            case 'b', 'h' -> t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ROOT);
            case 'B' -> t.getMonth().getDisplayName(TextStyle.FULL, Locale.US);
            case 'u' -> Integer.toString(t.getDayOfWeek().getValue());
            case 'w' -> Integer.toString(t.getDayOfWeek().getValue() % 7);
            case 'Z' -> zoneAbbreviation(t);
            case 'z' -> t.format(DateTimeFormatter.ofPattern("xx", Locale.ROOT));
            case 'D' -> String.format(Locale.ROOT, "%02d/%02d/%02d", t.getMonthValue(), t.getDayOfMonth(), t.getYear() % 100);
            case 'F' -> String.format(Locale.ROOT, "%d-%02d-%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth());
            case 'T' -> String.format(Locale.ROOT, "%02d:%02d:%02d.%09d0", t.getHour(), t.getMinute(), t.getSecond(), (long) nsec);
            case 'r' -> String.format(Locale.ROOT, "%02d:%02d:%02d %s", (t.getHour() + 11) % 12 + 1, t.getMinute(),
                    t.getSecond(), t.getHour() < 12 ? "AM" : "PM");
            case 'R' -> String.format(Locale.ROOT, "%02d:%02d", t.getHour(), t.getMinute());
            case 'c' -> t.format(Zone.CTIME);
            case '+' -> String.format(Locale.ROOT, "%d-%02d-%02d+%02d:%02d:%02d.%09d0", t.getYear(), t.getMonthValue(),
                    t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond(), (long) nsec);
            case 's' -> Long.toString(sec);
            case 'C' -> String.format(Locale.ROOT, "%02d", Math.floorDiv(t.getYear(), 100));
            case 'G' -> Integer.toString(t.get(java.time.temporal.IsoFields.WEEK_BASED_YEAR));
            case 'g' -> String.format(Locale.ROOT, "%02d", Math.floorMod(t.get(java.time.temporal.IsoFields.WEEK_BASED_YEAR), 100));
            case 'V' -> String.format(Locale.ROOT, "%02d", t.get(java.time.temporal.IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            case 'U' -> String.format(Locale.ROOT, "%02d", (t.getDayOfYear() + 6 - t.getDayOfWeek().getValue() % 7) / 7);
            case 'W' -> String.format(Locale.ROOT, "%02d", (t.getDayOfYear() + 6 - (t.getDayOfWeek().getValue() + 6) % 7) / 7);
            case 'x' -> String.format(Locale.ROOT, "%02d/%02d/%02d", t.getMonthValue(), t.getDayOfMonth(), t.getYear() % 100);
            case 'X' -> String.format(Locale.ROOT, "%02d:%02d:%02d.%09d0", t.getHour(), t.getMinute(), t.getSecond(), (long) nsec);
            case 'P' -> t.getHour() < 12 ? "am" : "pm";
            case 'n' -> "\n";
            case 't' -> "\t";
            case '%' -> "%";
            default -> "%" + k; // as glibc's strftime shows a conversion it does not know
        };
        return ascii(s);
    }

    /**
     * The zone's abbreviation at {@code t} as glibc's {@code %Z} prints it: EST or EDT, CET or
     * CEST, BST in a London summer; tzdata's numeric form ({@code +03}, {@code +0530}) where the
     * zone has no name.
     */
    static String zoneAbbreviation(ZonedDateTime t) {
        boolean summer = t.getZone().getRules().isDaylightSavings(t.toInstant());
        String posix = PosixTimeZone.abbreviation(t.getZone(), summer);
        if (posix != null) {
            return posix;
        }
        String name = java.util.TimeZone.getTimeZone(t.getZone()).getDisplayName(summer, java.util.TimeZone.SHORT, Locale.US);
        if (!name.startsWith("GMT+") && !name.startsWith("GMT-")) {
            return name;
        }
        int off = t.getOffset().getTotalSeconds();
        int h = Math.abs(off) / 3600, m = Math.abs(off) / 60 % 60;
        return (off < 0 ? "-" : "+") + String.format(Locale.ROOT, m == 0 ? "%02d" : "%02d%02d", h, m);
    }
}
