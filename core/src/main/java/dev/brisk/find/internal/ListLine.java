// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.walk.FileStat;
import dev.brisk.walk.WalkEntry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * {@code -ls}: one line per entry in GNU find's {@code ls -dils} format: inode, 1 KiB blocks,
 * mode, links, owner, group, size (or {@code major, minor} for devices), modification time
 * ({@code Mon dd HH:MM} within the last six months, else {@code Mon dd  yyyy}), the path and, for
 * a symbolic link, {@code -> target}; names escaped as GNU find escapes them there (backslash
 * escapes, octal for bytes outside printable ASCII). Columns widen for the rest of the run once a
 * value needs more room, as GNU find's do (an unnamed owner widens the owner column by one), so
 * the action asks for GNU find's sequential order, in which the widths change where they change
 * in find's output. Thread-safe.
 */
final class ListLine extends Expr {
    private static final DateTimeFormatter RECENT = DateTimeFormatter.ofPattern("MMM ppd HH:mm", Locale.ROOT);
    private static final DateTimeFormatter OLD = DateTimeFormatter.ofPattern("MMM ppd  yyyy", Locale.ROOT);
    /** Half a Gregorian year, in seconds: GNU find's "recent". */
    private static final long SIX_MONTHS = 31556952L / 2;

    private final long now;
    private final ZoneId zone;
    /** Column widths, shared by every -ls and -fls of one command line, as GNU find's are. */
    private final int[] widths;

    ListLine(long nowSeconds, ZoneId zone, int[] sharedWidths) {
        this.now = nowSeconds;
        this.zone = zone;
        this.widths = sharedWidths;
    }

    /** Fresh column widths for one command line: inode, blocks, links, owner, group, size, major, minor. */
    static int[] startingWidths() {
        return new int[] {9, 6, 3, 8, 8, 8, 3, 3};
    }

    @Override
    boolean eval(Ctx c, WalkEntry e) {
        FileStat s = e.stat();
        if (s == null) {
            return true; // vanished: the walk has reported it
        }
        StringBuilder b = new StringBuilder(96);
        synchronized (widths) {
            pad(b, Long.toUnsignedString(s.ino()), 0, true);
            b.append(' ');
            pad(b, Long.toString((s.blocks() * 512 + 1023) / 1024), 1, true);
            b.append(' ').append(Printf.symbolic(s.mode())).append(' ');
            pad(b, Long.toString(s.nlink()), 2, true);
            b.append(' ');
            Accounts acc = Accounts.get();
            String user = acc.userName(Integer.toUnsignedLong(s.uid()));
            if (user != null) {
                pad(b, user, 3, false);
            } else {
                // GNU find prints an unnamed owner in 8 columns and then widens the owner column
                // by what it printed, the separating blank included: named owners after it line up one further
                String id = Integer.toUnsignedString(s.uid());
                b.append(id).append(" ".repeat(Math.max(0, 8 - id.length())));
                widths[3] = Math.max(widths[3], Math.max(8, id.length()) + 1);
            }
            b.append(' ');
            String group = acc.groupName(Integer.toUnsignedLong(s.gid()));
            if (group != null) {
                pad(b, group, 4, false);
            } else {
                String id = Integer.toUnsignedString(s.gid());
                b.append(id).append(" ".repeat(Math.max(0, 8 - id.length())));
            }
            b.append(' ');
            int format = s.mode() & 0170000;
            if (format == 0020000 || format == 0060000) {
                long major = ((s.rdev() >>> 32) & 0xfffff000L) | ((s.rdev() >>> 8) & 0xfffL);
                long minor = ((s.rdev() >>> 12) & 0xffffff00L) | (s.rdev() & 0xffL);
                int blanks = widths[5] - (widths[6] + widths[7] + 2);
                b.append(" ".repeat(Math.max(0, blanks)));
                pad(b, Long.toString(major), 6, true);
                b.append(", ");
                pad(b, Long.toString(minor), 7, true);
            } else {
                pad(b, Long.toString(s.size()), 5, true);
            }
        }
        long when = s.mtimeSec();
        boolean recent = now - SIX_MONTHS <= when && when <= now;
        ZonedDateTime t = Instant.ofEpochSecond(when).atZone(zone);
        b.append(' ').append((recent ? RECENT : OLD).format(t)).append(' ');
        byte[] head = b.toString().getBytes(StandardCharsets.UTF_8);
        c.write(head, 0, head.length);
        byte[] name = escape(e.pathBuffer(), e.pathLength());
        c.write(name, 0, name.length);
        if ((s.mode() & 0170000) == 0120000) {
            byte[] target = e.readLink();
            if (target != null) {
                c.write(ARROW, 0, ARROW.length);
                byte[] t2 = escape(target, target.length);
                c.write(t2, 0, t2.length);
            }
        }
        c.write('\n');
        return true;
    }

    private static final byte[] ARROW = " -> ".getBytes(StandardCharsets.US_ASCII);

    /** Appends {@code v} padded to column {@code col}'s width, widening the column when {@code v} is longer. */
    private void pad(StringBuilder b, String v, int col, boolean right) {
        if (v.length() > widths[col]) {
            widths[col] = v.length();
        }
        String fill = " ".repeat(widths[col] - v.length());
        b.append(right ? fill : "").append(v).append(right ? "" : fill);
    }

    /** GNU find's escaping of names in {@code -ls}: C escapes, backslashed space, backslash and double quote, octal for the rest. */
    static byte[] escape(byte[] name, int len) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(len + 8);
        for (int i = 0; i < len; i++) {
            int b = name[i] & 0xff;
            String esc = switch (b) {
                case 7 -> "\\a";
                case 8 -> "\\b";
                case 9 -> "\\t";
                case 10 -> "\\n";
                case 11 -> "\\v";
                case 12 -> "\\f";
                case 13 -> "\\r";
                case ' ' -> "\\ ";
                case '\\' -> "\\\\";
                case '"' -> "\\\"";
                default -> b > ' ' && b < 0x7f ? null : String.format(Locale.ROOT, "\\%03o", b);
            };
            if (esc == null) {
                out.write(b);
            } else {
                out.writeBytes(esc.getBytes(StandardCharsets.US_ASCII));
            }
        }
        return out.toByteArray();
    }

    @Override
    boolean hasAction() {
        return true;
    }

    @Override
    boolean needsOneThread() {
        return true;
    }
}
