// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.posix.Caller;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link TimeZones} against glibc itself: for each {@code TZ}, the offset GNU date(1) shows at a
 * winter and a summer instant is the offset of the zone TimeZones reads from it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TimeZonesTest {
    private static final List<String> ZONES = List.of("Asia/Tokyo", ":Europe/Paris", "America/New_York", "UTC", "UTC0", "GMT",
            "", "JST-9", "GMT+5", "<+0330>-3:30", "EST5", "EST5EDT", "/usr/share/zoneinfo/Australia/Adelaide",
            ":/usr/share/zoneinfo/America/Sao_Paulo", "Europe/Nowhere", "posix/Europe/Berlin", "NZ");
    /** Zones in POSIX's form, whose abbreviations come from the text too. */
    private static final List<String> POSIX = List.of("JST-9", ":JST-9", "UTC0", "<+0330>-3:30", "IST-5:30", "EST5",
            "CET-1CEST,M3.5.0,M10.5.0/3", "EST5EDT4,M3.2.0/2,M11.1.0/2", "XYZ5ABC", "AEST-10AEDT,M10.1.0,M4.1.0/3",
            "NZST-12NZDT,M9.5.0,M4.1.0/3", "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", "ABC-2DEF,J60/1,J300/23:30");
    private static final long WINTER = 1_705_320_000L, SUMMER = 1_720_000_000L;
    /** A winter and a summer instant, and a second either side of Europe's and the United States' spring changes in 2024. */
    private static final long[] INSTANTS = {WINTER, SUMMER, 1_711_846_799L, 1_711_846_800L, 1_710_053_999L, 1_710_054_000L};

    @Test
    void readsTzAsGlibcDoes() throws Exception {
        for (String tz : ZONES) {
            ZoneId z = TimeZones.of(tz);
            for (long t : INSTANTS) {
                String offset = z.getRules().getOffset(Instant.ofEpochSecond(t)).getId().replace(":", "").replace("Z", "+0000");
                assertThat(offset).as("TZ=%s at %d (%s)", tz, t, z).isEqualTo(glibc(tz, t, "%z"));
            }
        }
    }

    @Test
    void readsPosixZonesAndTheirAbbreviationsAsGlibcDoes() throws Exception {
        for (String tz : POSIX) {
            ZoneId z = TimeZones.of(tz);
            for (long t : INSTANTS) {
                java.time.ZonedDateTime at = Instant.ofEpochSecond(t).atZone(z);
                String shown = at.getOffset().getId().replace(":", "").replace("Z", "+0000") + " " + Printf.zoneAbbreviation(at);
                assertThat(shown).as("TZ=%s at %d", tz, t).isEqualTo(glibc(tz, t, "%z %Z"));
            }
        }
    }

    @Test
    void unsetIsTheSystemsZone() throws Exception {
        ZoneId z = TimeZones.of(null);
        for (long t : INSTANTS) {
            String offset = z.getRules().getOffset(Instant.ofEpochSecond(t)).getId().replace(":", "").replace("Z", "+0000");
            assertThat(offset).isEqualTo(glibc(null, t, "%z"));
        }
    }

    @Test
    void aClientsZoneIsItsOwn() {
        Caller before = Caller.current();
        try {
            Caller.set(new Caller(-1, 0, 1, 2, List.of("TZ=Asia/Kolkata".getBytes(StandardCharsets.UTF_8)), null, -1, 0, 0, 0));
            assertThat(TimeZones.current()).isEqualTo(ZoneId.of("Asia/Kolkata"));
            Caller.set(Caller.SELF);
            assertThat(TimeZones.current()).isEqualTo(ZoneId.systemDefault());
        } finally {
            Caller.set(before);
        }
    }

    /** GNU date's {@code format} at {@code t} with {@code TZ=tz} (null: unset). */
    private static String glibc(String tz, long t, String format) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("date", "-d", "@" + t, "+" + format);
        pb.environment().remove("TZ");
        if (tz != null) {
            pb.environment().put("TZ", tz);
        }
        Process p = pb.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return out;
    }
}
