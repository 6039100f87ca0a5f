// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.nio.charset.StandardCharsets;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.Month;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneOffsetTransitionRule;
import java.time.zone.ZoneOffsetTransitionRule.TimeDefinition;
import java.time.zone.ZoneRules;
import java.time.zone.ZoneRulesProvider;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@code TZ} in POSIX's form, {@code std offset [dst [offset] [,start[/time],end[/time]]]}
 * ({@code JST-9}, {@code <+0330>-3:30}, {@code CET-1CEST,M3.5.0,M10.5.0/3}), as glibc's
 * {@code tzset} reads it: offsets west of UTC, the daylight offset an hour ahead of standard
 * unless given, the rules {@code Mm.w.d} and {@code Jn} (and {@code n}, read as
 * {@code J(n+1)}: a leap year's days after February 28 then come a day late), United States'
 * rules ({@code M3.2.0,M11.1.0}) when none is given, transitions at 02:00 unless given (a time
 * beyond the day's moves the change to another day, unless that takes a {@code Mm.w.d} rule into
 * another month or a {@code Jn} one into another year, which the JDK's rules cannot hold).
 *
 * <p>A JDK {@link ZoneId} can only name rules a {@link ZoneRulesProvider} holds, so each zone
 * read is registered once, under an id made of its text, with a provider of its own, for the
 * life of the JVM (a few per distinct {@code TZ} value). Its abbreviations, which the JDK cannot
 * hold, are kept here for {@code %Z}. Thread-safe.
 */
final class PosixTimeZone {
    private static final String PREFIX = "Brisk-POSIX/";
    private static final Map<String, ZoneId> ZONES = new ConcurrentHashMap<>();
    /** {standard, daylight} abbreviations by zone id. */
    private static final Map<String, String[]> NAMES = new ConcurrentHashMap<>();

    private final String text;
    private int at;

    private PosixTimeZone(String text) {
        this.text = text;
    }

    /** The zone {@code tz} describes, or null when it is not in POSIX's form (or uses what this class does not read). */
    static ZoneId of(String tz) {
        ZoneId known = ZONES.get(tz);
        if (known != null) {
            return known;
        }
        ZoneRules rules;
        String[] names;
        try {
            PosixTimeZone p = new PosixTimeZone(tz);
            names = new String[2];
            rules = p.read(names);
        } catch (RuntimeException e) {
            return null;
        }
        if (rules == null) {
            return null;
        }
        synchronized (ZONES) {
            known = ZONES.get(tz);
            if (known == null) {
                String id = PREFIX + java.util.HexFormat.of().formatHex(tz.getBytes(StandardCharsets.UTF_8));
                ZoneRulesProvider.registerProvider(new Provider(id, rules));
                NAMES.put(id, names);
                known = ZoneId.of(id);
                ZONES.put(tz, known);
            }
        }
        return known;
    }

    /** The abbreviation of {@code zone} ({@code summer}: its daylight one), when it is a zone of this class; else null. */
    static String abbreviation(ZoneId zone, boolean summer) {
        String[] n = NAMES.get(zone.getId());
        return n == null ? null : n[summer && n[1] != null ? 1 : 0];
    }

    private ZoneRules read(String[] names) {
        names[0] = name();
        Integer std = offset();
        if (names[0] == null || std == null) {
            return null;
        }
        ZoneOffset standard = ZoneOffset.ofTotalSeconds(-std);
        if (at == text.length()) {
            return ZoneRules.of(standard);
        }
        names[1] = name();
        if (names[1] == null) {
            return null;
        }
        Integer dstWest = at < text.length() && text.charAt(at) != ',' ? offset() : Integer.valueOf(std - 3600);
        if (dstWest == null) {
            return null;
        }
        ZoneOffset daylight = ZoneOffset.ofTotalSeconds(-dstWest);
        String rules = at == text.length() ? ",M3.2.0,M11.1.0" : text.substring(at);
        PosixTimeZone r = new PosixTimeZone(rules);
        if (!r.take(',')) {
            return null;
        }
        ZoneOffsetTransitionRule start = r.rule(standard, standard, daylight);
        if (start == null || !r.take(',')) {
            return null;
        }
        ZoneOffsetTransitionRule end = r.rule(standard, daylight, standard);
        if (end == null || r.at != rules.length()) {
            return null;
        }
        List<ZoneOffsetTransitionRule> last = new ArrayList<>(List.of(start, end));
        last.sort(Comparator.comparingLong(t -> t.createTransition(2001).toEpochSecond()));
        List<ZoneOffsetTransition> first = new ArrayList<>();
        for (ZoneOffsetTransitionRule t : last) {
            first.add(t.createTransition(1970));
        }
        return ZoneRules.of(standard, first.getFirst().getOffsetBefore(), List.of(), first, last);
    }

    /** An abbreviation: three or more letters, or {@code <...>} (shown without the brackets). */
    private String name() {
        int from = at;
        if (take('<')) {
            int close = text.indexOf('>', at);
            if (close < 0 || close - at < 3) {
                return null;
            }
            String n = text.substring(at, close);
            at = close + 1;
            return n;
        }
        while (at < text.length() && Character.isLetter(text.charAt(at)) && text.charAt(at) < 0x80) {
            at++;
        }
        return at - from >= 3 ? text.substring(from, at) : null;
    }

    /** {@code [+-]hh[:mm[:ss]]} in seconds (west of UTC for an offset), or null. */
    private Integer offset() {
        int sign = take('-') ? -1 : 1;
        if (sign > 0) {
            take('+');
        }
        int secs = 0, parts = 0;
        do {
            int from = at;
            while (at < text.length() && Character.isDigit(text.charAt(at)) && at - from < 3) {
                at++;
            }
            if (at == from) {
                return null;
            }
            secs += Integer.parseInt(text.substring(from, at)) * (parts == 0 ? 3600 : parts == 1 ? 60 : 1);
            parts++;
        } while (parts < 3 && take(':'));
        return sign * secs;
    }

    /** A rule {@code Mm.w.d}, {@code Jn} or {@code n}, with its {@code /time}, or null. */
    private ZoneOffsetTransitionRule rule(ZoneOffset standard, ZoneOffset before, ZoneOffset after) {
        Month month;
        int dayIndicator;
        DayOfWeek dow = null;
        LocalDate date = null;
        if (take('M')) {
            int m = number(), w = take('.') ? number() : -1, d = take('.') ? number() : -1;
            if (m < 1 || m > 12 || w < 1 || w > 5 || d < 0 || d > 6) {
                return null;
            }
            month = Month.of(m);
            dayIndicator = w == 5 ? -1 : 1 + 7 * (w - 1);
            dow = DayOfWeek.of(d == 0 ? 7 : d);
        } else {
            boolean julian = take('J');
            int n = number();
            if (n < (julian ? 1 : 0) || n > 365) {
                return null;
            }
            date = LocalDate.ofYearDay(2001, Math.min(365, julian ? n : n + 1)); // a year without February 29
            month = date.getMonth();
            dayIndicator = date.getDayOfMonth();
        }
        int time = 7200;
        if (take('/')) {
            Integer t = offset();
            if (t == null) {
                return null;
            }
            time = t;
        }
        // a time outside the day (glibc reads -167..167 hours) moves the change to another day
        int shift = time == 86400 ? 0 : Math.floorDiv(time, 86400);
        int clock = time - shift * 86400;
        if (shift != 0) {
            if (dow != null) {
                dow = dow.plus(shift);
                int moved = dayIndicator + shift;
                if (dayIndicator > 0 ? moved < 1 || moved > 28 : moved > -1 || moved < -28) {
                    return null; // into the month before or after: not a rule the JDK can hold
                }
                dayIndicator = moved;
            } else {
                LocalDate moved = date.plusDays(shift);
                if (moved.getYear() != date.getYear()) {
                    return null;
                }
                month = moved.getMonth();
                dayIndicator = moved.getDayOfMonth();
            }
        }
        boolean endOfDay = clock == 86400;
        return ZoneOffsetTransitionRule.of(month, dayIndicator, dow, endOfDay ? LocalTime.MIDNIGHT : LocalTime.ofSecondOfDay(clock),
                endOfDay, TimeDefinition.WALL, standard, before, after);
    }

    private int number() {
        int from = at;
        while (at < text.length() && Character.isDigit(text.charAt(at)) && at - from < 4) {
            at++;
        }
        return at == from ? -1 : Integer.parseInt(text.substring(from, at));
    }

    private boolean take(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    /** The rules of one zone of this class. */
    private static final class Provider extends ZoneRulesProvider {
        private final String id;
        private final ZoneRules rules;

        Provider(String id, ZoneRules rules) {
            this.id = id;
            this.rules = rules;
        }

        @Override
        protected Set<String> provideZoneIds() {
            return Set.of(id);
        }

        @Override
        protected ZoneRules provideRules(String zoneId, boolean forCaching) {
            return rules;
        }

        @Override
        protected NavigableMap<String, ZoneRules> provideVersions(String zoneId) {
            return new TreeMap<>(Map.of("posix", rules));
        }
    }
}
