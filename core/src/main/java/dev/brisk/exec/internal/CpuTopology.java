// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * This machine's CPUs as GNU parallel counts them ({@code --number-of-sockets},
 * {@code --number-of-cores}, {@code --number-of-threads}): from the kernel's topology files, else
 * {@code /proc/cpuinfo}, else the JVM's processor count for all three. Immutable.
 *
 * @param sockets physical packages with a CPU
 * @param cores physical cores (sets of sibling threads)
 * @param threads logical CPUs
 */
public record CpuTopology(int sockets, int cores, int threads) {
    /**
     * Reads {@code sysCpu} (normally {@code /sys/devices/system/cpu}), falling back to
     * {@code cpuinfo} (normally {@code /proc/cpuinfo}); never fails.
     */
    public static CpuTopology of(Path sysCpu, Path cpuinfo) {
        try {
            Set<String> packages = new HashSet<>();
            Set<String> siblings = new HashSet<>();
            int threads = 0;
            for (; ; threads++) {
                Path topology = sysCpu.resolve("cpu" + threads).resolve("topology");
                Path pkg = topology.resolve("physical_package_id");
                Path sib = topology.resolve("thread_siblings");
                if (!Files.isReadable(pkg) || !Files.isReadable(sib)) {
                    break;
                }
                packages.add(Files.readString(pkg, StandardCharsets.US_ASCII).strip());
                siblings.add(Files.readString(sib, StandardCharsets.US_ASCII).strip());
            }
            if (threads > 0) {
                return new CpuTopology(packages.size(), siblings.size(), threads);
            }
            Set<String> sockets = new HashSet<>();
            Set<String> cores = new HashSet<>();
            String physical = "";
            for (String line : Files.readAllLines(cpuinfo, StandardCharsets.ISO_8859_1)) {
                String value = line.indexOf(':') < 0 ? "" : line.substring(line.indexOf(':') + 1).strip();
                if (line.startsWith("physical id")) {
                    physical = value;
                    sockets.add(value);
                } else if (line.startsWith("core id")) {
                    cores.add(physical + "/" + value);
                } else if (line.startsWith("processor") && !value.isEmpty() && Character.isDigit(value.charAt(0))) {
                    threads++;
                }
            }
            if (threads > 0) {
                return new CpuTopology(Math.max(1, sockets.size()), cores.isEmpty() ? threads : cores.size(), threads);
            }
        } catch (IOException | RuntimeException e) {
            // unreadable: the JVM's count below
        }
        int n = Runtime.getRuntime().availableProcessors();
        return new CpuTopology(n, n, n);
    }
}
