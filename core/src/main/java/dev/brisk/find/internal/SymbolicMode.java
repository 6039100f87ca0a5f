// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A mode as chmod(1) reads it, for {@code -perm}: gnulib's {@code mode_compile} and
 * {@code mode_adjust}, which GNU find calls. Octal ({@code 644}, up to 07777, any number of
 * digits) or symbolic: comma-separated clauses {@code [ugoa]*([-+=]([rwxXst]*|[ugo]|[0-7]+))+}
 * ({@code g+u} copies the user bits, {@code X} is execute where some execute bit is set or on a
 * directory, {@code o=} clears). The bits are applied to an all-zero template. Where a clause
 * names no class ({@code +w}), chmod's umask rule applies as POSIX's find says since Austin Group
 * bug 1392 ({@code -perm -+w} under umask 022 is {@code -perm -200}); GNU find 4.9 takes the
 * umask as 0 there, which {@link #bits} is given for its {@code /MODE}.
 */
final class SymbolicMode {
    private static final int ALL = 07777, SUID = 04000, SGID = 02000, SVTX = 01000;
    private static final int ORDINARY = 0, X_IF_ANY_X = 1, COPY = 2;

    private record Change(char op, int flag, int affected, int value, int mentioned) {}

    private final List<Change> changes;

    private SymbolicMode(List<Change> changes) {
        this.changes = changes;
    }

    /**
     * The calling thread's umask (a warm server's call thread holds its caller's), from
     * {@code /proc/thread-self/status}: reading it by umask(2) would change it for a moment.
     * 022 when it cannot be read.
     */
    static int umask() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/thread-self/status"))) {
                if (line.startsWith("Umask:")) {
                    return Integer.parseInt(line.substring(6).strip(), 8);
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // no /proc: chmod's usual default
        }
        return 022;
    }

    /** Whether the symbolic mode {@code s} has a clause that names no class ({@code +w}, {@code a+r,=x}), where the umask counts. */
    static boolean namesNoClass(String s) {
        boolean clauseStart = true;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (clauseStart && (c == '+' || c == '-' || c == '=')) {
                return true;
            }
            clauseStart = c == ',';
        }
        return false;
    }

    /** The mode {@code s} describes, or null if it is not a valid mode. */
    static SymbolicMode compile(String s) {
        List<Change> out = new ArrayList<>();
        int n = s.length();
        if (n > 0 && s.charAt(0) >= '0' && s.charAt(0) < '8') {
            int octal = 0, p = 0;
            do {
                octal = 8 * octal + s.charAt(p++) - '0';
                if (octal > ALL) {
                    return null;
                }
            } while (p < n && s.charAt(p) >= '0' && s.charAt(p) < '8');
            if (p < n) {
                return null;
            }
            int mentioned = p < 5 ? (octal & (SUID | SGID)) | SVTX | 0777 : ALL;
            out.add(new Change('=', ORDINARY, ALL, octal, mentioned));
            return new SymbolicMode(out);
        }
        int p = 0;
        for (;;) {
            int affected = 0;
            for (;; p++) {
                char c = p < n ? s.charAt(p) : 0;
                if (c == 'u') {
                    affected |= SUID | 0700;
                } else if (c == 'g') {
                    affected |= SGID | 0070;
                } else if (c == 'o') {
                    affected |= SVTX | 0007;
                } else if (c == 'a') {
                    affected |= ALL;
                } else if (c == '=' || c == '+' || c == '-') {
                    break;
                } else {
                    return null;
                }
            }
            do {
                char op = s.charAt(p++);
                char c = p < n ? s.charAt(p) : 0;
                int value, mentioned = 0, flag = COPY;
                if (c >= '0' && c < '8') {
                    int octal = 0;
                    do {
                        octal = 8 * octal + s.charAt(p++) - '0';
                        if (octal > ALL) {
                            return null;
                        }
                    } while (p < n && s.charAt(p) >= '0' && s.charAt(p) < '8');
                    if (affected != 0 || (p < n && s.charAt(p) != ',')) {
                        return null;
                    }
                    affected = mentioned = ALL;
                    value = octal;
                    flag = ORDINARY;
                } else if (c == 'u') {
                    value = 0700;
                    p++;
                } else if (c == 'g') {
                    value = 0070;
                    p++;
                } else if (c == 'o') {
                    value = 0007;
                    p++;
                } else {
                    value = 0;
                    flag = ORDINARY;
                    for (;; p++) {
                        c = p < n ? s.charAt(p) : 0;
                        if (c == 'r') {
                            value |= 0444;
                        } else if (c == 'w') {
                            value |= 0222;
                        } else if (c == 'x') {
                            value |= 0111;
                        } else if (c == 'X') {
                            flag = X_IF_ANY_X;
                        } else if (c == 's') {
                            value |= SUID | SGID;
                        } else if (c == 't') {
                            value |= SVTX;
                        } else {
                            break;
                        }
                    }
                }
                out.add(new Change(op, flag, affected, value,
                        mentioned != 0 ? mentioned : affected != 0 ? affected & value : value));
            } while (p < n && "=+-".indexOf(s.charAt(p)) >= 0);
            if (p >= n || s.charAt(p) != ',') {
                break;
            }
            p++;
        }
        return p == n ? new SymbolicMode(out) : null;
    }

    /**
     * The bits this mode gives a file (or a directory: {@code X}, and set-id bits not mentioned)
     * whose mode was 0, with {@code umask} masking the permission bits of clauses that name no class.
     */
    int bits(boolean dir, int umask) {
        int mode = 0;
        for (Change ch : changes) {
            int omit = (dir ? SUID | SGID : 0) & ~ch.mentioned();
            int value = ch.value();
            if (ch.flag() == COPY) {
                value &= mode;
                value |= ((value & 0444) != 0 ? 0444 : 0) | ((value & 0222) != 0 ? 0222 : 0) | ((value & 0111) != 0 ? 0111 : 0);
            } else if (ch.flag() == X_IF_ANY_X && ((mode & 0111) != 0 || dir)) {
                value |= 0111;
            }
            value &= (ch.affected() != 0 ? ch.affected() : ALL & ~(umask & 0777)) & ~omit;
            switch (ch.op()) {
                case '=' -> {
                    int preserved = (ch.affected() != 0 ? ~ch.affected() : 0) | omit;
                    mode = (mode & preserved) | value;
                }
                case '+' -> mode |= value;
                default -> mode &= ~value;
            }
        }
        return mode & ALL;
    }
}
