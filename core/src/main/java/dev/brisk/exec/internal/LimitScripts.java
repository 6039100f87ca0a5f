// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * GNU parallel's predefined {@code --limit} commands: {@code mem SIZE} (status 0 when the free,
 * cached and buffered memory is at least SIZE, 1 below, 2 below half) and {@code load N} (0 while
 * at most N processes run or wait for disk, else 1), as shell text; any other command as it is.
 * Sizes take GNU's unit prefixes (K M G T: powers of 1024; k m g t: of 1000). Stateless.
 */
final class LimitScripts {
    private LimitScripts() {}

    /** The shell text {@code --limit command} runs. */
    static String expand(String command) {
        String[] w = command.trim().split("\\s+");
        if (w.length == 2 && (w[0].equals("mem") || w[0].equals("load")) && !w[1].matches("[0-9.]+[kmgtpKMGTP]?")) {
            return command; // not GNU's script: the command as it is
        }
        if (w.length == 2 && w[0].equals("mem")) {
            long limit = size(w[1]);
            return "awk '/^((Swap)?Cached|MemFree|Buffers):/{ sum += $2 } END { if (sum*1024 < " + limit
                    + "/2) { exit 2 } else { exit (sum*1024 < " + limit + ") } }' /proc/meminfo";
        }
        if (w.length == 2 && w[0].equals("load")) {
            long limit = size(w[1]);
            return "n=$(ps ax -o state,command | grep -E '^[DOR].[^[]' | wc -l); [ \"$n\" -le " + limit + " ]";
        }
        return command;
    }

    /** {@code 1k}, {@code 2M}, {@code 1.5G}: GNU parallel's units; a plain number as it is. */
    static long size(String s) {
        String t = s.trim();
        long unit = 1;
        if (!t.isEmpty() && Character.isLetter(t.charAt(t.length() - 1))) {
            char c = t.charAt(t.length() - 1);
            int power = "kmgtp".indexOf(Character.toLowerCase(c)) + 1;
            if (power == 0) {
                throw new IllegalArgumentException("limit: not a size: " + s);
            }
            unit = 1;
            for (int i = 0; i < power; i++) {
                unit *= Character.isUpperCase(c) ? 1024 : 1000;
            }
            t = t.substring(0, t.length() - 1);
        }
        try {
            return new BigDecimal(t).multiply(BigDecimal.valueOf(unit)).longValue();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("limit: not a size: " + s.toLowerCase(Locale.ROOT), e);
        }
    }
}
