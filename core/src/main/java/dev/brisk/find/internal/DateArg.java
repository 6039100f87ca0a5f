package dev.brisk.find.internal;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The date of {@code -newerXt}: the forms of GNU's {@code parse_datetime} that people type, read
 * with its meaning. {@code @SECONDS[.FRAC]}; a calendar date ({@code 2024-01-15}, {@code Jan 15
 * 2024}, {@code 15 Jan 2024}, {@code January 15, 2024}; the year defaults to this year); a time of
 * day ({@code HH:MM[:SS[.FRAC]]}, also joined to the date by {@code T}); a zone ({@code Z},
 * {@code UTC}, {@code GMT}, {@code +HH:MM}, {@code -HHMM}; else local time); {@code now},
 * {@code today}, {@code yesterday}, {@code tomorrow}; relative items ({@code [+-]N UNIT},
 * {@code N UNIT ago}, {@code last UNIT}, {@code next UNIT}, {@code this UNIT} with UNIT one of
 * year, month, fortnight, week, day, hour, minute/min, second/sec, singular or plural). A date
 * without a time means its midnight; a time without a date means today; relative items move from
 * there (from now when there is neither), calendar units first. Anything else (weekday names,
 * {@code noon}, 12-hour times, numbers without separators) is refused, never guessed. Stateless.
 */
final class DateArg {
    private DateArg() {}

