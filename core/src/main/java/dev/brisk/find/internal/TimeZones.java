// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Caller;
import java.io.IOException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.regex.Pattern;

/**
 * The time zone find shows and counts times in ({@code -printf %t %T@...}, {@code -ls},
 * {@code -daystart}, {@code -newerXt} dates): the caller's {@code TZ} as glibc's {@code tzset}
 * reads it. This process's own zone ({@link ZoneId#systemDefault()}, as before) for a direct run
 * and for a caller whose {@code TZ} is this process's; otherwise: unset, the system's zone
 * ({@code /etc/localtime}); empty, UTC; {@code :NAME} or {@code NAME}, the tz database's zone of
 * that name (a path under {@code /usr/share/zoneinfo} too); else a zone in POSIX's form
 * ({@link PosixTimeZone}: {@code UTC0}, {@code JST-9}, {@code CET-1CEST,M3.5.0,M10.5.0/3}); and
 * UTC for anything else, as glibc. Stateless.
 */
final class TimeZones {
    private static final String ZONEINFO = "/usr/share/zoneinfo/";
    /** What {@link ZoneId#of} reads as an offset rather than a region; compiled on first use (a direct run never needs it). */
    private static final class Syntax {
        static final Pattern OFFSET_ID = Pattern.compile("[+-]|Z$|(?:UTC|GMT|UT)(?:[+-]|$)");
    }

    private TimeZones() {}

    /** The zone of the current {@link Caller}. Loads the time zone classes: call it where a time is shown or counted. */
    static ZoneId current() {
        Caller c = Caller.current();
        if (c.self()) {
            return ZoneId.systemDefault();
        }
        String tz = c.getenv("TZ");
        if (java.util.Objects.equals(tz, System.getenv("TZ"))) {
            return ZoneId.systemDefault();
        }
        return of(tz);
    }

    /** The zone glibc takes from a {@code TZ} of {@code tz} (null: unset). */
    static ZoneId of(String tz) {
        if (tz == null) {
            return system();
        }
        String name = tz.startsWith(":") ? tz.substring(1) : tz;
        if (name.isEmpty()) {
            return ZoneOffset.UTC;
        }
        ZoneId region = region(name);
        if (region != null) {
            return region;
        }
        ZoneId posix = PosixTimeZone.of(name);
        if (posix != null) {
            return posix;
        }
        return ZoneOffset.UTC;
    }

    /** The tz database's zone {@code name} (or the zoneinfo file at that path), or null. */
    private static ZoneId region(String name) {
        String id = name.startsWith("/") ? zoneinfoName(Path.of(name)) : withoutVariant(name);
        if (id == null || id.isEmpty()) {
            return null;
        }
        if (id.contains("..") || Syntax.OFFSET_ID.matcher(id).lookingAt()) {
            return null; // not a file name: "GMT+5" is POSIX's 5 hours west, where the JDK reads 5 east
        }
        try {
            return ZoneId.of(id);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** The system's zone: the one {@code /etc/localtime} links to, else this process's. */
    private static ZoneId system() {
        String id = zoneinfoName(Path.of("/etc/localtime"));
        if (id != null) {
            try {
                return ZoneId.of(id);
            } catch (DateTimeException e) {
                // not a zone the JDK knows: fall through
            }
        }
        return ZoneId.systemDefault();
    }

    /** The tz name of the zoneinfo file {@code p} (following links), or null when it is not under the zoneinfo directory. */
    private static String zoneinfoName(Path p) {
        String real;
        try {
            real = p.toRealPath().toString();
        } catch (IOException | RuntimeException e) {
            real = p.normalize().toString();
        }
        int at = real.indexOf(ZONEINFO);
        if (at < 0) {
            return null;
        }
        return withoutVariant(real.substring(at + ZONEINFO.length()));
    }

    /** {@code id} without tzdata's {@code posix/} or {@code right/} directory (the JDK has one copy of each zone). */
    private static String withoutVariant(String id) {
        for (String prefix : new String[] {"posix/", "right/"}) {
            if (id.startsWith(prefix)) {
                return id.substring(prefix.length());
            }
        }
        return id;
    }
}
