// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * pv's {@code %{sgr:colour,...}}: ECMA-48 Select Graphic Rendition codes from pv's keywords
 * ({@code red}, {@code bg-blue}, {@code bold}, {@code reset}...) or bare numbers from
 * console_codes(4). Unknown words are left out, as pv leaves them.
 */
final class Sgr {
    private static final String[] COLOURS = {"black", "red", "green", "brown", "blue", "magenta", "cyan", "white"};
    private static final Map<String, Integer> WORDS = words();

    private Sgr() {}

    private static Map<String, Integer> words() {
        Map<String, Integer> m = new java.util.HashMap<>();
        for (int i = 0; i < COLOURS.length; i++) {
            m.put(COLOURS[i], 30 + i);
            m.put("fg-" + COLOURS[i], 30 + i);
            m.put("bg-" + COLOURS[i], 40 + i);
        }
        m.put("yellow", 33);
        m.put("fg-yellow", 33);
        m.put("bg-yellow", 43);
        m.put("fg-default", 39);
        m.put("bg-default", 49);
        m.putAll(Map.of("reset", 0, "none", 0, "bold", 1, "dim", 2, "italic", 3, "underscore", 4, "underline", 4,
                "blink", 5, "reverse", 7));
        m.putAll(Map.of("no-bold", 22, "no-dim", 22, "no-italic", 23, "no-underscore", 24, "no-underline", 24,
                "no-blink", 25, "no-reverse", 27));
        return Map.copyOf(m);
    }

    /** The escape sequence for a comma-separated list, or "" when no word in it is known. */
    static String codes(String list) {
        List<String> codes = new ArrayList<>();
        for (String word : list.split(",")) {
            String w = word.strip().toLowerCase(java.util.Locale.ROOT);
            Integer code = WORDS.get(w);
            if (code != null) {
                codes.add(code.toString());
            } else if (w.matches("\\d{1,3}")) {
                codes.add(String.valueOf(Integer.parseInt(w)));
            }
        }
        return codes.isEmpty() ? "" : "\033[" + String.join(";", codes) + "m";
    }
}
