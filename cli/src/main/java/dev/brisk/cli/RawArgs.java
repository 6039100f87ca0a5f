// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command-line arguments as the bytes the kernel holds ({@code /proc/self/cmdline}), for
 * arguments that are not valid UTF-8: Java decodes {@code main}'s arguments, and an invalid byte
 * cannot come back from the decoded String. A warm server's call has its client's arguments as
 * bytes instead ({@link Given}); the server's own command line is never read for it.
 */
final class RawArgs {
    private RawArgs() {}

    /** The arguments of a warm server's call as its client sent them, when the server gave them. */
    static final class Given {
        // a class of its own: a direct run never makes a ScopedValue (start-up)
        static final ScopedValue<List<byte[]>> VALUE = ScopedValue.newInstance();

        private Given() {}
    }

    /**
     * The bytes of {@code decoded} (the trailing arguments of this JVM's command line): from
     * {@code /proc/self/cmdline} when its last entries match them, else their UTF-8 encoding (as
     * when brisk runs inside another program's JVM).
     */
    static List<byte[]> of(List<String> decoded) {
        List<byte[]> plain = new ArrayList<>();
        for (String s : decoded) {
            plain.add(s.getBytes(StandardCharsets.UTF_8));
        }
        List<byte[]> all;
        if (dev.brisk.internal.posix.Caller.current().self()) {
            try {
                all = split(Files.readAllBytes(Path.of("/proc/self/cmdline")));
            } catch (IOException | RuntimeException e) {
                return plain;
            }
        } else if (Given.VALUE.isBound()) {
            all = Given.VALUE.get();
        } else {
            return plain; // a client's call without its bytes: /proc/self/cmdline is the server's
        }
        if (all.size() < decoded.size()) {
            return plain;
        }
        List<byte[]> tail = all.subList(all.size() - decoded.size(), all.size());
        for (int i = 0; i < decoded.size(); i++) {
            byte[] raw = tail.get(i);
            if (Arrays.equals(raw, plain.get(i))) {
                continue;
            }
            String back = new String(raw, StandardCharsets.UTF_8);
            if (!back.equals(decoded.get(i)) && !decoded.get(i).chars().anyMatch(c -> c == 0xFFFD || c == '?' || c >= 0xDC80 && c <= 0xDCFF)) {
                return plain;
            }
        }
        return new ArrayList<>(tail);
    }

    /** {@code /proc/self/cmdline}'s bytes as its NUL-ended arguments. */
    static List<byte[]> split(byte[] cmdline) {
        List<byte[]> args = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < cmdline.length; i++) {
            if (cmdline[i] == 0) {
                args.add(Arrays.copyOfRange(cmdline, start, i));
                start = i + 1;
            }
        }
        if (start < cmdline.length) {
            args.add(Arrays.copyOfRange(cmdline, start, cmdline.length));
        }
        return args;
    }
}
