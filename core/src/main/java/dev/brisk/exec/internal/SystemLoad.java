// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load and free memory from {@code /proc}, for {@code --load} and {@code --memfree}. Stateless. */
public final class SystemLoad {
    private SystemLoad() {}

    /**
     * The load at this instant, as GNU parallel's {@code --load} counts it (not an average): the
     * threads running or ready to run now, from {@code /proc/loadavg}'s fourth field, less the one
     * that reads it (GNU parallel's count of {@code ps}'s lines is one too many likewise); 0 when
     * it cannot be read.
     */
    public static double loadNow() {
        try {
            String s = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII);
            String[] f = s.trim().split(" ");
            return Math.max(0, Integer.parseInt(f[3].substring(0, f[3].indexOf('/'))) - 1);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** MemAvailable in bytes, or {@code Long.MAX_VALUE} when {@code /proc/meminfo} cannot be read. */
    public static long availableMemory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("MemAvailable:")) {
                    String[] f = line.trim().split("\\s+");
                    return Long.parseLong(f[1]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return Long.MAX_VALUE;
    }

    /** The pages swapped in and out since boot ({@code /proc/vmstat}'s pswpin, pswpout), zeros when unreadable. */
    public static long[] swapCounts() {
        long[] r = new long[2];
        try {
            for (String line : Files.readAllLines(Path.of("/proc/vmstat"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("pswpin ")) {
                    r[0] = Long.parseLong(line.substring(7).trim());
                } else if (line.startsWith("pswpout ")) {
                    r[1] = Long.parseLong(line.substring(8).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // zeros: never swapping
        }
        return r;
    }
}
