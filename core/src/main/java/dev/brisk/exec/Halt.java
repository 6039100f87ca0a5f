// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.util.Locale;
import java.util.Objects;

/**
 * When to stop a run early, as GNU parallel's {@code --halt}: on the Nth (or P%) failed,
 * succeeded or finished job, either at once (killing running jobs) or soon (starting no new
 * ones). Immutable.
 *
 * @param when {@link When#NEVER}, {@link When#SOON} or {@link When#NOW}
 * @param event which jobs count
 * @param count how many jobs must count, at least 1 (when {@code percent} is 0)
 * @param percent the share of all jobs in percent, in (0, 100], or 0 to use {@code count}
 */
public record Halt(When when, Event event, long count, double percent) {
    /** Never halt: the default. */
    public static final Halt NEVER = new Halt(When.NEVER, Event.FAIL, 1, 0);

    /** How to halt. */
    public enum When { NEVER, SOON, NOW }

    /** Which jobs count towards halting. */
    public enum Event { FAIL, SUCCESS, DONE }

    public Halt {
        Objects.requireNonNull(when, "when");
        Objects.requireNonNull(event, "event");
        if (percent < 0 || percent > 100 || (percent == 0 && count < 1)) {
            throw new IllegalArgumentException("halt needs a count of at least 1 or a percentage in (0,100], got "
                    + (percent == 0 ? Long.toString(count) : percent + "%"));
        }
    }

    /**
     * Parses GNU parallel's forms: {@code never}, {@code 0}, {@code 1} (soon,fail=1), {@code 2}
     * (now,fail=1), and {@code now|soon,fail|success|done=N|P%}.
     *
     * @throws IllegalArgumentException with a message naming the bad value
     */
    public static Halt parse(String text) {
        Objects.requireNonNull(text, "text");
        String t = text.trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "never", "0" -> {
                return NEVER;
            }
            case "1" -> {
                return new Halt(When.SOON, Event.FAIL, 1, 0);
            }
            case "2" -> {
                return new Halt(When.NOW, Event.FAIL, 1, 0);
            }
            default -> { }
        }
        String[] a = t.split(",", 2);
        String[] b = a.length == 2 ? a[1].split("=", 2) : new String[0];
        if (a.length != 2 || b.length != 2 || !(a[0].equals("now") || a[0].equals("soon"))) {
            throw new IllegalArgumentException("bad --halt '" + text + "': use now|soon,fail|success|done=N|P%");
        }
        Event ev = switch (b[0]) {
            case "fail" -> Event.FAIL;
            case "success" -> Event.SUCCESS;
            case "done" -> Event.DONE;
            default -> throw new IllegalArgumentException("bad --halt '" + text + "': '" + b[0]
                    + "' is not fail, success or done");
        };
        When w = a[0].equals("now") ? When.NOW : When.SOON;
        try {
            if (b[1].endsWith("%")) {
                return new Halt(w, ev, 0, Double.parseDouble(b[1].substring(0, b[1].length() - 1)));
            }
            return new Halt(w, ev, Long.parseLong(b[1]), 0);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad --halt '" + text + "': '" + b[1] + "' is not a number or percentage");
        }
    }

    /**
     * Whether a run halts, given how many jobs have counted towards {@link #event} and how many
     * jobs have finished; percentages need at least 3 finished jobs, as in GNU parallel.
     */
    public boolean reached(long counted, long finished, long total) {
        if (when == When.NEVER || counted == 0) {
            return false;
        }
        if (percent == 0) {
            return counted >= count;
        }
        long base = total > 0 ? total : finished;
        return finished >= 3 && counted * 100.0 >= percent * base;
    }
}
