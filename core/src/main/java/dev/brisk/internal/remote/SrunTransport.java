// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import java.util.List;

/**
 * A shell on a node of the current Slurm allocation, as one job step:
 * {@code srun --jobid=JOB --overlap --nodes=1 --ntasks=1 --nodelist=NODE --cpus-per-task=CPUS
 * --mem=0 --unbuffered --job-name=brisk /bin/sh -s}. No network of our own: the agent's
 * requests and frames travel over the step's stdin and stdout, which srun relays.
 *
 * <p>Why each flag: {@code --overlap} lets the step share the job's CPUs with the user's other
 * steps (and ours on the other nodes); {@code --cpus-per-task} and {@code --mem=0} give it all
 * the CPUs and memory the job holds on the node (a step gets one CPU by default, and a cluster
 * that binds or confines steps would squeeze every job onto it); {@code --unbuffered} runs the
 * task with its stdout on a raw pseudo-terminal, because without it slurmstepd forwards output
 * only up to the last newline, and a job's output need not end with one, so its frame would
 * wait for the next one. The pty passes all 256 byte values unchanged (SlurmStepIT checks it);
 * stdin stays a pipe. Slurm makes the task lead its own process group, as the agent needs, and
 * kills the step and everything in it when srun dies or the step is cancelled.
 *
 * @param jobId the allocation's job id
 * @param node the node's name
 * @param cpus the CPUs the job holds on the node
 */
public record SrunTransport(String jobId, String node, int cpus) implements Transport {
    public SrunTransport {
        if (jobId.isEmpty() || node.isEmpty() || cpus < 1) {
            throw new IllegalArgumentException("bad srun target: job '" + jobId + "' node '" + node + "' cpus " + cpus);
        }
    }

    /** The transport for one node of {@code allocation}. */
    public static SrunTransport of(SlurmAllocation allocation, SlurmAllocation.Node node) {
        return new SrunTransport(allocation.jobId(), node.name(), node.cpus());
    }

    @Override
    public String host() {
        return node;
    }

    @Override
    public List<String> command() {
        return List.of("srun", "--jobid=" + jobId, "--overlap", "--nodes=1", "--ntasks=1", "--nodelist=" + node,
                "--cpus-per-task=" + cpus, "--mem=0", "--unbuffered", "--job-name=brisk", "/bin/sh", "-s");
    }
}
