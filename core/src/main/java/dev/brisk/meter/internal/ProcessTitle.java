// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The process title for pv's {@code --extra-display proctitle}: the JVM cannot rewrite its argv,
 * so the title goes to the kernel's command name of the process ({@code /proc/self/comm}, which
 * any thread of the process may write), shown by {@code ps -o comm}, {@code top} and
 * {@code pgrep}; the kernel keeps 15 bytes of it.
 */
public final class ProcessTitle {
    private static final Path COMM = Path.of("/proc/self/comm");

    private ProcessTitle() {}

    /** Sets the command name to the first 15 bytes of {@code title}; false if the kernel refuses. */
    public static boolean set(String title) {
        byte[] bytes = title.getBytes(StandardCharsets.UTF_8);
        try {
            Files.write(COMM, Arrays.copyOf(bytes, Math.min(15, bytes.length)));
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
