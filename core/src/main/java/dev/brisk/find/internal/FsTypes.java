// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The file system type names of {@code %F}, as GNU find finds them: the mount table
 * ({@code /proc/self/mountinfo}), a device number mapped to the type of the last mount of that
 * device (a device mounted twice shows its latest mount), {@code unknown} when no mount has the
 * device. A run reads the table on first use ({@link RunState#fileSystemType}), so runs without
 * {@code %F} or {@code -fstype} never read it. Stateless.
 */
final class FsTypes {
    private FsTypes() {}

    /**
     * The type name of each mounted file system's device ({@code makedev} values, as
     * {@code st_dev}), as mounted now: read per run, since a long-lived server sees mounts come
     * and go.
     */
    static Map<Long, String> read() {
        Map<Long, String> types = new HashMap<>();
        String table;
        try {
            table = new String(Files.readAllBytes(Path.of("/proc/self/mountinfo")), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return types;
        }
        for (String line : table.split("\n")) {
            String[] f = line.split(" ");
            int dash = java.util.Arrays.asList(f).indexOf("-");
            if (f.length < 5 || dash < 0 || dash + 1 >= f.length) {
                continue;
            }
            int colon = f[2].indexOf(':');
            try {
                long major = Long.parseLong(f[2].substring(0, colon));
                long minor = Long.parseLong(f[2].substring(colon + 1));
                types.put(makedev(major, minor), unescape(f[dash + 1]));
            } catch (RuntimeException e) {
                // a line we cannot read names no device
            }
        }
        return types;
    }

    /** glibc's {@code makedev}: the encoding {@code st_dev} has. */
    static long makedev(long major, long minor) {
        return ((major & 0xfffL) << 8) | ((major & ~0xfffL) << 32) | (minor & 0xffL) | ((minor & ~0xffL) << 12);
    }

    /** Undoes the kernel's octal escapes ({@code \040} for a blank) in a mountinfo field. */
    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
