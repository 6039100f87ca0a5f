// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Libc;
import dev.brisk.serve.CallServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** What the warm server runs for its clients: brisk's own command line ({@link Main#call}). */
final class DaemonHandler implements CallServer.Handler {
    @Override
    public String directReason(List<byte[]> args) {
        return Main.directReason(args);
    }

    @Override
    public int call(List<byte[]> args) {
        return Main.call(args);
    }

    /**
     * Runs the common paths as calls whose descriptors are {@code /dev/null}, beside the first
     * clients' calls (on a thread of its own: a client never waits for it), so that they soon
     * find their classes loaded, linked and compiled: {@code --version},
     * finds over a small temporary tree, {@code pv} and {@code par}. Failures only go to the log.
     */
    static void warm() {
        Thread.ofPlatform().daemon().name("brisk-daemon-warm").start(() -> {
            Path tree = null;
            int nul = -1;
            try {
                nul = Libc.open("/dev/null".getBytes(StandardCharsets.US_ASCII), 2 | 0x80000, 0);
                Caller c = new Caller(-1, nul, nul, nul, null, null, -1, 0, 0, 0);
                c.arguments(List.of());
                Caller.set(c);
                tree = Files.createTempDirectory("brisk-daemon-warm-");
                for (int d = 0; d < 10; d++) {
                    Path dir = Files.createDirectories(tree.resolve("d" + d));
                    for (int f = 0; f < 20; f++) {
                        Files.write(dir.resolve("f" + f + ".txt"), new byte[f]);
                    }
                }
                String root = tree.toString();
                String file = tree.resolve("d9").resolve("f19.txt").toString();
                for (int round = 0; round < 20; round++) {
                    call("--version");
                    call("find", root, "-type", "f");
                    call("find", root, "-name", "*.txt", "-print0");
                    call("find", root, "-type", "d", "-o", "-size", "+1", "-printf", "%p %s %m\\n");
                    call("pv", "-q", "-s", "1M", "-S", "/dev/zero");
                    call("pv", "-q", file);
                    call("par", "true", ":::", "a", "b");
                    call("par", "echo", ":::", "a", "b");
                    call("par", "-j1", "/bin/true", ":::", "a");
                }
            } catch (IOException | RuntimeException e) {
                System.err.println("brisk daemon: warming up: " + e);
            } finally {
                Caller.set(Caller.SELF);
                if (nul >= 0) {
                    Libc.close(nul);
                }
                if (tree != null) {
                    try (Stream<Path> s = Files.walk(tree)) {
                        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                            Files.deleteIfExists(p);
                        }
                    } catch (IOException ignored) {
                        // a temporary directory: the system cleans it up
                    }
                }
            }
        });
    }

    private static void call(String... args) {
        List<byte[]> raw = new ArrayList<>();
        for (String a : args) {
            raw.add(a.getBytes(StandardCharsets.UTF_8));
        }
        Caller.current().arguments(raw);
        Main.call(raw);
    }
}
