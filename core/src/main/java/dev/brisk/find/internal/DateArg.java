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
 * with its meaning. {@code @SECONDS[.FRAC]}; a calendar date ({@code 2024-01-15}, {@code 24-01-15},
 * {@code 1/15/2024}, {@code 2024/01/15}, {@code 20240115}, {@code Jan 15 2024}, {@code 15 Jan 2024},
 * {@code 15-Jan-2024}, {@code January 15, 2024}; the year defaults to this year); a time of day
 * ({@code HH:MM[:SS[.FRAC]]}, {@code 10pm}, {@code 10:30 am}, a lone {@code HH} or {@code HHMM}
 * after a date; joined to an ISO date by {@code T}); a zone ({@code Z}, {@code UTC}, {@code EST},
 * {@code CET} and the other common names, {@code +HH:MM}/{@code -HHMM} after a time; else local
 * time); a weekday ({@code monday}, {@code last friday}, {@code next tue}); {@code now},
 * {@code today}, {@code yesterday}, {@code tomorrow}; relative items ({@code [+-]N UNIT},
 * {@code N UNIT ago}, {@code last UNIT}, {@code next UNIT} with UNIT year, month, fortnight,
 * week, day, hour, minute/min, second/sec). As in GNU: a date or weekday without a time means its
 * midnight, relative items alone move from now, calendar units before clock units. Anything else
 * ({@code noon}, military zone letters, ambiguous {@code 10:30 +2 hours}) is refused, never guessed.
 * Stateless.
 */
final class DateArg {
    private DateArg() {}

