// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import java.util.List;

/**
 * How to open a POSIX shell on a host: the command to spawn here so that {@code /bin/sh -s}
 * runs there with our pipes as its standard input and output (its standard error is ours).
 * The shell on the far side must lead its own process group (sshd and Slurm's steps see to
 * that), so that the agent can signal everything it started when the channel ends.
 */
public interface Transport {
    /** The host's name, for messages and the job log's Host column. */
    String host();

    /** The argument vector to spawn locally. */
    List<String> command();
}
