// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Renders {@link Progress} as pv's status line, from a pv format string, or as pv's numeric
 * lines ({@code -n}, alone or with a format: pv 1.9.31's way to print JSON). The layout follows
 * pv 1.6 where 1.6 has the feature: sizes as three significant digits with binary prefixes
 * ({@code 976KiB}), the plain progress bar filling the width left by the other fields and dropped
 * when it does not fit, fields that would overflow the width cut off, and a shrinking line padded
 * with spaces so no old characters are left behind. pv 1.9+'s additions follow its manual: every
 * sequence's long name ({@code %{rate}}), {@code %{progress-bar-only}},
 * {@code %{progress-amount-only}}, {@code %{bar-plain|block|granular|shaded}} ({@link BarStyle}),
 * a width prefix on bars ({@code %20p}), {@code %{sgr:colour,...}}, and the rate gauge
 * ({@code --gauge}).
 *
 * <p>Stateful (previous length, the bouncing percentage of an unknown size, the highest rate
 * seen) and not thread-safe: one instance per display.
 *
 * <p>Over 500 lines because it is pv's whole display grammar in one place: every
 * {@code --format} sequence, the default line's parts, the numeric mode and the size, time and
 * rate formatting they share; split it when the formatting grows further.
 */
public final class StatusLine {
    /** pv's display fields, in the order its default format puts them; the last four only come from formats. */
    public enum Field {
        NAME('N'), BYTES('b'), BUFFER_PERCENT('T'), TIMER('t'), RATE('r'), AVERAGE_RATE('a'),
        PROGRESS('p'), ETA('e'), FINETA('I'), LAST_WRITTEN('A'), PREVIOUS_LINE('L'), BAR_ONLY('\0'), AMOUNT_ONLY('\0'),
        SGR('\0');

        private final char code;

        Field(char code) {
            this.code = code;
        }
    }

    /** How amounts are scaled. */
    public enum Units {
        /** Bytes in powers of 1024: {@code KiB}, {@code MiB}. */
        BINARY,
        /** Bytes in powers of 1000: {@code kB}, {@code MB} (pv {@code -k}). */
        DECIMAL,
        /** Bits in powers of 1000: {@code kb}, {@code Mb} (pv {@code -8}). */
        BITS
    }

    /**
     * How bars and colours are drawn.
     *
     * @param bar    the style of {@code %p} and {@code %{progress-bar-only}} (pv {@code -u})
     * @param gauge  with an unknown size, fill the bar to the current rate as a share of the
     *               highest rate seen, instead of moving an indicator (pv {@code -g})
     * @param utf8   UTF-8 can be written (else the Unicode bar styles draw as plain)
     * @param colour {@code %{sgr:...}} emits its codes (else nothing)
     */
    public record Look(BarStyle bar, boolean gauge, boolean utf8, boolean colour) {
        /** pv's defaults: plain bars, no gauge, no Unicode, no colour. */
        public static final Look DEFAULT = new Look(BarStyle.PLAIN, false, false, false);

        public Look {
            if (bar == null) {
                throw new IllegalArgumentException("bar style is required");
            }
        }

        /**
         * The look for drawing on the current caller's descriptor {@code fd}: UTF-8 when the
         * caller's locale's character set ({@code LC_ALL}, {@code LC_CTYPE}, {@code LANG}, the first
         * set) is UTF-8; colour when {@code fd} is a terminal whose {@code TERM} is set and not
         * {@code dumb}.
         */
        public static Look forTerminal(BarStyle bar, boolean gauge, int fd) {
            boolean utf8 = dev.brisk.internal.posix.Environ.utf8Locale();
            String term = dev.brisk.internal.posix.Environ.get("TERM");
            boolean colour = term != null && !term.isEmpty() && !term.equals("dumb")
                    && dev.brisk.internal.posix.Libc.isatty(dev.brisk.internal.posix.Caller.current().descriptor(fd));
            return new Look(bar, gauge, utf8, colour);
        }
    }

    private static final String PREFIXES_1000 = "yzafpnum kMGTPEZY";
    private static final String PREFIXES_1024 = "yzafpnum KMGTPEZY";
    private static final int MIDDLE = PREFIXES_1000.indexOf(' ');

    /** A literal (field null), a field with its number prefix and bar style, or SGR codes (in literal). */
    private record Segment(Field field, String literal, int num, BarStyle style) {}

    private final List<Segment> segments = new ArrayList<>();
    private final Set<Field> used;
    private final String name;
    private final boolean lines;
    private final Units units;
    private final boolean numeric;
    private final Clock clock;
    private final Look look;
    private int tailLength = 1;
    private long percentage;
    private double maxRate;
    private int prevLength;
    private int prevWidth;

    /** A status line with pv's default look; see {@link #StatusLine(String, String, boolean, Units, boolean, Clock, Look)}. */
    public StatusLine(String format, String name, boolean lines, Units units, boolean numeric, Clock clock) {
        this(format, name, lines, units, numeric, clock, Look.DEFAULT);
    }

    /**
     * @param format  a pv format string (see {@link #formatOf})
     * @param name    the {@code %N} name, or null
     * @param lines   counting lines (plain numbers, {@code /s} rates)
     * @param units   how byte amounts are shown
     * @param numeric pv's {@code -n}: numbers, a line per update, instead of the status line
     * @param clock   wall clock for the {@code %I} arrival time
     * @param look    bar style, gauge, Unicode and colour
     */
    public StatusLine(String format, String name, boolean lines, Units units, boolean numeric, Clock clock, Look look) {
        this.name = name;
        this.lines = lines;
        this.units = units;
        this.numeric = numeric;
        this.clock = clock;
        this.look = look;
        this.used = parse(format);
    }

    /** The format string pv builds from display switches: the fields joined by spaces. */
    public static String formatOf(Set<Field> fields, int lastWritten) {
        StringBuilder b = new StringBuilder();
        for (Field f : Field.values()) {
            if (fields.contains(f) && f.code != '\0') {
                if (!b.isEmpty()) {
                    b.append(' ');
                }
                b.append('%');
                if (f == Field.LAST_WRITTEN) {
                    b.append(lastWritten);
                }
                b.append(f.code);
            }
        }
        return b.toString();
    }

    /**
     * pv's numeric format (1.9.31): {@code %t %b %r %{progress-amount-only}}, each only when its
     * switch is on, the percentage only without {@code --bytes}.
     */
    public static String numericFormatOf(boolean timer, boolean bytes, boolean rate) {
        List<String> parts = new ArrayList<>();
        if (timer) parts.add("%t");
        if (bytes) parts.add("%b");
        if (rate) parts.add("%r");
        if (!bytes) parts.add("%{progress-amount-only}");
        return String.join(" ", parts);
    }

    /** Whether the format shows {@code field}. */
    public boolean shows(Field field) {
        return used.contains(field);
    }

    /** How many trailing bytes {@code %nA} shows (the largest n; 1 when absent). */
    public int tailLength() {
        return tailLength;
    }

    private Set<Field> parse(String format) {
        Set<Field> fields = java.util.EnumSet.noneOf(Field.class);
        StringBuilder literal = new StringBuilder();
        boolean sawTail = false;
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%') {
                literal.append(c);
                continue;
            }
            int j = i + 1;
            int num = 0;
            while (j < format.length() && Character.isDigit(format.charAt(j))) {
                num = Math.min(4096, num * 10 + format.charAt(j) - '0');
                j++;
            }
            if (j >= format.length()) {
                literal.append('%');
                break;
            }
            char code = format.charAt(j);
            Segment seg = null;
            if (code == '{') {
                int close = format.indexOf('}', j);
                if (close > 0) {
                    seg = named(format.substring(j + 1, close), num);
                    if (seg != null) {
                        j = close;
                    }
                }
            } else {
                for (Field f : Field.values()) {
                    if (f.code == code) {
                        seg = new Segment(f, null, num, look.bar());
                    }
                }
            }
            if (seg == null) {
                literal.append(code == '%' ? "%" : "%" + code);
            } else {
                if (!literal.isEmpty()) {
                    segments.add(new Segment(null, literal.toString(), 0, null));
                    literal.setLength(0);
                }
                segments.add(seg);
                fields.add(seg.field);
                if (seg.field == Field.LAST_WRITTEN) {
                    tailLength = sawTail ? Math.max(tailLength, Math.clamp(num, 1, 256)) : Math.clamp(num, 1, 256);
                    sawTail = true;
                }
            }
            i = j;
        }
        if (!literal.isEmpty()) {
            segments.add(new Segment(null, literal.toString(), 0, null));
        }
        return fields;
    }

    /** The segment for {@code %{key}}, or null when pv knows no such sequence (it is then shown as is). */
    private Segment named(String key, int num) {
        if (key.startsWith("sgr:")) {
            return new Segment(Field.SGR, Sgr.codes(key.substring(4)), num, null);
        }
        BarStyle bar = key.startsWith("bar-") ? BarStyle.named(key.substring(4)) : null;
        if (bar != null) {
            return new Segment(Field.BAR_ONLY, null, num, bar);
        }
        Field f = switch (key) {
            case "progress" -> Field.PROGRESS;
            case "progress-bar-only" -> Field.BAR_ONLY;
            case "progress-amount-only" -> Field.AMOUNT_ONLY;
            case "timer" -> Field.TIMER;
            case "eta" -> Field.ETA;
            case "fineta" -> Field.FINETA;
            case "rate" -> Field.RATE;
            case "average-rate" -> Field.AVERAGE_RATE;
            case "bytes", "transferred" -> Field.BYTES;
            case "buffer-percent" -> Field.BUFFER_PERCENT;
            case "last-written" -> Field.LAST_WRITTEN;
            case "previous-line" -> Field.PREVIOUS_LINE;
            case "name" -> Field.NAME;
            default -> null;
        };
        return f == null ? null : new Segment(f, null, num, look.bar());
    }

    private static boolean isBar(Segment s) {
        return s.field == Field.PROGRESS || s.field == Field.BAR_ONLY;
    }

    /** A bar, or {@code %L}, without a width of its own: it shares the room the others leave. */
    private static boolean expands(Segment s) {
        return (isBar(s) || s.field == Field.PREVIOUS_LINE) && s.num == 0;
    }

    /**
     * The line for {@code p} at terminal width {@code width}: without the trailing carriage
     * return; in numeric mode, the numbers with their newline.
     */
    public String render(Progress p, int width) {
        maxRate = Math.max(maxRate, p.rate());
        if (p.size() <= 0) {
            if (p.rate() > 0) {
                percentage += 2;
            }
            if (percentage > 199) {
                percentage = 0;
            }
        } else {
            percentage = p.percent();
        }
        if (numeric) {
            return numeric(p);
        }
        String[] text = new String[segments.size()];
        int fixed = 0;
        int expanding = 0;
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            if (s.field == null) {
                text[i] = s.literal;
            } else if (s.field == Field.SGR) {
                text[i] = look.colour() ? s.literal : "";
                continue; // no width
            } else if (expands(s)) {
                expanding++;
                continue;
            } else {
                text[i] = isBar(s) ? bar(s, p, s.num) : field(s, p);
            }
            fixed += text[i].length();
        }
        if (expanding > 0) {
            int room = (width - fixed) / expanding;
            for (int i = 0; i < segments.size(); i++) {
                Segment s = segments.get(i);
                if (expands(s)) {
                    String b = isBar(s) ? bar(s, p, room) : previousLine(p.previousLine(), Math.max(0, room));
                    text[i] = b.length() + fixed > width ? "" : b;
                }
            }
        }
        StringBuilder out = new StringBuilder();
        int length = 0;
        for (int i = 0; i < segments.size(); i++) {
            String t = text[i];
            if (t.isEmpty()) {
                continue;
            }
            if (segments.get(i).field == Field.SGR) {
                out.append(t);
                continue;
            }
            if (t.length() + length > width) {
                break;
            }
            out.append(t);
            length += t.length();
        }
        if (length < prevLength && width >= prevWidth) {
            int pad = Math.min(15, prevLength - length);
            out.repeat(' ', pad);
            length += pad;
        }
        prevWidth = width;
        prevLength = length;
        return out.toString();
    }

    /** pv's numeric line: each sequence as a bare number (seconds, count, rate, percent), literals kept. */
    private String numeric(Progress p) {
        StringBuilder b = new StringBuilder();
        double scale = units == Units.BITS && !lines ? 8 : 1;
        for (Segment s : segments) {
            if (s.field == null) {
                b.append(s.literal);
                continue;
            }
            switch (s.field) {
                case TIMER -> b.append(String.format(java.util.Locale.ROOT, "%.4f", p.elapsedNanos() / 1e9));
                case BYTES -> b.append(scale == 8 ? p.count() * 8 : p.count());
                case RATE -> b.append(String.format(java.util.Locale.ROOT, "%.4f", p.rate() * scale));
                case AVERAGE_RATE -> b.append(String.format(java.util.Locale.ROOT, "%.4f", p.averageRate() * scale));
                // a known size: the true share, past 100 when there is more data (pv 1.11);
                // unknown: the bouncing position
                case PROGRESS, BAR_ONLY, AMOUNT_ONLY -> b.append(p.size() > 0 || percentage <= 100 ? percentage : 200 - percentage);
                case SGR -> { }
                default -> b.append(field(s, p));
            }
        }
        return b.append('\n').toString();
    }

    /**
     * A bar segment {@code width} cells wide in all: {@code %p} with its sides and amount (the
     * plain, non-gauge one exactly as pv 1.6 draws it), {@code %{progress-bar-only}} without.
     */
    private String bar(Segment s, Progress p, int width) {
        BarStyle style = s.style.given(look.utf8());
        boolean known = p.size() > 0;
        boolean sides = s.field == Field.PROGRESS;
        if (sides && style == BarStyle.PLAIN && (known || !look.gauge())) {
            return plainBar(known, width);
        }
        int inner = sides ? width - 2 : width;
        String body;
        String after = "";
        if (known || look.gauge()) {
            double pct = known ? Math.clamp(percentage, 0, 100) : maxRate > 0 ? 100 * p.rate() / maxRate : 0;
            if (sides) {
                after = known ? String.format(" %3d%%", percentage) : "/" + amount(maxRate, "/s");
            }
            if (inner - after.length() < 1) {
                return "";
            }
            body = style.filled(pct, inner - after.length());
        } else {
            body = style.moving(percentage > 100 ? 200 - percentage : percentage, inner);
            if (body.isEmpty()) {
                return "";
            }
        }
        return sides ? "[" + body + "]" + after : body;
    }

    private String field(Segment s, Progress p) {
        return switch (s.field) {
            case NAME -> name == null ? "" : String.format("%9s:", name);
            case BYTES -> amount(p.count(), "");
            case BUFFER_PERCENT -> p.spliced() ? "{----}" : String.format("{%3d%%}", Math.max(0, p.bufferPercent()));
            case TIMER -> clockTime(Math.min(p.elapsedNanos() / 1_000_000_000L, 360_000_000L));
            case RATE -> "[" + amount(p.rate(), "/s") + "]";
            case AVERAGE_RATE -> "[" + amount(p.averageRate(), "/s") + "]";
            case ETA -> eta(p);
            case FINETA -> fineta(p);
            case LAST_WRITTEN -> tail(p.tail(), s.num == 0 ? 1 : Math.min(s.num, 256));
            case PREVIOUS_LINE -> previousLine(p.previousLine(), s.num);
            case AMOUNT_ONLY -> p.size() > 0 ? String.format("%3d%%", percentage)
                    : look.gauge() ? amount(maxRate, "/s") : "";
            case PROGRESS, BAR_ONLY, SGR -> "";
        };
    }

    private String eta(Progress p) {
        if (p.size() <= 0) {
            return "";
        }
        String s = "ETA " + clockTime(Math.clamp(p.etaNanos() / 1_000_000_000L, 0, 360_000_000L));
        return p.finished() ? " ".repeat(s.length()) : s;
    }

    private String fineta(Progress p) {
        if (p.size() <= 0) {
            return "";
        }
        long eta = Math.clamp(p.etaNanos() / 1_000_000_000L, 0, 360_000_000L);
        LocalDateTime then = LocalDateTime.now(clock).plusSeconds(eta);
        String pattern = eta > 6 * 3600 ? "yyyy-MM-dd HH:mm:ss" : "HH:mm:ss";
        return "ETA " + then.format(DateTimeFormatter.ofPattern(pattern));
    }

    private static String tail(byte[] tail, int tailLength) {
        StringBuilder b = new StringBuilder(tailLength);
        int from = Math.max(0, tail.length - tailLength);
        b.repeat('.', tailLength - (tail.length - from));
        for (int i = from; i < tail.length; i++) {
            int c = tail[i] & 0xff;
            b.append(c >= 32 && c < 127 ? (char) c : '.');
        }
        return b.toString();
    }

    /** pv's {@code %nL}: the first {@code n} bytes of the last line (at most 1024), unprintable ones and the rest as spaces. */
    private static String previousLine(byte[] line, int n) {
        int shown = Math.min(n, Progress.LINE_KEPT);
        StringBuilder b = new StringBuilder(shown);
        for (int i = 0; i < shown; i++) {
            int c = i < line.length ? line[i] & 0xff : ' ';
            b.append(c >= 32 && c < 127 ? (char) c : ' ');
        }
        return b.toString();
    }

    private String plainBar(boolean known, int room) {
        StringBuilder b = new StringBuilder("[");
        if (known) {
            long pct = Math.clamp(percentage, 0, 100_000);
            String label = String.format("%2d%%", pct);
            int available = Math.clamp(room - label.length() - 3, 0, 4000);
            long full = available * pct / 100 - 1;
            int i = 0;
            for (; i < full && i < available; i++) {
                b.append('=');
            }
            if (i < available) {
                b.append('>');
                i++;
            }
            b.repeat(' ', available - i);
            return b.append("] ").append(label).toString();
        }
        int available = Math.clamp(room - 5, 0, 4000);
        long pos = percentage > 100 ? 200 - percentage : percentage;
        long before = available * pos / 100;
        b.repeat(' ', (int) before).append("<=>").repeat(' ', (int) (available - before));
        return b.append(']').toString();
    }

    private static String clockTime(long seconds) {
        if (seconds > 86400) {
            return String.format("%d:%02d:%02d:%02d", seconds / 86400, seconds / 3600 % 24, seconds / 60 % 60, seconds % 60);
        }
        return String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }

    /** An amount as pv shows it: 3-4 significant characters, a prefix, the unit. */
    String amount(double value, String rateSuffix) {
        boolean binary = !lines && units == Units.BINARY;
        String unit = lines ? "" : units == Units.BITS ? "b" : "B";
        if (units == Units.BITS && !lines) {
            value *= 8;
        }
        return sized(value, binary ? 1024 : 1000, binary, unit + rateSuffix);
    }

    /** pv's size string: {@code %4d} above 99.9, else three significant digits ({@code %#4.3g}). */
    static String sized(double value, int ratio, boolean binary, String suffix) {
        String prefixes = binary ? PREFIXES_1024 : PREFIXES_1000;
        int i = MIDDLE;
        char prefix = ' ';
        if (value != 0.0) {
            double cutoff = ratio * 0.97;
            while (value > cutoff && i + 1 < prefixes.length()) {
                value /= ratio;
                prefix = prefixes.charAt(++i);
            }
            while (value < 1.0 && i - 1 >= 0) {
                value *= ratio;
                prefix = prefixes.charAt(--i);
            }
        }
        // binary prefixes are two characters (KiB), so plain bytes get two spaces: the field keeps
        // its width from 999 B/s to 1.00KiB/s, as in pv 1.11 (pv 1.6 gave one space)
        String pfx = binary ? (prefix == ' ' ? "  " : prefix + "i") : String.valueOf(prefix);
        value = Math.min(value, 100000);
        String number;
        if (value > 99.9) {
            number = String.format("%4d", (long) value);
        } else {
            BigDecimal r = new BigDecimal(value).round(new MathContext(3));
            int intDigits = r.compareTo(BigDecimal.valueOf(100)) >= 0 ? 3 : r.compareTo(BigDecimal.TEN) >= 0 ? 2 : 1;
            number = String.format("%4s", r.setScale(3 - intDigits, java.math.RoundingMode.HALF_EVEN).toPlainString());
        }
        return number + pfx + suffix;
    }
}