    private static final Pattern EPOCH = Pattern.compile("@(-?\\d+)(?:[.,](\\d{1,9})\\d*)?");
    private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};

    /** {seconds, nanoseconds} since the epoch, or null when the text is no date this parser knows. */
    static long[] parse(String text) {
        try {
            return read(text.trim(), ZonedDateTime.now(ZoneId.systemDefault()));
        } catch (DateTimeException | NumberFormatException | ArithmeticException e) {
            return null;
        }
    }

    /** A token of a date: a number (with its sign character, or 0, and digit count), a word, or a punctuation character. */
    private record Tok(long num, int digits, char sign, String word, char punct, String text) {
        boolean isNum() {
            return digits > 0;
        }

        boolean unsignedNum() {
            return digits > 0 && sign == 0;
        }

        boolean is(char c) {
            return punct == c;
        }
    }

    /** Splits {@code t} into tokens as GNU's scanner does (a sign joins the number after it); null on a character it has no use for. */
    private static java.util.List<Tok> tokens(String t) {
        java.util.List<Tok> out = new java.util.ArrayList<>();
        int i = 0, n = t.length();
        while (i < n) {
            char c = t.charAt(i);
            if (Character.isWhitespace(c) || c == ',') {
                i++;
            } else if (c == '+' || c == '-' || (c >= '0' && c <= '9')) {
                char sign = 0;
                int j = i;
                if (c == '+' || c == '-') {
                    sign = c;
                    j++;
                    while (j < n && Character.isWhitespace(t.charAt(j))) {
                        j++;
                    }
                    if (j >= n || t.charAt(j) < '0' || t.charAt(j) > '9') {
                        out.add(new Tok(0, 0, (char) 0, null, c, null));
                        i++;
                        continue;
                    }
                }
                int from = j;
                while (j < n && t.charAt(j) >= '0' && t.charAt(j) <= '9') {
                    j++;
                }
                if (j - from > 18) {
                    return null;
                }
                long v = Long.parseLong(t.substring(from, j));
                out.add(new Tok(sign == '-' ? -v : v, j - from, sign, null, (char) 0, t.substring(from, j)));
                i = j;
            } else if (c >= 'a' && c <= 'z') {
                int j = i;
                while (j < n && ((t.charAt(j) >= 'a' && t.charAt(j) <= 'z') || t.charAt(j) == '.')) {
                    j++;
                }
                String w = t.substring(i, j);
                out.add(new Tok(0, 0, (char) 0, w.endsWith(".") ? w.substring(0, w.length() - 1) : w, (char) 0, null));
                i = j;
            } else if (c == ':' || c == '/' || c == '.') {
                out.add(new Tok(0, 0, (char) 0, null, c, null));
                i++;
            } else {
                return null;
            }
        }
        return out;
    }

    /** The date {@code t} names, relative to {@code now}; null when it is no date this parser knows. */
    static long[] read(String text, ZonedDateTime now) {
        Matcher m = EPOCH.matcher(text.trim());
        if (m.matches()) {
            return new long[] {Long.parseLong(m.group(1)), nanos(m.group(2))};
        }
        java.util.List<Tok> toks = tokens(text.toLowerCase(Locale.ROOT));
        if (toks == null) {
            return null;
        }
        Integer year = null, month = null, day = null;
        int yearDigits = 0;
        Integer hour = null, minute = null, second = null;
        int nanos = 0;
        boolean datesSeen = false, relsSeen = false, daysSeen = false;
        int dayNumber = 0, dayOrdinal = 0;
        ZoneOffset zone = null;
        long years = 0, months = 0, days = 0, seconds = 0;
        int p = 0;
        while (p < toks.size()) {
            Tok a = toks.get(p);
            Tok b = p + 1 < toks.size() ? toks.get(p + 1) : null;
            Tok c = p + 2 < toks.size() ? toks.get(p + 2) : null;
            Tok d = p + 3 < toks.size() ? toks.get(p + 3) : null;
            Tok e = p + 4 < toks.size() ? toks.get(p + 4) : null;
            if (a.unsignedNum() && b != null && b.is(':') && c != null && c.unsignedNum()) {
                // a time of day: H:MM[:SS[.frac]] [am|pm] [+-HH[:MM]|+-HHMM]
                if (hour != null) {
                    return null;
                }
                hour = (int) a.num;
                minute = (int) c.num;
                second = 0;
                p += 3;
                if (d != null && d.is(':') && e != null && e.unsignedNum()) {
                    second = (int) e.num;
                    p += 2;
                    if (p + 1 < toks.size() && (toks.get(p).is('.') || toks.get(p).is(',')) && toks.get(p + 1).unsignedNum()) {
                        String f = toks.get(p + 1).text;
                        nanos = (int) nanos(f.length() > 9 ? f.substring(0, 9) : f);
                        p += 2;
                    }
                }
                p = meridian(toks, p, hour);
                if (p < 0) {
                    return null;
                }
                hour = hour(toks, p, hour);
                if (p < toks.size() && toks.get(p).isNum() && toks.get(p).sign != 0) {
                    if (p + 1 < toks.size() && unit(toks.get(p + 1)) != null) {
                        return null; // "10:30 +2 hours": GNU reads a zone there; refuse rather than guess
                    }
                    Tok o = toks.get(p);
                    int off;
                    if (p + 2 < toks.size() && toks.get(p + 1).is(':') && toks.get(p + 2).unsignedNum()) {
                        off = (int) (Math.abs(o.num) * 60 + toks.get(p + 2).num);
                        p += 3;
                    } else {
                        long v = Math.abs(o.num);
                        off = (int) (o.digits <= 2 ? v * 60 : (v / 100) * 60 + v % 100);
                        p += 1;
                    }
                    if (zone != null) {
                        return null;
                    }
                    zone = ZoneOffset.ofTotalSeconds((o.sign == '-' ? -off : off) * 60);
                }
                continue;
            }
            if (a.unsignedNum() && b != null && b.isNum() && b.sign == '-' && c != null && c.isNum() && c.sign == '-') {
                // ISO 8601 date: Y-M-D, optionally with T before a time
                if (datesSeen) {
                    return null;
                }
                datesSeen = true;
                year = (int) a.num;
                yearDigits = a.digits;
                month = (int) -b.num;
                day = (int) -c.num;
                p += 3;
                if (p < toks.size() && "t".equals(toks.get(p).word) && p + 1 < toks.size() && toks.get(p + 1).unsignedNum()) {
                    p++;
                }
                continue;
            }
            if (a.unsignedNum() && b != null && b.is('/') && c != null && c.unsignedNum()) {
                // M/D[/Y] or Y/M/D
                if (datesSeen) {
                    return null;
                }
                datesSeen = true;
                p += 3;
                if (d != null && d.is('/') && e != null && e.unsignedNum()) {
                    if (a.digits >= 3) {
                        year = (int) a.num;
                        yearDigits = a.digits;
                        month = (int) c.num;
                        day = (int) e.num;
                    } else {
                        month = (int) a.num;
                        day = (int) c.num;
                        year = (int) e.num;
                        yearDigits = e.digits;
                    }
                    p += 2;
                } else {
                    month = (int) a.num;
                    day = (int) c.num;
                }
                continue;
            }
            if (a.word != null && month(a.word) > 0) {
                // Mon D [Y], Mon D, Y
                if (datesSeen || b == null || !b.unsignedNum()) {
                    return null;
                }
                datesSeen = true;
                month = month(a.word);
                day = (int) b.num;
                p += 2;
                if (c != null && c.unsignedNum() && c.digits >= 3 && !(d != null && d.is(':'))) {
                    year = (int) c.num;
                    yearDigits = c.digits;
                    p++;
                }
                continue;
            }
            if (a.unsignedNum() && b != null && b.word != null && month(b.word) > 0) {
                // D Mon [Y]
                if (datesSeen) {
                    return null;
                }
                datesSeen = true;
                day = (int) a.num;
                month = month(b.word);
                p += 2;
                if (c != null && c.unsignedNum() && !(d != null && d.is(':'))) {
                    year = (int) c.num;
                    yearDigits = c.digits;
                    p++;
                }
                continue;
            }
            if (a.unsignedNum() && b != null && b.is('-') && c != null && c.word != null && month(c.word) > 0
                    && d != null && d.isNum() && d.sign == '-') {
                // D-Mon-Y
                if (datesSeen) {
                    return null;
                }
                datesSeen = true;
                day = (int) a.num;
                month = month(c.word);
                year = (int) -d.num;
                yearDigits = d.digits;
                p += 4;
                continue;
            }
            if (a.unsignedNum() && b != null && b.word != null && (b.word.equals("am") || b.word.equals("pm"))) {
                // 10pm
                if (hour != null) {
                    return null;
                }
                minute = 0;
                second = 0;
                p = meridian(toks, p + 1, (int) a.num);
                if (p < 0) {
                    return null;
                }
                hour = hour(toks, p, (int) a.num);
                continue;
            }
            Integer ordinal = a.word == null ? null : switch (a.word) {
                case "last" -> -1;
                case "this" -> 0;
                case "next", "first" -> 1;
                case "third" -> 3;
                case "fourth" -> 4;
                case "fifth" -> 5;
                default -> null;
            };
            Tok dayTok = ordinal != null ? b : a;
            if (dayTok != null && dayTok.word != null && weekday(dayTok.word) >= 0) {
                if (daysSeen) {
                    return null;
                }
                daysSeen = true;
                dayNumber = weekday(dayTok.word);
                dayOrdinal = ordinal == null ? 0 : ordinal;
                p += ordinal != null ? 2 : 1;
                continue;
            }
            if (a.word != null && zoneWord(a.word) != null) {
                if (zone != null) {
                    return null;
                }
                zone = zoneWord(a.word);
                p++;
                continue;
            }
            if (a.word != null && (a.word.equals("now") || a.word.equals("today"))) {
                relsSeen = true;
                p++;
                continue;
            }
            if (a.word != null && (a.word.equals("yesterday") || a.word.equals("tomorrow"))) {
                relsSeen = true;
                days += a.word.equals("yesterday") ? -1 : 1;
                p++;
                continue;
            }
            long n;
            String unit;
            if (a.isNum() && b != null && unit(b) != null) {
                n = a.num;
                unit = unit(b);
                p += 2;
            } else if (ordinal != null && b != null && unit(b) != null) {
                n = ordinal;
                unit = unit(b);
                p += 2;
            } else if (unit(a) != null) {
                n = 1;
                unit = unit(a);
                p += 1;
            } else if (a.unsignedNum()) {
                // a lone number: the year after a date, a date (YYYYMMDD), or a time (HH or HHMM), as GNU reads it
                if (datesSeen && yearDigits == 0 && year == null && !relsSeen && (hour != null || a.digits > 2)) {
                    year = (int) a.num;
                    yearDigits = a.digits;
                } else if (a.digits > 4) {
                    if (datesSeen) {
                        return null;
                    }
                    datesSeen = true;
                    day = (int) (a.num % 100);
                    month = (int) (a.num / 100 % 100);
                    year = (int) (a.num / 10000);
                    yearDigits = a.digits - 4;
                } else {
                    if (hour != null) {
                        return null;
                    }
                    hour = (int) (a.digits <= 2 ? a.num : a.num / 100);
                    minute = (int) (a.digits <= 2 ? 0 : a.num % 100);
                    second = 0;
                }
                p++;
                continue;
            } else {
                return null;
            }
            if (p < toks.size() && "ago".equals(toks.get(p).word)) {
                n = -n;
                p++;
            }
            relsSeen = true;
            switch (unit) {
                case "year" -> years = Math.addExact(years, n);
                case "month" -> months = Math.addExact(months, n);
                case "fortnight" -> days = Math.addExact(days, Math.multiplyExact(n, 14));
                case "week" -> days = Math.addExact(days, Math.multiplyExact(n, 7));
                case "day" -> days = Math.addExact(days, n);
                case "hour" -> seconds = Math.addExact(seconds, Math.multiplyExact(n, 3600));
                case "minute" -> seconds = Math.addExact(seconds, Math.multiplyExact(n, 60));
                default -> seconds = Math.addExact(seconds, n);
            }
        }
        LocalDateTime wall = now.toLocalDateTime();
        LocalDate date = wall.toLocalDate();
        if (datesSeen) {
            int y = year == null ? wall.getYear() : yearDigits == 2 ? year + (year < 69 ? 2000 : 1900) : year;
            date = LocalDate.of(y, month, day);
        }
        LocalTime time;
        if (hour != null) {
            time = LocalTime.of(hour, minute, second, nanos);
        } else if (relsSeen && !datesSeen && !daysSeen) {
            time = wall.toLocalTime();
        } else {
            time = LocalTime.MIDNIGHT;
        }
        if (daysSeen && !datesSeen) {
            int wday = date.getDayOfWeek().getValue() % 7;
            long ord = dayOrdinal - (dayOrdinal > 0 && wday != dayNumber ? 1 : 0);
            date = date.plusDays(ord * 7 + (dayNumber - wday + 7) % 7);
        }
        ZonedDateTime base = LocalDateTime.of(date, time).atZone(zone == null ? now.getZone() : zone);
        ZonedDateTime moved = base.plusYears(years).plusMonths(months).plusDays(days).plusSeconds(seconds);
        return new long[] {moved.toEpochSecond(), moved.getNano()};
    }

    /** Skips an {@code am}/{@code pm} at {@code p}; -1 when the hour cannot take it. */
    private static int meridian(java.util.List<Tok> toks, int p, int hour) {
        if (p < toks.size() && ("am".equals(toks.get(p).word) || "pm".equals(toks.get(p).word))) {
            return hour < 1 || hour > 12 ? -1 : p + 1;
        }
        return p;
    }

    /** The 24-hour hour of {@code hour}, given the {@code am}/{@code pm} just before {@code p}, if any. */
    private static int hour(java.util.List<Tok> toks, int p, int hour) {
        String w = p > 0 ? toks.get(p - 1).word : null;
        if ("am".equals(w)) {
            return hour == 12 ? 0 : hour;
        }
        if ("pm".equals(w)) {
            return hour == 12 ? 12 : hour + 12;
        }
        return hour;
    }

    /** The unit a word names (year, month, fortnight, week, day, hour, minute, second), or null. */
    private static String unit(Tok t) {
        if (t.word == null) {
            return null;
        }
        return switch (t.word) {
            case "year", "years" -> "year";
            case "month", "months" -> "month";
            case "fortnight", "fortnights" -> "fortnight";
            case "week", "weeks" -> "week";
            case "day", "days" -> "day";
            case "hour", "hours" -> "hour";
            case "minute", "minutes", "min", "mins" -> "minute";
            case "second", "seconds", "sec", "secs" -> "second";
            default -> null;
        };
    }

    /** 0 (Sunday) to 6 for a weekday's name or abbreviation, else -1. */
    private static int weekday(String w) {
        String[] names = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
        for (int k = 0; k < 7; k++) {
            if (w.equals(names[k]) || w.equals(names[k].substring(0, 3)) || (k == 2 && w.equals("tues"))
                    || (k == 3 && w.equals("wednes")) || (k == 4 && (w.equals("thur") || w.equals("thurs")))) {
                return k;
            }
        }
        return -1;
    }

    /** The offset of a zone name GNU's table knows and people use, or null. */
    private static ZoneOffset zoneWord(String w) {
        int minutes = switch (w) {
            case "z", "utc", "ut", "gmt", "wet" -> 0;
            case "west", "bst", "cet", "met", "mez" -> 60;
            case "cest", "mest", "mesz", "eet" -> 120;
            case "eest", "msk" -> 180;
            case "ist" -> 330;
            case "jst", "kst" -> 540;
            case "est" -> -300;
            case "edt", "cdt" -> w.equals("edt") ? -240 : -300;
            case "cst" -> -360;
            case "mst" -> -420;
            case "mdt" -> -360;
            case "pst" -> -480;
            case "pdt" -> -420;
            case "akst" -> -540;
            case "akdt" -> -480;
            case "hst" -> -600;
            default -> Integer.MIN_VALUE;
        };
        return minutes == Integer.MIN_VALUE ? null : ZoneOffset.ofTotalSeconds(minutes * 60);
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
