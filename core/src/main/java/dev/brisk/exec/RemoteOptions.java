// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How jobs run on other machines ({@code brisk par -S}): GNU parallel's remote options.
 *
 * @param hosts the machines given directly ({@code -S})
 * @param loginFiles files of sshlogins ({@code --slf}), re-read when they change
 * @param ssh the command that opens a shell on a host ({@code --ssh}, default {@code ssh})
 * @param transfer files to send before each job ({@code --transferfile}), as templates
 * @param returns files to fetch after each job ({@code --return}), as templates
 * @param cleanup remove transferred and returned files from the host after each job ({@code --cleanup})
 * @param basefiles files to send to each host once, before its first job ({@code --basefile})
 * @param workdir the directory jobs run in on a host ({@code --workdir}); null: the login's
 *     home; {@code ...}: a directory of its own per run, removed with {@code cleanup}
 * @param env names of variables to copy to the hosts ({@code --env})
 * @param filterHosts leave out, without a warning, hosts that cannot be reached ({@code --filter-hosts})
 * @param slotsPerHost jobs at once per host without {@code N/}; 0: as many as the host has processors
 * @param sshPersist how long a warm server keeps each ssh login up after the run for the next run
 *     ({@code --ssh-persist}, {@link RemoteHost#ssh(String, String, int, java.time.Duration)}); zero: not at all
 * @param sshDelay the least time between two logins' starts ({@code --ssh-delay}); zero: none
 * @param hostGroups GNU parallel's host groups ({@code --hgrp}): each host's name to the groups it
 *     is in (its name among them); null: off. With them, a job's first value's {@code @G1+G2}
 *     suffix is taken off every value and the job runs only on a host of one of those groups
 *     (anywhere when it has none, or when no host is in any of them)
 */
public record RemoteOptions(List<RemoteHost> hosts, List<Path> loginFiles, String ssh, List<Template> transfer,
                            List<Template> returns, boolean cleanup, List<Path> basefiles, String workdir,
                            List<String> env, boolean filterHosts, int slotsPerHost,
                            java.time.Duration sshPersist, java.time.Duration sshDelay,
                            java.util.Map<String, java.util.Set<String>> hostGroups) {
    public RemoteOptions {
        hosts = List.copyOf(hosts);
        loginFiles = List.copyOf(loginFiles);
        Objects.requireNonNull(ssh, "ssh");
        transfer = List.copyOf(transfer);
        returns = List.copyOf(returns);
        basefiles = List.copyOf(basefiles);
        env = List.copyOf(env);
        for (String v : env) {
            if (!v.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("env: not a variable name: '" + v + "'");
            }
        }
        Objects.requireNonNull(sshPersist, "sshPersist");
        if (sshPersist.isNegative()) {
            throw new IllegalArgumentException("sshPersist must not be negative, got " + sshPersist.toSeconds());
        }
        hostGroups = hostGroups == null ? null : java.util.Map.copyOf(hostGroups);
        Objects.requireNonNull(sshDelay, "sshDelay");
        if (sshDelay.isNegative()) {
            throw new IllegalArgumentException("sshDelay must not be negative, got " + sshDelay.toMillis() / 1000.0);
        }
        if (slotsPerHost < 0) {
            throw new IllegalArgumentException("slotsPerHost must not be negative, got " + slotsPerHost);
        }
    }

    /** As the canonical constructor, without a delay between the logins' starts, nor host groups. */
    public RemoteOptions(List<RemoteHost> hosts, List<Path> loginFiles, String ssh, List<Template> transfer,
                         List<Template> returns, boolean cleanup, List<Path> basefiles, String workdir,
                         List<String> env, boolean filterHosts, int slotsPerHost, java.time.Duration sshPersist) {
        this(hosts, loginFiles, ssh, transfer, returns, cleanup, basefiles, workdir, env, filterHosts, slotsPerHost,
                sshPersist, java.time.Duration.ZERO, null);
    }

    /** Whether any job may run on another machine. */
    public boolean any() {
        return !loginFiles.isEmpty() || hosts.stream().anyMatch(h -> !h.local());
    }
}