    private static final Pattern EPOCH = Pattern.compile("@(-?\\d+)(?:[.,](\\d{1,9})\\d*)?");
    private static final Pattern ISO_DATE = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:t(.*))?");
    private static final Pattern TIME = Pattern.compile("(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9})\\d*)?)?(Z|[+-]\\d{2}:?\\d{2})?");
    private static final Pattern ZONE = Pattern.compile("Z|UTC|GMT|UT|[+-]\\d{2}:?\\d{2}");
    private static final Pattern NUMBER = Pattern.compile("[+-]?\\d+");
    private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};

    /** {seconds, nanoseconds} since the epoch, or null when the text is no date this parser knows. */
    static long[] parse(String text) {
        try {
            return read(text.trim(), ZonedDateTime.now(ZoneId.systemDefault()));
        } catch (DateTimeException | NumberFormatException | ArithmeticException e) {
            return null;
        }
    }

    /** The date {@code t} names, relative to {@code now}; null when it is no date this parser knows. */
    static long[] read(String t, ZonedDateTime now) {
        Matcher m = EPOCH.matcher(t);
        if (m.matches()) {
            return new long[] {Long.parseLong(m.group(1)), nanos(m.group(2))};
        }
        String[] words = t.toLowerCase(Locale.ROOT).replace(",", " ").trim().split("\\s+");
        LocalDate date = null;
        LocalTime time = null;
        int nanos = 0;
        ZoneId zone = null;
        long years = 0, months = 0, days = 0, seconds = 0;
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            if (w.isEmpty()) {
                continue;
            }
            Matcher iso = ISO_DATE.matcher(w);
            Matcher clock = TIME.matcher(w.toUpperCase(Locale.ROOT));
            int month = month(w);
            if (iso.matches()) {
                if (date != null) {
                    return null;
                }
                date = LocalDate.of(Integer.parseInt(iso.group(1)), Integer.parseInt(iso.group(2)), Integer.parseInt(iso.group(3)));
                if (iso.group(4) != null) {
                    clock = TIME.matcher(iso.group(4).toUpperCase(Locale.ROOT));
                    if (!clock.matches()) {
                        return null;
                    }
                }
            } else if (month > 0) {
                // Jan 15 [2024]
                if (date != null || i + 1 >= words.length || !words[i + 1].matches("\\d{1,2}")) {
                    return null;
                }
                int day = Integer.parseInt(words[++i]);
                int year = now.getYear();
                if (i + 1 < words.length && words[i + 1].matches("\\d{4}")) {
                    year = Integer.parseInt(words[++i]);
                }
                date = LocalDate.of(year, month, day);
                continue;
            } else if (w.matches("\\d{1,2}") && i + 1 < words.length && month(words[i + 1]) > 0) {
                // 15 Jan [2024]
                if (date != null) {
                    return null;
                }
                int day = Integer.parseInt(w);
                month = month(words[++i]);
                int year = now.getYear();
                if (i + 1 < words.length && words[i + 1].matches("\\d{4}")) {
                    year = Integer.parseInt(words[++i]);
                }
                date = LocalDate.of(year, month, day);
                continue;
            }
            if (clock.matches() && (iso.matches() ? iso.group(4) != null : true)) {
                if (time != null) {
                    return null;
                }
                time = LocalTime.of(Integer.parseInt(clock.group(1)), Integer.parseInt(clock.group(2)),
                        clock.group(3) == null ? 0 : Integer.parseInt(clock.group(3)));
                nanos = (int) nanos(clock.group(4));
                if (clock.group(5) != null) {
                    zone = zone(clock.group(5));
                }
                continue;
            }
            if (iso.matches()) {
                continue;
            }
            if (ZONE.matcher(w.toUpperCase(Locale.ROOT)).matches() && time != null && zone == null) {
                zone = zone(w.toUpperCase(Locale.ROOT));
                continue;
            }
            long n;
            String unit;
            switch (w) {
                case "now", "today" -> {
                    continue;
                }
                case "yesterday" -> {
                    days -= 1;
                    continue;
                }
                case "tomorrow" -> {
                    days += 1;
                    continue;
                }
                case "last", "next", "this" -> {
                    if (i + 1 >= words.length) {
                        return null;
                    }
                    n = w.equals("last") ? -1 : w.equals("next") ? 1 : 0;
                    unit = words[++i];
                }
                default -> {
                    if (NUMBER.matcher(w).matches()) {
                        if (i + 1 >= words.length) {
                            return null;
                        }
                        n = Long.parseLong(w.startsWith("+") ? w.substring(1) : w);
                        unit = words[++i];
                    } else {
                        n = 1;
                        unit = w;
                    }
                }
            }
            if (i + 1 < words.length && words[i + 1].equals("ago")) {
                n = -n;
                i++;
            }
            String u = unit.endsWith("s") && unit.length() > 3 ? unit.substring(0, unit.length() - 1) : unit;
            switch (u) {
                case "year" -> years = Math.addExact(years, n);
                case "month" -> months = Math.addExact(months, n);
                case "fortnight" -> days = Math.addExact(days, Math.multiplyExact(n, 14));
                case "week" -> days = Math.addExact(days, Math.multiplyExact(n, 7));
                case "day" -> days = Math.addExact(days, n);
                case "hour" -> seconds = Math.addExact(seconds, Math.multiplyExact(n, 3600));
                case "minute", "min" -> seconds = Math.addExact(seconds, Math.multiplyExact(n, 60));
                case "second", "sec" -> seconds = Math.addExact(seconds, n);
                default -> {
                    return null;
                }
            }
        }
        ZoneId z = zone == null ? now.getZone() : zone;
        ZonedDateTime base;
        if (t.isBlank()) {
            base = now.toLocalDate().atStartOfDay(z); // GNU reads an empty date as today's midnight
        } else if (date == null && time == null) {
            base = now;
        } else {
            LocalDate d = date != null ? date : now.withZoneSameInstant(z).toLocalDate();
            LocalTime tm = time != null ? time.withNano(nanos) : LocalTime.MIDNIGHT;
            base = LocalDateTime.of(d, tm).atZone(z);
        }
        ZonedDateTime moved = base.plusYears(years).plusMonths(months).plusDays(days).plusSeconds(seconds);
        return new long[] {moved.toEpochSecond(), moved.getNano()};
    }

    /** 1 to 12 for a month's name or its three-letter (or {@code sept}) abbreviation, else 0. */
    private static int month(String w) {
        String s = w.endsWith(".") ? w.substring(0, w.length() - 1) : w;
        for (int k = 0; k < 12; k++) {
            String full = java.time.Month.of(k + 1).name().toLowerCase(Locale.ROOT);
            if (s.equals(MONTHS[k]) || s.equals(full) || (k == 8 && s.equals("sept"))) {
                return k + 1;
            }
        }
        return 0;
    }

    private static ZoneId zone(String z) {
        if (z.equals("Z") || z.equals("UTC") || z.equals("GMT") || z.equals("UT")) {
            return ZoneOffset.UTC;
        }
        String o = z.length() == 5 ? z.substring(0, 3) + ":" + z.substring(3) : z;
        return ZoneOffset.of(o);
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
