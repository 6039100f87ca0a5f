// SPDX-License-Identifier: Apache-2.0
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

    /** {seconds, nanoseconds} since the epoch of {@code text} read in {@code zone}, or null when it is no date this parser knows. */
    static long[] parse(String text, ZoneId zone) {
        try {
            return read(text.trim(), ZonedDateTime.now(zone));
        } catch (DateTimeException | NumberFormatException | ArithmeticException e) {
            return null;
        }
    }


    /** The date {@code t} names, relative to {@code now}; null when it is no date this parser knows. */
    static long[] read(String text, ZonedDateTime now) {
        Matcher m = EPOCH.matcher(text.trim());
        if (m.matches()) {
            return new long[] {Long.parseLong(m.group(1)), nanos(m.group(2))};
        }
        java.util.List<DateWords.Tok> toks = DateWords.tokens(text.toLowerCase(Locale.ROOT));
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
            DateWords.Tok a = toks.get(p);
            DateWords.Tok b = p + 1 < toks.size() ? toks.get(p + 1) : null;
            DateWords.Tok c = p + 2 < toks.size() ? toks.get(p + 2) : null;
            DateWords.Tok d = p + 3 < toks.size() ? toks.get(p + 3) : null;
            DateWords.Tok e = p + 4 < toks.size() ? toks.get(p + 4) : null;
            if (a.unsignedNum() && b != null && b.is(':') && c != null && c.unsignedNum()) {
                // a time of day: H:MM[:SS[.frac]] [am|pm] [+-HH[:MM]|+-HHMM]
                if (hour != null) {
                    return null;
                }
                hour = (int) a.num();
                minute = (int) c.num();
                second = 0;
                p += 3;
                if (d != null && d.is(':') && e != null && e.unsignedNum()) {
                    second = (int) e.num();
                    p += 2;
                    if (p + 1 < toks.size() && (toks.get(p).is('.') || toks.get(p).is(',')) && toks.get(p + 1).unsignedNum()) {
                        String f = toks.get(p + 1).text();
                        nanos = (int) nanos(f.length() > 9 ? f.substring(0, 9) : f);
                        p += 2;
                    }
                }
                p = meridian(toks, p, hour);
                if (p < 0) {
                    return null;
                }
                hour = hour(toks, p, hour);
                if (p < toks.size() && toks.get(p).isNum() && toks.get(p).sign() != 0) {
                    if (p + 1 < toks.size() && DateWords.unit(toks.get(p + 1)) != null) {
                        return null; // "10:30 +2 hours": GNU reads a zone there; refuse rather than guess
                    }
                    DateWords.Tok o = toks.get(p);
                    int off;
                    if (p + 2 < toks.size() && toks.get(p + 1).is(':') && toks.get(p + 2).unsignedNum()) {
                        off = (int) (Math.abs(o.num()) * 60 + toks.get(p + 2).num());
                        p += 3;
                    } else {
                        long v = Math.abs(o.num());
                        off = (int) (o.digits() <= 2 ? v * 60 : (v / 100) * 60 + v % 100);
                        p += 1;
                    }
                    if (zone != null) {
                        return null;
                    }
                    zone = ZoneOffset.ofTotalSeconds((o.sign() == '-' ? -off : off) * 60);
                }
                continue;
            }
            if (a.unsignedNum() && b != null && b.isNum() && b.sign() == '-' && c != null && c.isNum() && c.sign() == '-') {
                // ISO 8601 date: Y-M-D, optionally with T before a time
                if (datesSeen) {
                    return null;
                }
                datesSeen = true;
                year = (int) a.num();
                yearDigits = a.digits();
                month = (int) -b.num();
                day = (int) -c.num();
                p += 3;
                if (p < toks.size() && "t".equals(toks.get(p).word()) && p + 1 < toks.size() && toks.get(p + 1).unsignedNum()) {
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
                    if (a.digits() >= 3) {
                        year = (int) a.num();
                        yearDigits = a.digits();
                        month = (int) c.num();
                        day = (int) e.num();
                    } else {
                        month = (int) a.num();
                        day = (int) c.num();
                        year = (int) e.num();
                        yearDigits = e.digits();
                    }
                    p += 2;
                } else {
                    month = (int) a.num();
                    day = (int) c.num();
                }
                continue;
            }
            if (a.word() != null && DateWords.month(a.word()) > 0) {
                // Mon D [Y], Mon D, Y
                if (datesSeen || b == null || !b.unsignedNum()) {
                    return null;
                }
                datesSeen = true;
                month = DateWords.month(a.word());
                day = (int) b.num();
                p += 2;
                if (c != null && c.unsignedNum() && c.digits() >= 3 && !(d != null && d.is(':'))) {
                    year = (int) c.num();
                    yearDigits = c.digits();
                    p++;
                }
                continue;
            }
            if (a.unsignedNum() && b != null && b.word() != null && DateWords.month(b.word()) > 0) {
                // D Mon [Y]
                if (datesSeen) {
                    return null;
                }
                datesSeen = true;
                day = (int) a.num();
                month = DateWords.month(b.word());
                p += 2;
                if (c != null && c.unsignedNum() && !(d != null && d.is(':'))) {
                    year = (int) c.num();
                    yearDigits = c.digits();
                    p++;
                }
                continue;
            }
            if (a.unsignedNum() && b != null && b.is('-') && c != null && c.word() != null && DateWords.month(c.word()) > 0
                    && d != null && d.isNum() && d.sign() == '-') {
                // D-Mon-Y
                if (datesSeen) {
                    return null;
                }
                datesSeen = true;
                day = (int) a.num();
                month = DateWords.month(c.word());
                year = (int) -d.num();
                yearDigits = d.digits();
                p += 4;
                continue;
            }
            if (a.unsignedNum() && b != null && b.word() != null && (b.word().equals("am") || b.word().equals("pm"))) {
                // 10pm
                if (hour != null) {
                    return null;
                }
                minute = 0;
                second = 0;
                p = meridian(toks, p + 1, (int) a.num());
                if (p < 0) {
                    return null;
                }
                hour = hour(toks, p, (int) a.num());
                continue;
            }
            Integer ordinal = a.word() == null ? null : switch (a.word()) {
                case "last" -> -1;
                case "this" -> 0;
                case "next", "first" -> 1;
                case "third" -> 3;
                case "fourth" -> 4;
                case "fifth" -> 5;
                default -> null;
            };
            DateWords.Tok dayTok = ordinal != null ? b : a;
            if (dayTok != null && dayTok.word() != null && DateWords.weekday(dayTok.word()) >= 0) {
                if (daysSeen) {
                    return null;
                }
                daysSeen = true;
                dayNumber = DateWords.weekday(dayTok.word());
                dayOrdinal = ordinal == null ? 0 : ordinal;
                p += ordinal != null ? 2 : 1;
                continue;
            }
            if (a.word() != null && DateWords.zoneWord(a.word()) != null) {
                if (zone != null) {
                    return null;
                }
                zone = DateWords.zoneWord(a.word());
                p++;
                continue;
            }
            if (a.word() != null && (a.word().equals("now") || a.word().equals("today"))) {
                relsSeen = true;
                p++;
                continue;
            }
            if (a.word() != null && (a.word().equals("yesterday") || a.word().equals("tomorrow"))) {
                relsSeen = true;
                days += a.word().equals("yesterday") ? -1 : 1;
                p++;
                continue;
            }
            long n;
            String unit;
            if (a.isNum() && b != null && DateWords.unit(b) != null) {
                n = a.num();
                unit = DateWords.unit(b);
                p += 2;
            } else if (ordinal != null && b != null && DateWords.unit(b) != null) {
                n = ordinal;
                unit = DateWords.unit(b);
                p += 2;
            } else if (DateWords.unit(a) != null) {
                n = 1;
                unit = DateWords.unit(a);
                p += 1;
            } else if (a.unsignedNum()) {
                // a lone number: the year after a date, a date (YYYYMMDD), or a time (HH or HHMM), as GNU reads it
                if (datesSeen && yearDigits == 0 && year == null && !relsSeen && (hour != null || a.digits() > 2)) {
                    year = (int) a.num();
                    yearDigits = a.digits();
                } else if (a.digits() > 4) {
                    if (datesSeen) {
                        return null;
                    }
                    datesSeen = true;
                    day = (int) (a.num() % 100);
                    month = (int) (a.num() / 100 % 100);
                    year = (int) (a.num() / 10000);
                    yearDigits = a.digits() - 4;
                } else {
                    if (hour != null) {
                        return null;
                    }
                    hour = (int) (a.digits() <= 2 ? a.num() : a.num() / 100);
                    minute = (int) (a.digits() <= 2 ? 0 : a.num() % 100);
                    second = 0;
                }
                p++;
                continue;
            } else {
                return null;
            }
            if (p < toks.size() && "ago".equals(toks.get(p).word())) {
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
        ZoneId z = zone == null ? now.getZone() : zone;
        LocalDateTime local = LocalDateTime.of(date, time);
        if ((datesSeen || hour != null) && z.getRules().getValidOffsets(local).isEmpty()) {
            return null; // a local time the clocks skip (spring forward): GNU refuses it too
        }
        // as GNU's mktime: years and months move the month field only, and a day past the new
        // month's end rolls into the next (Jan 31 + 1 month = Mar 2 or 3), never clamps
        long monthIndex = Math.addExact(Math.addExact(date.getYear() * 12L + date.getMonthValue() - 1,
                Math.multiplyExact(years, 12L)), months);
        LocalDate shifted = LocalDate.of(Math.toIntExact(Math.floorDiv(monthIndex, 12L)), (int) Math.floorMod(monthIndex, 12L) + 1, 1)
                .plusDays(Math.addExact(date.getDayOfMonth() - 1L, days));
        ZonedDateTime moved = LocalDateTime.of(shifted, time).atZone(z).plusSeconds(seconds);
        return new long[] {moved.toEpochSecond(), moved.getNano()};
    }

    /** Skips an {@code am}/{@code pm} at {@code p}; -1 when the hour cannot take it. */
    private static int meridian(java.util.List<DateWords.Tok> toks, int p, int hour) {
        if (p < toks.size() && ("am".equals(toks.get(p).word()) || "pm".equals(toks.get(p).word()))) {
            return hour < 1 || hour > 12 ? -1 : p + 1;
        }
        return p;
    }

    /** The 24-hour hour of {@code hour}, given the {@code am}/{@code pm} just before {@code p}, if any. */
    private static int hour(java.util.List<DateWords.Tok> toks, int p, int hour) {
        String w = p > 0 ? toks.get(p - 1).word() : null;
        if ("am".equals(w)) {
            return hour == 12 ? 0 : hour;
        }
        if ("pm".equals(w)) {
            return hour == 12 ? 12 : hour + 12;
        }
        return hour;
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
