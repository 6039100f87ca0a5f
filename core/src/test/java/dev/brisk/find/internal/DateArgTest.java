// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The dates of {@code -newerXt}, read against a fixed "now" (2024-06-10 15:20:30 UTC). */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class DateArgTest {
    private static final ZonedDateTime NOW = ZonedDateTime.of(2024, 6, 10, 15, 20, 30, 0, ZoneOffset.UTC);

    private static long at(String text) {
        long[] t = DateArg.read(text, NOW);
        assertThat(t).as(text).isNotNull();
        return t[0];
    }

    private static long utc(int y, int mo, int d, int h, int mi, int s) {
        return ZonedDateTime.of(y, mo, d, h, mi, s, 0, ZoneOffset.UTC).toEpochSecond();
    }

    @Test
    void absoluteForms() {
        assertThat(at("2024-01-15")).isEqualTo(utc(2024, 1, 15, 0, 0, 0));
        assertThat(at("2024-01-15 10:30")).isEqualTo(utc(2024, 1, 15, 10, 30, 0));
        assertThat(at("2024-01-15T10:30:05Z")).isEqualTo(utc(2024, 1, 15, 10, 30, 5));
        assertThat(at("2024-01-15 10:30:00 +01:00")).isEqualTo(utc(2024, 1, 15, 9, 30, 0));
        assertThat(at("Jan 15 2024")).isEqualTo(utc(2024, 1, 15, 0, 0, 0));
        assertThat(at("15 Jan 2024")).isEqualTo(utc(2024, 1, 15, 0, 0, 0));
        assertThat(at("January 15, 2024 10:30")).isEqualTo(utc(2024, 1, 15, 10, 30, 0));
        assertThat(at("Jan 15")).isEqualTo(utc(2024, 1, 15, 0, 0, 0));
        assertThat(at("@1705314600")).isEqualTo(1705314600L);
        assertThat(DateArg.read("@1.5", NOW)).containsExactly(1, 500_000_000);
        assertThat(at("1/15/2024")).isEqualTo(utc(2024, 1, 15, 0, 0, 0));
        assertThat(at("01/15/24")).isEqualTo(utc(2024, 1, 15, 0, 0, 0));
        assertThat(at("2024/01/15")).isEqualTo(utc(2024, 1, 15, 0, 0, 0));
        assertThat(at("20240115 1030")).isEqualTo(utc(2024, 1, 15, 10, 30, 0));
        assertThat(at("15-Jan-2024")).isEqualTo(utc(2024, 1, 15, 0, 0, 0));
        assertThat(at("24-01-15")).isEqualTo(utc(2024, 1, 15, 0, 0, 0));
        assertThat(at("Mon Jan 15 10:30:00 UTC 2024")).isEqualTo(utc(2024, 1, 15, 10, 30, 0));
        assertThat(at("2024-01-15 10:30 EST")).isEqualTo(utc(2024, 1, 15, 15, 30, 0));
        assertThat(at("2024-01-15 10:30pm")).isEqualTo(utc(2024, 1, 15, 22, 30, 0));
        assertThat(at("2024-01-15 12am")).isEqualTo(utc(2024, 1, 15, 0, 0, 0));
        assertThat(DateArg.read("2024-01-15 10:30:00.25", NOW)).containsExactly(utc(2024, 1, 15, 10, 30, 0), 250_000_000);
    }

    @Test
    void monthsAndYearsRollOverAsGnuDateDoes() throws Exception {
        // GNU adds to the month field and lets mktime roll a day past the month's end into the
        // next month; date(1) reads dates with the same parser as GNU find
        for (String text : java.util.List.of("2024-05-31 1 month ago", "2024-01-31 +1 month", "2024-08-31 +1 month",
                "2024-02-29 +1 year", "2024-10-31 next month", "2024-03-31 -1 month", "2023-12-31 +2 months",
                "2024-01-31 +13 months", "2024-03-01 -1 day", "2024-12-31 +1 day 2 hours")) {
            ProcessBuilder pb = new ProcessBuilder("date", "-d", text, "+%s").redirectErrorStream(true);
            pb.environment().put("TZ", "UTC"); // NOW's zone
            Process p = pb.start();
            String gnu = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            assertThat(p.waitFor()).as(text + ": " + gnu).isZero();
            assertThat(at(text)).as(text).isEqualTo(Long.parseLong(gnu));
        }
    }

    @Test
    void aLocalTimeTheClocksSkipIsRefused() {
        ZonedDateTime ny = ZonedDateTime.of(2024, 6, 10, 15, 20, 30, 0, java.time.ZoneId.of("America/New_York"));
        assertThat(DateArg.read("2024-03-10 02:30", ny)).isNull();
        assertThat(DateArg.read("2024-03-10 03:30", ny)).isNotNull();
    }

    @Test
    void weekdays() {
        // NOW is a Monday
        assertThat(at("monday")).isEqualTo(utc(2024, 6, 10, 0, 0, 0));
        assertThat(at("last monday")).isEqualTo(utc(2024, 6, 3, 0, 0, 0));
        assertThat(at("friday")).isEqualTo(utc(2024, 6, 14, 0, 0, 0));
        assertThat(at("next friday")).isEqualTo(utc(2024, 6, 14, 0, 0, 0));
        assertThat(at("next monday")).isEqualTo(utc(2024, 6, 17, 0, 0, 0));
        assertThat(at("sunday 10:00")).isEqualTo(utc(2024, 6, 16, 10, 0, 0));
    }

    @Test
    void relativeForms() {
        long now = NOW.toEpochSecond();
        assertThat(at("now")).isEqualTo(now);
        assertThat(at("today")).isEqualTo(now);
        assertThat(at("")).isEqualTo(utc(2024, 6, 10, 0, 0, 0));
        assertThat(at("yesterday")).isEqualTo(now - 86400);
        assertThat(at("tomorrow")).isEqualTo(now + 86400);
        assertThat(at("2 days ago")).isEqualTo(now - 2 * 86400);
        assertThat(at("-3 hours")).isEqualTo(now - 3 * 3600);
        assertThat(at("+2 minutes")).isEqualTo(now + 120);
        assertThat(at("last week")).isEqualTo(now - 7 * 86400);
        assertThat(at("next fortnight")).isEqualTo(now + 14 * 86400);
        assertThat(at("1 month ago")).isEqualTo(utc(2024, 5, 10, 15, 20, 30));
        assertThat(at("yesterday 12:00")).isEqualTo(utc(2024, 6, 9, 12, 0, 0));
        assertThat(at("1 day 2 hours ago")).isEqualTo(now + 86400 - 7200);
    }

    @Test
    void refusesWhatItDoesNotKnow() {
        for (String bad : new String[] {"bogus", "noon", "midnight", "2024-13-45", "Feb 30 2024", "15 Janvier 2024",
                "a day ago", "10:30 +2 hours", "13pm", "2024-01-15 25:00", "2024-01-15 2024-01-16", "1 parsec ago"}) {
            assertThat(DateArg.parse(bad, java.time.ZoneOffset.UTC)).as(bad).isNull();
        }
    }
}
