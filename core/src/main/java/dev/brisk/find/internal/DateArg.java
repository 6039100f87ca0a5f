package dev.brisk.find.internal;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The date of {@code -newerXt}: the forms people write, not all of GNU's date syntax:
 * {@code @SECONDS[.FRACTION]}, {@code YYYY-MM-DD}, and {@code YYYY-MM-DD[ T]HH:MM[:SS[.FRACTION]]}
 * in local time, optionally ending in {@code Z} or {@code +HH:MM}/{@code -HH:MM}. Stateless.
 */
final class DateArg {
    private DateArg() {}

    private static final Pattern EPOCH = Pattern.compile("@(-?\\d+)(?:[.,](\\d{1,9}))?");
    private static final Pattern DATE_TIME = Pattern.compile(
            "(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9}))?)?)?\\s*(Z|[+-]\\d{2}:?\\d{2})?");

    /** {seconds, nanoseconds} since the epoch, or null when the text is no date this parser knows. */
    static long[] parse(String text) {
        String t = text.trim();
        Matcher m = EPOCH.matcher(t);
        if (m.matches()) {
            return new long[] {Long.parseLong(m.group(1)), nanos(m.group(2))};
        }
        m = DATE_TIME.matcher(t);
        if (!m.matches()) {
            return null;
        }
        try {
            LocalDate d = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
            LocalTime time = m.group(4) == null ? LocalTime.MIDNIGHT
                    : LocalTime.of(Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
                            m.group(6) == null ? 0 : Integer.parseInt(m.group(6)));
            ZoneId zone = m.group(8) == null ? ZoneId.systemDefault()
                    : m.group(8).equals("Z") ? ZoneId.of("UTC") : ZoneId.of(offset(m.group(8)));
            ZonedDateTime z = LocalDateTime.of(d, time).atZone(zone);
            return new long[] {z.toEpochSecond(), nanos(m.group(7))};
        } catch (DateTimeException | NumberFormatException e) {
            return null;
        }
    }

    private static String offset(String o) {
        return o.length() == 5 ? o.substring(0, 3) + ":" + o.substring(3) : o;
    }

    private static long nanos(String fraction) {
        if (fraction == null) {
            return 0;
        }
        StringBuilder f = new StringBuilder(fraction);
        while (f.length() < 9) {
            f.append('0');
        }
        return Long.parseLong(f.toString());
    }
}
