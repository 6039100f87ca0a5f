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
    private static final long WINTER = 1_705_320_000L, SUMMER = 1_720_000_000L;

    @Test
    void readsTzAsGlibcDoes() throws Exception {
        for (String tz : ZONES) {
            ZoneId z = TimeZones.of(tz);
            for (long t : new long[] {WINTER, SUMMER}) {
                String offset = z.getRules().getOffset(Instant.ofEpochSecond(t)).getId().replace(":", "").replace("Z", "+0000");
                assertThat(offset).as("TZ=%s at %d (%s)", tz, t, z).isEqualTo(glibc(tz, t));
            }
        }
    }

    @Test
    void unsetIsTheSystemsZone() throws Exception {
        ZoneId z = TimeZones.of(null);
        for (long t : new long[] {WINTER, SUMMER}) {
            String offset = z.getRules().getOffset(Instant.ofEpochSecond(t)).getId().replace(":", "").replace("Z", "+0000");
            assertThat(offset).isEqualTo(glibc(null, t));
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

    /** GNU date's {@code %z} at {@code t} with {@code TZ=tz} (null: unset). */
    private static String glibc(String tz, long t) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("date", "-d", "@" + t, "+%z");
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
