// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.JobArgs;
import dev.brisk.exec.JobOptions;
import dev.brisk.exec.RemoteOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * GNU parallel's host groups ({@code --hgrp}, {@link RemoteOptions#hostGroups}): a value
 * {@code ARG@G1+G2} is {@code ARG}, and its job runs only on a host in G1 or G2. As GNU's, the
 * suffix (from the first {@code @} with something after it) comes off every value, and the job's
 * groups are its first value's; a job without groups, or whose groups no host is in, runs on
 * any host. Stateless.
 */
final class HostGroups {
    private HostGroups() {}

    /** Job {@code n} of {@code batch} (its tuples), its values without their groups, and its first value's groups. */
    static JobFeed.Pending pending(List<List<byte[]>> batch, long n, JobLogFile.Entry logged, JobOptions options) {
        Set<String> groups = null;
        List<List<byte[]>> tuples = new ArrayList<>(batch.size());
        for (List<byte[]> t : batch) {
            List<byte[]> values = new ArrayList<>(t.size());
            for (byte[] v : t) {
                int at = indexOfAt(v);
                if (at >= 0) {
                    if (groups == null && tuples.isEmpty() && values.isEmpty()) {
                        groups = new HashSet<>(Arrays.asList(new String(v, at + 1, v.length - at - 1, StandardCharsets.UTF_8).split("\\+")));
                    }
                    v = Arrays.copyOf(v, at);
                }
                values.add(v);
            }
            tuples.add(values);
        }
        Set<String> known = new HashSet<>();
        options.remote().hostGroups().values().forEach(known::addAll);
        if (groups != null && groups.stream().noneMatch(known::contains)) {
            groups = null; // GNU parallel adds a host of each such name; brisk runs the job anywhere
        }
        return new JobFeed.Pending(new JobArgs(options.noArgs() ? List.of(List.of()) : tuples, n, 0), null, logged, 0, null,
                groups);
    }

    /** The first {@code @} of {@code v} with a byte after it, or -1. */
    private static int indexOfAt(byte[] v) {
        for (int i = 0; i + 1 < v.length; i++) {
            if (v[i] == '@') {
                return i;
            }
        }
        return -1;
    }

    /** Which jobs a slot on {@code host} may take under {@code remote}'s host groups, or null when there are none. */
    static Predicate<JobFeed.Pending> fits(RemoteOptions remote, String host) {
        if (remote == null || remote.hostGroups() == null) {
            return null;
        }
        Set<String> mine = remote.hostGroups().getOrDefault(host, Set.of(host));
        return p -> p.groups() == null || p.groups().stream().anyMatch(mine::contains);
    }
}
