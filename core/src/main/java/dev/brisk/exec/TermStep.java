// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One step of a kill sequence ({@code --term-seq}): send {@code signal} to every process of the
 * job, then wait up to {@code millis} for it to end before the next step. Immutable.
 *
 * @param signal a signal number, 1–64
 * @param millis how long to wait after sending it
 */
public record TermStep(int signal, long millis) {
    /** GNU parallel's default: TERM,200,TERM,100,TERM,50,KILL,25. */
    public static final List<TermStep> DEFAULT = List.of(new TermStep(15, 200), new TermStep(15, 100),
            new TermStep(15, 50), new TermStep(9, 25));

    private static final Map<String, Integer> NAMES = Map.ofEntries(Map.entry("HUP", 1), Map.entry("INT", 2),
            Map.entry("QUIT", 3), Map.entry("KILL", 9), Map.entry("USR1", 10), Map.entry("USR2", 12),
            Map.entry("PIPE", 13), Map.entry("ALRM", 14), Map.entry("TERM", 15), Map.entry("CONT", 18),
            Map.entry("STOP", 19));

    public TermStep {
        if (signal < 1 || signal > 64) {
            throw new IllegalArgumentException("not a signal number: " + signal);
        }
        if (millis < 0) {
            throw new IllegalArgumentException("millis must not be negative, got " + millis);
        }
    }

    /**
     * Parses {@code SIG,MS,SIG,MS,...} (names such as TERM or SIGTERM, or numbers); a final
     * signal without a wait gets 25 ms, as in GNU parallel.
     *
     * @throws IllegalArgumentException naming the bad part
     */
    public static List<TermStep> parse(String text) {
        String[] f = text.split(",");
        List<TermStep> steps = new ArrayList<>();
        for (int i = 0; i < f.length; i += 2) {
            int sig = signal(f[i].trim(), text);
            long ms = 25;
            if (i + 1 < f.length) {
                try {
                    ms = Long.parseLong(f[i + 1].trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad --term-seq '" + text + "': '" + f[i + 1] + "' is not milliseconds");
                }
            }
            steps.add(new TermStep(sig, ms));
        }
        return List.copyOf(steps);
    }

    private static int signal(String s, String text) {
        String n = s.toUpperCase(Locale.ROOT);
        if (n.startsWith("SIG")) {
            n = n.substring(3);
        }
        Integer known = NAMES.get(n);
        if (known != null) {
            return known;
        }
        try {
            return Integer.parseInt(n);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad --term-seq '" + text + "': '" + s + "' is not a signal");
        }
    }
}
