// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Test helper: finds live processes by a marker in their command line, through /proc. */
final class Procs {
    private Procs() {}

    /** Pids (zombies included) whose command line contains {@code marker}. */
    static List<Long> withMarker(String marker) {
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"))) {
            for (Path p : procs) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit) || Long.parseLong(name) == ProcessHandle.current().pid()) {
                    continue;
                }
                try {
                    String cmd = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
                    if (cmd.contains(marker)) {
                        found.add(Long.parseLong(name));
                    }
                } catch (IOException e) {
                    // gone meanwhile
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return found;
    }

    /** Waits up to {@code seconds} for no process to carry {@code marker}; returns those left. */
    static List<Long> awaitNone(String marker, int seconds) throws InterruptedException {
        long until = System.nanoTime() + seconds * 1_000_000_000L;
        List<Long> left = withMarker(marker);
        while (!left.isEmpty() && System.nanoTime() < until) {
            Thread.sleep(20);
            left = withMarker(marker);
        }
        return left;
    }

    /** True when {@code pid} is gone or a zombie. */
    static boolean gone(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException e) {
            return true;
        }
    }

    static boolean awaitGone(long pid, int seconds) throws InterruptedException {
        long until = System.nanoTime() + seconds * 1_000_000_000L;
        while (!gone(pid)) {
            if (System.nanoTime() > until) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Zombies whose parent is one of {@code parents}: children their parent failed to reap. */
    static List<Long> zombiesOf(long... parents) {
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"))) {
            for (Path p : procs) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String stat = Files.readString(p.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ppid = Long.parseLong(f[1]);
                    if (f[0].equals("Z") && java.util.Arrays.stream(parents).anyMatch(x -> x == ppid)) {
                        found.add(Long.parseLong(name));
                    }
                } catch (IOException | RuntimeException e) {
                    // gone meanwhile
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return found;
    }

    /** A sleep duration unique to one test, so its processes can be found by command line. */
    static String marker() {
        return String.format("%d.%06d", 500 + (System.nanoTime() & 0xff), (System.nanoTime() / 7) % 1_000_000);
    }
}
