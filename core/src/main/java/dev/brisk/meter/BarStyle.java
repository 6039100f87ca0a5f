// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

/**
 * The look of a progress bar, as pv 1.9+ names them ({@code --bar-style}, {@code %{bar-NAME}}):
 * {@link #PLAIN} ASCII {@code ====>}, {@link #BLOCK} full blocks, {@link #GRANULAR} full blocks with
 * eighth-block partial cells, {@link #SHADED} full blocks over a light-shade background with dark
 * and medium shades for partial cells. The Unicode styles fall back to plain where UTF-8 output
 * is not available.
 */
public enum BarStyle {
    PLAIN("<=>", ">", " ", "="),
    BLOCK("◀▶", "", " ", "█"),
    GRANULAR("◀▶", "", " ", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"),
    SHADED("▒▓▒", "", "░", "▒", "▓", "█");

    private final String indicator;
    private final String tip;
    private final String[] fillers;

    BarStyle(String indicator, String tip, String... fillers) {
        this.indicator = indicator;
        this.tip = tip;
        this.fillers = fillers;
    }

    /** The style called {@code name} (plain, block, granular, shaded), or null if there is none. */
    public static BarStyle named(String name) {
        for (BarStyle s : values()) {
            if (s.name().equalsIgnoreCase(name)) {
                return s;
            }
        }
        return null;
    }

    /** This style where UTF-8 can be written, else {@link #PLAIN}. */
    public BarStyle given(boolean utf8) {
        return utf8 ? this : PLAIN;
    }

    /**
     * A bar {@code width} cells wide (each character here is one cell), filled to {@code percent}:
     * full cells, then the tip (plain) or a partial cell, then the background.
     */
    public String filled(double percent, int width) {
        if (width <= 0) {
            return "";
        }
        percent = Math.clamp(percent, 0, 100);
        int full = fillers.length - 1;
        boolean hasTip = full == 1 && !tip.isEmpty();
        int filled = (int) (width * percent / 100);
        if (hasTip && filled > 0) {
            filled -= 1;
        }
        StringBuilder b = new StringBuilder(width);
        int cells = 0;
        for (; cells < filled && cells < width; cells++) {
            b.append(fillers[full]);
        }
        if (hasTip && cells < width) {
            b.append(tip);
            cells++;
        }
        if (cells < width && full > 1 && !hasTip) {
            double portion = width * percent / 100 - filled;
            b.append(fillers[Math.min(full, (int) (full * portion))]);
            cells++;
        }
        for (; cells < width; cells++) {
            b.append(fillers[0]);
        }
        return b.toString();
    }

    /**
     * The moving indicator of an unknown size, {@code width} cells in all, at {@code position}
     * percent of the way across (0-100).
     */
    public String moving(double position, int width) {
        int area = width - indicator.length();
        if (area < 2) {
            return "";
        }
        int before = (int) (area * Math.clamp(position, 0, 100) / 100);
        return fillers[0].repeat(before) + indicator + fillers[0].repeat(area - before);
    }
}
