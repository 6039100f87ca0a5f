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
     * (now,fail=1), {@code -1} (soon,success=1), {@code -2} (now,success=1), {@code P%}
     * (soon,fail=P%) and {@code now|soon,fail|success|done=N|P%}.
     *
     * @throws IllegalArgumentException with GNU parallel's message for the bad value
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
            case "-1" -> {
                return new Halt(When.SOON, Event.SUCCESS, 1, 0);
            }
            case "-2" -> {
                return new Halt(When.NOW, Event.SUCCESS, 1, 0);
            }
            default -> { }
        }
        if (t.matches("[0-9]+%")) {
            t = "soon,fail=" + t;
        }
        String[] w = t.split("[,=]", -1);
        if (!(w[0].equals("now") || w[0].equals("soon") || w[0].equals("never"))) {
            throw new IllegalArgumentException("--halt must have 'never', 'soon', or 'now'.");
        }
        if (w[0].equals("never")) {
            return NEVER;
        }
        Event ev = switch (w.length > 1 ? w[1] : "") {
            case "fail" -> Event.FAIL;
            case "success" -> Event.SUCCESS;
            case "done" -> Event.DONE;
            default -> throw new IllegalArgumentException("--halt " + w[0] + " must be followed by ,success or ,fail.");
        };
        When when = w[0].equals("now") ? When.NOW : When.SOON;
        String n = w.length > 2 ? w[2] : "";
        if (n.matches("[0-9]{1,9}%") && Integer.parseInt(n.substring(0, n.length() - 1)) <= 100) {
            return new Halt(when, ev, 0, Integer.parseInt(n.substring(0, n.length() - 1)));
        }
        if (n.matches("[0-9]{1,18}")) {
            return new Halt(when, ev, Long.parseLong(n), 0);
        }
        throw new IllegalArgumentException("--halt " + w[0] + "," + w[1] + " must be followed by ,number or ,percent%.");
    }

    /**
     * Whether a run halts, given how many jobs have counted towards {@link #event}, how many
     * jobs have finished and how many the run has ({@code total}, 0 when unknown). A percentage
     * is a share of {@code total}, as in GNU parallel (which reads all input first); without a
     * total, a share of the finished jobs once at least 3 have finished.
     */
    public boolean reached(long counted, long finished, long total) {
        if (when == When.NEVER || counted == 0) {
            return false;
        }
        if (percent == 0) {
            return counted >= count;
        }
        if (total > 0) {
            return counted * 100.0 >= percent * total;
        }
        return finished >= 3 && counted * 100.0 >= percent * finished;
    }
}
