// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.RemoteHost;
import dev.brisk.internal.remote.SlurmAllocation;
import dev.brisk.internal.remote.SrunTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The hosts of {@code brisk par --slurm}: one {@link RemoteHost} per node of the Slurm allocation
 * this process runs in, reached by a job step ({@code srun --overlap}, see the internal
 * {@code SrunTransport}) instead of ssh, with as many slots as the allocation holds CPUs on the
 * node unless {@code -j N} says otherwise. The Host column of the job log shows the node's name.
 */
public final class SlurmHosts {
    private SlurmHosts() {}

    /**
     * The allocation's nodes as hosts, read from {@code env} ({@code SLURM_JOB_ID},
     * {@code SLURM_JOB_NODELIST} expanded by brisk's own reader, or by {@code scontrol show
     * hostnames} where that cannot read it, {@code SLURM_JOB_CPUS_PER_NODE}).
     *
     * @param slotsPerHost jobs at once per node ({@code -j N}); 0: the node's CPUs
     * @throws IllegalArgumentException with a one-line message: not inside an allocation,
     *         {@code srun} not on {@code PATH}, variables that do not parse
     */
    public static List<RemoteHost> fromEnvironment(Map<String, String> env, int slotsPerHost) {
        if (slotsPerHost < 0) {
            throw new IllegalArgumentException("slots per node must not be negative, got " + slotsPerHost);
        }
        SlurmAllocation a = SlurmAllocation.fromEnvironment(env, SlurmAllocation::scontrol);
        List<RemoteHost> hosts = new ArrayList<>();
        for (SlurmAllocation.Node n : a.nodes()) {
            hosts.add(new RemoteHost(n.name(), SrunTransport.of(a, n).command(), slotsPerHost > 0 ? slotsPerHost : n.cpus()));
        }
        return hosts;
    }

    /**
     * Watches the allocation from a daemon thread: calls {@code ended} once, with the job's state
     * ({@code squeue -h -j ID -t all -o %T}), when the job is no longer running (cancelled, time
     * limit, node failure of a job without {@code --no-kill}). Slurm then kills every step, and
     * under {@code salloc} (without {@code -K}) nobody tells the command: without the watch the
     * run would wait for its lost nodes forever.
     *
     * <p>An allocation that ends takes the run's steps with it, so Slurm is asked within a second
     * after a node's channel was lost, died or could not be opened, each second until it says the
     * job still runs (one node lost, the others going on), and otherwise once every 30 seconds:
     * one squeue a second cost ~2% of the CPU of a run on a 2-core node, with the process start
     * and slurmctld's answer. An squeue that fails is asked again a second later.
     *
     * @return the thread, to interrupt when the run ends
     */
    public static Thread watch(Map<String, String> env, java.util.function.Consumer<String> ended) {
        String job = env.getOrDefault("SLURM_JOB_ID", env.getOrDefault("SLURM_JOBID", "")).strip();
        return Thread.ofPlatform().daemon().name("brisk-slurm-watch").start(() -> {
            long answered = 0; // the losses when Slurm last said the job runs
            long askedAt = System.nanoTime();
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                long troubles = HostLink.troubles();
                if (troubles == answered && System.nanoTime() - askedAt < HEALTHY_ASK_NANOS) {
                    continue;
                }
                askedAt = System.nanoTime();
                String state = state(job);
                if (state != null && !ACTIVE.contains(state)) {
                    ended.accept(state);
                    return;
                }
                if (state != null) {
                    answered = troubles;
                }
            }
        });
    }

    /** How often a run with no lost channel asks Slurm all the same. */
    private static final long HEALTHY_ASK_NANOS = 30_000_000_000L;

    private static final java.util.Set<String> ACTIVE = java.util.Set.of("RUNNING", "CONFIGURING", "SUSPENDED", "RESIZING",
            "SIGNALING", "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED");

    /** The job's state, {@code GONE} when Slurm no longer knows it, or null when squeue did not answer. */
    private static String state(String job) {
        try {
            ProcessBuilder pb = dev.brisk.internal.remote.CallerProcess.builder("squeue", "-h", "-j", job, "-t", "all", "-o", "%T");
            pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.redirectErrorStream(true);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            if (p.exitValue() != 0) {
                return out.contains("Invalid job id") ? "GONE" : null;
            }
            return out.isEmpty() ? "GONE" : out.lines().findFirst().orElse("").strip();
        } catch (java.io.IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
