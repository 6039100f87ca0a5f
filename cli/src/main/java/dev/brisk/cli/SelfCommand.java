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
 * This JVM's own command line ({@code /proc/self/cmdline}: the same java, JVM flags, AOT cache
 * and jar), changed to run {@code brisk par} again elsewhere: the batch job of
 * {@code --slurm-submit} runs it with {@code --slurm} in place of {@code --slurm-submit OPTS}.
 * The launchers ({@code ./brisk}, {@code /usr/bin/brisk}) start brisk as {@code java ... -jar
 * JAR par ...}, and the tests do the same; a JVM started otherwise cannot be re-run this way.
 */
final class SelfCommand {
    private SelfCommand() {}

    /**
     * The command line for the batch job.
     *
     * @param operands how many trailing arguments are the command and its input groups (left as they are)
     * @throws IllegalStateException when this JVM was not started as {@code java ... -jar JAR par ...}
     */
    static List<byte[]> forSlurmJob(int operands) {
        try {
            return forSlurmJob(RawArgs.split(Files.readAllBytes(Path.of("/proc/self/cmdline"))), operands);
        } catch (IOException e) {
            throw new IllegalStateException("--slurm-submit: cannot read this process's command line: " + e.getMessage());
        }
    }

    /** As {@link #forSlurmJob(int)}, from the command line {@code all}. */
    static List<byte[]> forSlurmJob(List<byte[]> all, int operands) {
        int par = -1;
        for (int i = 1; i + 2 < all.size(); i++) {
            if (is(all.get(i), "-jar")) {
                par = is(all.get(i + 2), "par") ? i + 2 : -1;
                break;
            }
        }
        if (par < 0) {
            throw new IllegalStateException("--slurm-submit: brisk was not started as 'java ... -jar JAR par ...': run it through the brisk launcher");
        }
        List<byte[]> out = new ArrayList<>(all.subList(0, par + 1));
        out.add("--slurm".getBytes(StandardCharsets.US_ASCII));
        int end = all.size() - operands;
        for (int i = par + 1; i < end; i++) {
            byte[] a = all.get(i);
            if (is(a, "--slurm-submit")) {
                i++;
            } else if (!startsWith(a, "--slurm-submit=")) {
                out.add(a);
            }
        }
        out.addAll(all.subList(end, all.size()));
        return out;
    }

    private static boolean is(byte[] a, String s) {
        return Arrays.equals(a, s.getBytes(StandardCharsets.US_ASCII));
    }

    private static boolean startsWith(byte[] a, String s) {
        byte[] p = s.getBytes(StandardCharsets.US_ASCII);
        return a.length >= p.length && Arrays.equals(a, 0, p.length, p, 0, p.length);
    }
}
