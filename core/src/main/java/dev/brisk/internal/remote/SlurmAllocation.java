// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import dev.brisk.internal.posix.ProgramPath;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Slurm allocation this process runs in ({@code salloc}, {@code sbatch}), read from the
 * variables Slurm sets: {@code SLURM_JOB_ID}, {@code SLURM_JOB_NODELIST} (hostlist syntax,
 * {@code n[1-3,5],gpu01}) and {@code SLURM_JOB_CPUS_PER_NODE} ({@code 2(x3),1}, in the node
 * list's order). Node names come from {@link #expandHostList}, which reads Slurm's syntax, when
 * it gives plain host names, else from {@code scontrol show hostnames} when it runs.
 *
 * @param jobId the job's id
 * @param nodes the allocated nodes in Slurm's order, each with the CPUs the job holds there
 */
public record SlurmAllocation(String jobId, List<Node> nodes) {
    /** One node of the allocation and the CPUs the job holds on it. */
    public record Node(String name, int cpus) {
        public Node {
            if (name.isEmpty() || cpus < 1) {
                throw new IllegalArgumentException("bad Slurm node: '" + name + "' with " + cpus + " CPUs");
            }
        }
    }

    public SlurmAllocation {
        if (jobId.isEmpty() || nodes.isEmpty()) {
            throw new IllegalArgumentException("a Slurm allocation needs a job id and nodes");
        }
        nodes = List.copyOf(nodes);
    }

    /** What turns a hostlist expression into node names. */
    @FunctionalInterface
    public interface HostNames {
        List<String> expand(String hostList) throws IOException;
    }

    /**
     * The allocation described by {@code env}.
     *
     * @throws IllegalArgumentException with a one-line message for the user: not inside an
     *         allocation, {@code srun} not on {@code PATH}, or variables that do not parse
     */
    public static SlurmAllocation fromEnvironment(Map<String, String> env, HostNames hostNames) {
        String job = env.getOrDefault("SLURM_JOB_ID", env.getOrDefault("SLURM_JOBID", "")).strip();
        String list = env.getOrDefault("SLURM_JOB_NODELIST", env.getOrDefault("SLURM_NODELIST", "")).strip();
        if (job.isEmpty() || list.isEmpty()) {
            throw new IllegalArgumentException("--slurm: not inside a Slurm allocation (no SLURM_JOB_ID or SLURM_JOB_NODELIST):"
                    + " run it under salloc or sbatch, or use --slurm-submit");
        }
        if (!ProgramPath.of(env.get("PATH")).find("srun".getBytes(StandardCharsets.US_ASCII)).found()) {
            throw new IllegalArgumentException("--slurm: srun not found on PATH");
        }
        List<String> names;
        try {
            // brisk's reader first: scontrol is a process to start (and wait for) before the first
            // step can, and it reads standard lists the same way
            names = expandHostList(list);
            if (!names.stream().allMatch(n -> n.matches("[A-Za-z0-9._-]+"))) {
                throw new IllegalArgumentException("not a plain host name");
            }
        } catch (IllegalArgumentException unread) {
            try {
                names = hostNames.expand(list);
            } catch (IOException | RuntimeException e) {
                names = expandHostList(list);
            }
        }
        String counts = env.getOrDefault("SLURM_JOB_CPUS_PER_NODE", "").strip();
        List<Integer> cpus = counts.isEmpty() ? List.of() : expandCounts(counts);
        if (!cpus.isEmpty() && cpus.size() != names.size()) {
            throw new IllegalArgumentException("--slurm: SLURM_JOB_CPUS_PER_NODE '" + counts + "' does not match the "
                    + names.size() + " nodes of '" + list + "'");
        }
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            nodes.add(new Node(names.get(i), cpus.isEmpty() ? 1 : cpus.get(i)));
        }
        return new SlurmAllocation(job, nodes);
    }

    /** {@code scontrol show hostnames LIST}, the reference expansion; fails when scontrol cannot run or refuses. */
    public static List<String> scontrol(String hostList) throws IOException {
        ProcessBuilder pb = CallerProcess.builder("scontrol", "show", "hostnames", hostList);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("scontrol show hostnames failed");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        List<String> names = out.lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
        if (names.isEmpty()) {
            throw new IOException("scontrol show hostnames printed nothing");
        }
        return names;
    }

    /**
     * Expands a Slurm hostlist: comma-separated entries, each a name with any number of
     * bracketed range lists ({@code rack[1-2]-n[01-03,7]}: every combination, in order; a
     * range keeps its lower bound's zero padding).
     *
     * @throws IllegalArgumentException on unbalanced brackets or a bad range
     */
    public static List<String> expandHostList(String hostList) {
        List<String> out = new ArrayList<>();
        for (String entry : splitTopLevel(hostList)) {
            if (!entry.isEmpty()) {
                expand(entry, hostList, out);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--slurm: empty node list '" + hostList + "'");
        }
        return out;
    }

    private static List<String> splitTopLevel(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(s.substring(start, i).strip());
                start = i + 1;
            }
        }
        parts.add(s.substring(start).strip());
        return parts;
    }

    private static void expand(String entry, String whole, List<String> out) {
        int open = entry.indexOf('[');
        if (open < 0) {
            if (entry.indexOf(']') >= 0) {
                throw badList(whole);
            }
            out.add(entry);
            return;
        }
        int close = entry.indexOf(']', open);
        if (close < 0 || entry.substring(open + 1, close).indexOf('[') >= 0 || entry.substring(0, open).indexOf(']') >= 0) {
            throw badList(whole);
        }
        String prefix = entry.substring(0, open);
        String rest = entry.substring(close + 1);
        for (String range : entry.substring(open + 1, close).split(",", -1)) {
            range = range.strip();
            int dash = range.indexOf('-');
            String lo = dash < 0 ? range : range.substring(0, dash);
            String hi = dash < 0 ? range : range.substring(dash + 1);
            if (lo.isEmpty() || hi.isEmpty() || !lo.chars().allMatch(Character::isDigit) || !hi.chars().allMatch(Character::isDigit)
                    || lo.length() > 18 || hi.length() > 18) {
                throw badList(whole);
            }
            long from = Long.parseLong(lo);
            long to = Long.parseLong(hi);
            if (to < from || to - from > 1_000_000) {
                throw badList(whole);
            }
            for (long n = from; n <= to; n++) {
                String num = Long.toString(n);
                String padded = "0".repeat(Math.max(0, lo.length() - num.length())) + num;
                expand(prefix + padded + rest, whole, out);
            }
        }
    }

    private static IllegalArgumentException badList(String list) {
        return new IllegalArgumentException("--slurm: cannot read the node list '" + list + "'");
    }

    /**
     * Expands {@code SLURM_JOB_CPUS_PER_NODE}: comma-separated counts, each optionally repeated
     * ({@code 2(x3),1} is 2, 2, 2, 1).
     */
    public static List<Integer> expandCounts(String counts) {
        List<Integer> out = new ArrayList<>();
        for (String part : counts.split(",", -1)) {
            part = part.strip();
            int repeat = 1;
            int paren = part.indexOf('(');
            try {
                if (paren >= 0) {
                    if (!part.endsWith(")") || part.charAt(paren + 1) != 'x') {
                        throw new NumberFormatException();
                    }
                    repeat = Integer.parseInt(part.substring(paren + 2, part.length() - 1));
                    part = part.substring(0, paren);
                }
                int n = Integer.parseInt(part);
                if (n < 1 || repeat < 1 || repeat > 1_000_000) {
                    throw new NumberFormatException();
                }
                for (int i = 0; i < repeat; i++) {
                    out.add(n);
                }
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                throw new IllegalArgumentException("--slurm: cannot read SLURM_JOB_CPUS_PER_NODE '" + counts + "'");
            }
        }
        return out;
    }
}
