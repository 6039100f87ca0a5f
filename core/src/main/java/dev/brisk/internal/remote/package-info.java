// SPDX-License-Identifier: Apache-2.0
/**
 * Warm shells on other hosts behind one framed channel each: {@code Transport} (how to open a
 * {@code /bin/sh} there: {@code SshTransport}, {@code LocalTransport}), {@code AgentScript} (the
 * far half, sent over the channel, so nothing is installed on the host: {@code PerlAgent} where
 * the host has perl, a POSIX sh agent where not; {@code AgentRequests} encodes the requests for each),
 * {@code RemoteShell} (the Java half: jobs of several slots at once, files both ways), {@code Payload}
 * (a job's output, in a file beyond memory), {@code Prestart} (channels started before the run
 * asks for them), {@code SshSharing} (a warm server's ssh logins kept for its next calls: ssh's
 * {@code ControlMaster}/{@code ControlPersist}) and {@code HostLostException}; for Slurm, {@code SlurmAllocation} (the allocation from Slurm's
 * variables) and {@code SrunTransport} (a node's shell as one {@code srun} step). Used by
 * {@code dev.brisk.exec} ({@code brisk par -S}, {@code --slurm}) and the shell pool. Not exported.
 */
package dev.brisk.internal.remote;
