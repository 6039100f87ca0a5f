// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * C {@code printf} conversions as GNU find's {@code -printf} hands them to the C library: every
 * directive is formatted as {@code %s} (strings: precision truncates, {@code 0} pads with
 * blanks), {@code %d} ({@code %d}: precision is a minimum digit count), {@code %o} ({@code %m})
 * or {@code %g} ({@code %S}), with the directive's flags, width and precision. Stateless.
 */
final class CFormat {
    private CFormat() {}

    /** {@code %s}: {@code v} cut to {@code precision} bytes (when not negative), padded to {@code width}. */
    static byte[] string(byte[] v, String flags, int width, int precision) {
        if (precision >= 0 && precision < v.length) {
            v = Arrays.copyOf(v, precision);
        }
        return pad(v, flags.indexOf('-') >= 0, width);
    }

    /** {@code %d} of {@code value}. */
    static byte[] decimal(long value, String flags, int width, int precision) {
        String digits = value == Long.MIN_VALUE ? "9223372036854775808" : Long.toString(Math.abs(value));
        String sign = value < 0 ? "-" : flags.indexOf('+') >= 0 ? "+" : flags.indexOf(' ') >= 0 ? " " : "";
        return integer(sign, digits, flags, width, precision);
    }

    /** {@code %o} of {@code value}; the {@code #} flag makes the first digit a 0. */
    static byte[] octal(long value, String flags, int width, int precision) {
        String digits = Long.toOctalString(value);
        if (flags.indexOf('#') >= 0 && !digits.startsWith("0") && (precision < 0 || precision <= digits.length())) {
            digits = "0" + digits;
        }
        return integer("", digits, flags, width, precision);
    }

    private static byte[] integer(String sign, String digits, String flags, int width, int precision) {
        if (precision == 0 && digits.equals("0")) {
            digits = "";
        }
        if (precision > digits.length()) {
            digits = "0".repeat(precision - digits.length()) + digits;
        }
        boolean left = flags.indexOf('-') >= 0;
        if (!left && precision < 0 && flags.indexOf('0') >= 0 && sign.length() + digits.length() < width) {
            digits = "0".repeat(width - sign.length() - digits.length()) + digits;
        }
        return pad(ascii(sign + digits), left, width);
    }

    /** {@code %g} of {@code value}: C's shortest of %e and %f at {@code precision} significant digits (6 if unset). */
    static byte[] general(double value, String flags, int width, int precision) {
        boolean alt = flags.indexOf('#') >= 0;
        String sign = value < 0 || (value == 0 && 1 / value < 0) ? "-" : flags.indexOf('+') >= 0 ? "+"
                : flags.indexOf(' ') >= 0 ? " " : "";
        double a = Math.abs(value);
        String body;
        boolean finite = !Double.isInfinite(a) && !Double.isNaN(a);
        if (!finite) {
            body = Double.isNaN(a) ? "nan" : "inf";
        } else {
            int p = precision < 0 ? 6 : precision == 0 ? 1 : precision;
            BigDecimal exact = new BigDecimal(a);
            BigDecimal rounded = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            int x = a == 0 ? 0 : rounded.precision() - rounded.scale() - 1;
            if (x < p && x >= -4) {
                body = exact.setScale(p - 1 - x, RoundingMode.HALF_EVEN).toPlainString();
                if (!alt) {
                    body = trimZeros(body);
                } else if (body.indexOf('.') < 0) {
                    body = body + ".";
                }
            } else {
                String mant = rounded.movePointLeft(x).setScale(p - 1, RoundingMode.HALF_EVEN).toPlainString();
                if (!alt) {
                    mant = trimZeros(mant);
                } else if (mant.indexOf('.') < 0) {
                    mant = mant + ".";
                }
                int ev = x;
                body = mant + "e" + (ev < 0 ? "-" : "+") + (Math.abs(ev) < 10 ? "0" : "") + Math.abs(ev);
            }
        }
        boolean left = flags.indexOf('-') >= 0;
        if (finite && !left && flags.indexOf('0') >= 0 && sign.length() + body.length() < width) {
            body = "0".repeat(width - sign.length() - body.length()) + body;
        }
        return pad(ascii(sign + body), left, width);
    }

    private static String trimZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    private static byte[] pad(byte[] v, boolean left, int width) {
        if (v.length >= width) {
            return v;
        }
        byte[] r = new byte[width];
        Arrays.fill(r, (byte) ' ');
        System.arraycopy(v, 0, r, left ? 0 : width - v.length, v.length);
        return r;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
