// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.exec.RemoteHost;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GNU parallel's host groups in {@code -S} values: {@code @G1+G2/[N/]HOST} puts the host in the
 * groups G1 and G2 (and, as GNU's, in those named by its own name and by {@code [N/]HOST});
 * {@code @G} alone keeps only the hosts of group G. {@code --hgrp} then sends each job to its
 * argument's groups ({@code exec.internal.HostGroups}). Stateless.
 */
final class ParHostGroups {
    private ParHostGroups() {}

    private static final Pattern GROUPED = Pattern.compile("@([^/]+)/?(.*)", Pattern.DOTALL);

    /** Whether the sshlogin list {@code list} names a host group (an entry starting with {@code @}). */
    static boolean named(String list) {
        return RemoteHost.entries(list).stream().anyMatch(e -> e.startsWith("@"));
    }

    /**
     * Adds the hosts of the sshlogin list {@code list} to {@code hosts}, and each one's groups
     * to {@code groups} (by host name); a bare {@code @G} is kept as {@code @G} in {@code groups}'
     * key {@code "@"} for {@link #select}.
     *
     * @throws IllegalArgumentException naming a bad entry
     */
    static void add(String list, String ssh, Duration persist, List<RemoteHost> hosts, Map<String, Set<String>> groups) {
        for (String e : RemoteHost.entries(list)) {
            Matcher m = GROUPED.matcher(e);
            Set<String> in = new HashSet<>();
            String login = e;
            if (m.matches()) {
                in.addAll(Arrays.asList(m.group(1).split("\\+")));
                login = m.group(2);
                if (login.isEmpty()) {
                    groups.computeIfAbsent("@", k -> new HashSet<>()).addAll(in);
                    continue;
                }
            }
            in.add(login);
            for (RemoteHost h : RemoteHost.parse(login.replace(",", ",,"), ssh, persist)) {
                hosts.add(h);
                Set<String> g = groups.computeIfAbsent(h.name(), k -> new HashSet<>());
                g.addAll(in);
                g.add(h.name());
            }
        }
    }

    /** GNU parallel's {@code -S @G}: only the hosts in one of those groups stay (all, without one). */
    static void select(List<RemoteHost> hosts, Map<String, Set<String>> groups) {
        Set<String> wanted = groups.remove("@");
        if (wanted == null) {
            return;
        }
        hosts.removeIf(h -> groups.getOrDefault(h.name(), Set.of(h.name())).stream().noneMatch(wanted::contains));
    }
}
