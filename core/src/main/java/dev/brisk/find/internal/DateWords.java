// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.time.ZoneOffset;
import java.util.Locale;

/**
 * The words and tokens of {@link DateArg}'s dates: a scanner that splits a lower-cased date into
 * numbers (a sign joins the number after it, as in GNU's scanner), words and punctuation, and the
 * tables of month, weekday, unit and zone names. Stateless.
 */
final class DateWords {
    private DateWords() {}

    private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};

    /** A token of a date: a number (with its sign character, or 0, and digit count), a word, or a punctuation character. */
    record Tok(long num, int digits, char sign, String word, char punct, String text) {
        boolean isNum() {
            return digits > 0;
        }

        boolean unsignedNum() {
            return digits > 0 && sign == 0;
        }

        boolean is(char c) {
            return punct == c;
        }
    }

    /** Splits {@code t} into tokens as GNU's scanner does (a sign joins the number after it); null on a character it has no use for. */
    static java.util.List<Tok> tokens(String t) {
        java.util.List<Tok> out = new java.util.ArrayList<>();
        int i = 0, n = t.length();
        while (i < n) {
            char c = t.charAt(i);
            if (Character.isWhitespace(c) || c == ',') {
                i++;
            } else if (c == '+' || c == '-' || (c >= '0' && c <= '9')) {
                char sign = 0;
                int j = i;
                if (c == '+' || c == '-') {
                    sign = c;
                    j++;
                    while (j < n && Character.isWhitespace(t.charAt(j))) {
                        j++;
                    }
                    if (j >= n || t.charAt(j) < '0' || t.charAt(j) > '9') {
                        out.add(new Tok(0, 0, (char) 0, null, c, null));
                        i++;
                        continue;
                    }
                }
                int from = j;
                while (j < n && t.charAt(j) >= '0' && t.charAt(j) <= '9') {
                    j++;
                }
                if (j - from > 18) {
                    return null;
                }
                long v = Long.parseLong(t.substring(from, j));
                out.add(new Tok(sign == '-' ? -v : v, j - from, sign, null, (char) 0, t.substring(from, j)));
                i = j;
            } else if (c >= 'a' && c <= 'z') {
                int j = i;
                while (j < n && ((t.charAt(j) >= 'a' && t.charAt(j) <= 'z') || t.charAt(j) == '.')) {
                    j++;
                }
                String w = t.substring(i, j);
                out.add(new Tok(0, 0, (char) 0, w.endsWith(".") ? w.substring(0, w.length() - 1) : w, (char) 0, null));
                i = j;
            } else if (c == ':' || c == '/' || c == '.') {
                out.add(new Tok(0, 0, (char) 0, null, c, null));
                i++;
            } else {
                return null;
            }
        }
        return out;
    }

    /** The unit a word names (year, month, fortnight, week, day, hour, minute, second), or null. */
    static String unit(Tok t) {
        if (t.word == null) {
            return null;
        }
        return switch (t.word) {
            case "year", "years" -> "year";
            case "month", "months" -> "month";
            case "fortnight", "fortnights" -> "fortnight";
            case "week", "weeks" -> "week";
            case "day", "days" -> "day";
            case "hour", "hours" -> "hour";
            case "minute", "minutes", "min", "mins" -> "minute";
            case "second", "seconds", "sec", "secs" -> "second";
            default -> null;
        };
    }

    /** 0 (Sunday) to 6 for a weekday's name or abbreviation, else -1. */
    static int weekday(String w) {
        String[] names = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
        for (int k = 0; k < 7; k++) {
            if (w.equals(names[k]) || w.equals(names[k].substring(0, 3)) || (k == 2 && w.equals("tues"))
                    || (k == 3 && w.equals("wednes")) || (k == 4 && (w.equals("thur") || w.equals("thurs")))) {
                return k;
            }
        }
        return -1;
    }

    /** The offset of a zone name GNU's table knows and people use, or null. */
    static ZoneOffset zoneWord(String w) {
        int minutes = switch (w) {
            case "z", "utc", "ut", "gmt", "wet" -> 0;
            case "west", "bst", "cet", "met", "mez" -> 60;
            case "cest", "mest", "mesz", "eet" -> 120;
            case "eest", "msk" -> 180;
            case "ist" -> 330;
            case "jst", "kst" -> 540;
            case "est" -> -300;
            case "edt", "cdt" -> w.equals("edt") ? -240 : -300;
            case "cst" -> -360;
            case "mst" -> -420;
            case "mdt" -> -360;
            case "pst" -> -480;
            case "pdt" -> -420;
            case "akst" -> -540;
            case "akdt" -> -480;
            case "hst" -> -600;
            default -> Integer.MIN_VALUE;
        };
        return minutes == Integer.MIN_VALUE ? null : ZoneOffset.ofTotalSeconds(minutes * 60);
    }

    /** 1 to 12 for a month's name or its three-letter (or {@code sept}) abbreviation, else 0. */
    static int month(String w) {
        String s = w.endsWith(".") ? w.substring(0, w.length() - 1) : w;
        for (int k = 0; k < 12; k++) {
            String full = java.time.Month.of(k + 1).name().toLowerCase(Locale.ROOT);
            if (s.equals(MONTHS[k]) || s.equals(full) || (k == 8 && s.equals("sept"))) {
                return k + 1;
            }
        }
        return 0;
    }
}
