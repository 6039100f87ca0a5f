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
 * Renders {@link Progress} as pv's status line, from a pv format string ({@code %N %b %T %t %r
 * %a %p %e %I %nA %%}), or as pv's numeric line ({@code -n}). The layout follows pv 1.6: sizes
 * as three significant digits with binary prefixes ({@code 976KiB}), the progress bar filling the
 * width left by the other fields and dropped when it does not fit, fields that would overflow the
 * width cut off, and a shrinking line padded with spaces so no old characters are left behind.
 *
 * <p>Stateful (previous length, the bouncing percentage of an unknown size) and not
 * thread-safe: one instance per display.
 */
public final class StatusLine {
    /** pv's display fields, in the order its default format puts them. */
    public enum Field {
        NAME('N'), BYTES('b'), BUFFER_PERCENT('T'), TIMER('t'), RATE('r'), AVERAGE_RATE('a'),
        PROGRESS('p'), ETA('e'), FINETA('I'), LAST_WRITTEN('A');

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

    private static final String PREFIXES_1000 = "yzafpnum kMGTPEZY";
    private static final String PREFIXES_1024 = "yzafpnum KMGTPEZY";
    private static final int MIDDLE = PREFIXES_1000.indexOf(' ');

    private record Segment(Field field, String literal) {}

    private final List<Segment> segments = new ArrayList<>();
    private final Set<Field> used;
    private final String name;
    private final boolean lines;
    private final Units units;
    private final boolean numeric;
    private final Clock clock;
    private int tailLength = 1;
    private long percentage;
    private int prevLength;
    private int prevWidth;

    /**
     * @param format  a pv format string (see {@link #formatOf})
     * @param name    the {@code %N} name, or null
     * @param lines   counting lines (plain numbers, {@code /s} rates)
     * @param units   how byte amounts are shown
     * @param numeric pv's {@code -n}: a number per line instead of the status line
     * @param clock   wall clock for the {@code %I} arrival time
     */
    public StatusLine(String format, String name, boolean lines, Units units, boolean numeric, Clock clock) {
        this.name = name;
        this.lines = lines;
        this.units = units;
        this.numeric = numeric;
        this.clock = clock;
        this.used = parse(format);
    }

    /** The format string pv builds from display switches: the fields joined by spaces. */
    public static String formatOf(Set<Field> fields, int lastWritten) {
        StringBuilder b = new StringBuilder();
        for (Field f : Field.values()) {
            if (fields.contains(f)) {
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

    /** Whether the format shows {@code field}. */
    public boolean shows(Field field) {
        return used.contains(field);
    }

    /** How many trailing bytes {@code %nA} shows (1 when absent). */
    public int tailLength() {
        return tailLength;
    }

    private Set<Field> parse(String format) {
        Set<Field> fields = java.util.EnumSet.noneOf(Field.class);
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%') {
                literal.append(c);
                continue;
            }
            int j = i + 1;
            int num = 0;
            while (j < format.length() && Character.isDigit(format.charAt(j))) {
                num = Math.min(256, num * 10 + format.charAt(j) - '0');
                j++;
            }
            if (j >= format.length()) {
                literal.append('%');
                break;
            }
            char code = format.charAt(j);
            Field field = null;
            for (Field f : Field.values()) {
                if (f.code == code) {
                    field = f;
                }
            }
            if (field == null) {
                literal.append(code == '%' ? "%" : "%" + code);
            } else {
                if (!literal.isEmpty()) {
                    segments.add(new Segment(null, literal.toString()));
                    literal.setLength(0);
                }
                segments.add(new Segment(field, null));
                fields.add(field);
                if (field == Field.LAST_WRITTEN) {
                    tailLength = Math.max(1, num);
                }
            }
            i = j;
        }
        if (!literal.isEmpty()) {
            segments.add(new Segment(null, literal.toString()));
        }
        return fields;
    }

    /**
     * The line for {@code p} at terminal width {@code width}: without the trailing carriage
     * return; in numeric mode, the number with its newline.
     */
    public String render(Progress p, int width) {
        if (p.size() <= 0) {
            if (p.rate() > 0) {
                percentage += 2;
            }
            if (percentage > 199) {
                percentage = 0;
            }
        } else if (numeric || used.contains(Field.PROGRESS)) {
            percentage = p.percent();
        }
        if (numeric) {
            return numeric(p);
        }
        String[] text = new String[Field.values().length];
        for (Field f : used) {
            text[f.ordinal()] = field(f, p);
        }
        int fixed = 0;
        for (Segment s : segments) {
            if (s.field != Field.PROGRESS) {
                fixed += s.field == null ? s.literal.length() : text[s.field.ordinal()].length();
            }
        }
        if (used.contains(Field.PROGRESS)) {
            String bar = bar(p.size() > 0, width - fixed);
            text[Field.PROGRESS.ordinal()] = bar.length() + fixed > width ? "" : bar;
        }
        StringBuilder out = new StringBuilder();
        for (Segment s : segments) {
            String t = s.field == null ? s.literal : text[s.field.ordinal()];
            if (t.isEmpty()) {
                continue;
            }
            if (t.length() + out.length() > width) {
                break;
            }
            out.append(t);
        }
        int length = out.length();
        if (length < prevLength && width >= prevWidth) {
            int pad = Math.min(15, prevLength - length);
            out.repeat(' ', pad);
            length += pad;
        }
        prevWidth = width;
        prevLength = length;
        return out.toString();
    }

    private String numeric(Progress p) {
        StringBuilder b = new StringBuilder();
        if (used.contains(Field.TIMER)) {
            b.append(String.format(java.util.Locale.ROOT, "%.4f ", p.elapsedNanos() / 1e9));
        }
        if (used.contains(Field.BYTES)) {
            b.append(units == Units.BITS && !lines ? p.count() * 8 : p.count());
        } else {
            b.append(percentage > 100 ? 200 - percentage : percentage);
        }
        return b.append('\n').toString();
    }

    private String field(Field f, Progress p) {
        return switch (f) {
            case NAME -> name == null ? "" : String.format("%9s:", name);
            case BYTES -> amount(p.count(), "");
            case BUFFER_PERCENT -> p.spliced() ? "{----}" : "{  0%}";
            case TIMER -> clockTime(Math.min(p.elapsedNanos() / 1_000_000_000L, 360_000_000L));
            case RATE -> "[" + amount(p.rate(), "/s") + "]";
            case AVERAGE_RATE -> "[" + amount(p.averageRate(), "/s") + "]";
            case PROGRESS -> "";
            case ETA -> eta(p);
            case FINETA -> fineta(p);
            case LAST_WRITTEN -> tail(p.tail());
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

    private String tail(byte[] tail) {
        StringBuilder b = new StringBuilder(tailLength);
        int from = Math.max(0, tail.length - tailLength);
        b.repeat('.', tailLength - (tail.length - from));
        for (int i = from; i < tail.length; i++) {
            int c = tail[i] & 0xff;
            b.append(c >= 32 && c < 127 ? (char) c : '.');
        }
        return b.toString();
    }

    private String bar(boolean known, int room) {
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
        String pfx = binary && prefix != ' ' ? prefix + "i" : String.valueOf(prefix);
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
