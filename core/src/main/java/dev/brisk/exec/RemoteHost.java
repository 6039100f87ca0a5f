// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import dev.brisk.internal.remote.SshTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A machine that runs jobs: this one ({@code :}) or another, reached by a command that starts
 * {@code /bin/sh -s} there with its standard input and output as the channel (ssh, a Slurm step).
 *
 * @param name the name the job log's Host column and messages show (GNU parallel's sshlogin)
 * @param command the argument vector to spawn here, or null for this machine
 * @param slots the jobs it runs at once; 0: as many as {@code -j} says, else as it has processors
 */
public record RemoteHost(String name, List<String> command, int slots) {
    /** This machine's name in an sshlogin. */
    public static final String LOCAL = ":";

    public RemoteHost {
        Objects.requireNonNull(name, "name");
        command = command == null ? null : List.copyOf(command);
        if (slots < 0) {
            throw new IllegalArgumentException("slots must not be negative, got " + slots);
        }
    }

    /** Whether this is the local machine. */
    public boolean local() {
        return command == null;
    }

    /** A host reached by ssh: {@code ssh} is the {@code --ssh} command, {@code login} {@code [user@]host[:port]} or a whole ssh command line. */
    public static RemoteHost ssh(String ssh, String login, int slots) {
        return ssh(ssh, login, slots, java.time.Duration.ZERO);
    }

    /**
     * As {@link #ssh(String, String, int)}; in a warm server's call, {@code persist} above zero
     * keeps the login up that long after the run (ssh's {@code ControlPersist}, where the user's
     * ssh command and configuration set no connection sharing of their own), so that the next
     * run's connection to the host needs no login. A direct run never keeps one: a server
     * turns keeping on for its process ({@code internal.remote.SshSharing}).
     */
    public static RemoteHost ssh(String ssh, String login, int slots, java.time.Duration persist) {
        return new RemoteHost(login.strip(), SshTransport.of(ssh, login, persist).command(), slots);
    }

    /**
     * Parses GNU parallel's sshlogin list: entries separated by commas or newlines ({@code \,}
     * or {@code ,,} for a comma), each {@code [N/]sshlogin} with {@code :} for this machine.
     * Empty entries and lines starting with {@code #} are skipped.
     *
     * @throws IllegalArgumentException naming the bad entry
     */
    public static List<RemoteHost> parse(String list, String ssh) {
        return parse(list, ssh, java.time.Duration.ZERO);
    }

    /** As {@link #parse(String, String)}, with ssh hosts that keep their logins for {@code persist}. */
    public static List<RemoteHost> parse(String list, String ssh, java.time.Duration persist) {
        List<RemoteHost> hosts = new ArrayList<>();
        for (String e : entries(list)) {
            hosts.add(entry(e, ssh, persist));
        }
        return hosts;
    }

    /**
     * The entries of GNU parallel's sshlogin list, as {@link #parse(String, String)} reads them:
     * split at commas and newlines ({@code \,} or {@code ,,} a comma), stripped, without the
     * empty ones and those starting with {@code #}.
     */
    public static List<String> entries(String list) {
        List<String> entries = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i <= list.length(); i++) {
            char c = i < list.length() ? list.charAt(i) : '\n';
            if ((c == '\\' || c == ',') && i + 1 < list.length() && list.charAt(i + 1) == ',') {
                cur.append(',');
                i++;
            } else if (c == ',' || c == '\n') {
                String e = cur.toString().strip();
                cur.setLength(0);
                if (!e.isEmpty() && !e.startsWith("#")) {
                    entries.add(e);
                }
            } else {
                cur.append(c);
            }
        }
        return entries;
    }

    private static RemoteHost entry(String e, String ssh, java.time.Duration persist) {
        int slots = 0;
        int slash = e.indexOf('/');
        if (slash > 0 && e.substring(0, slash).matches("[0-9]+")) {
            slots = Integer.parseInt(e.substring(0, slash));
            if (slots < 1) {
                throw new IllegalArgumentException("bad number of slots in sshlogin '" + e + "'");
            }
            e = e.substring(slash + 1);
        }
        if (e.startsWith("@")) {
            throw new IllegalArgumentException("host groups are not supported: '" + e + "'");
        }
        if (e.isEmpty()) {
            throw new IllegalArgumentException("empty sshlogin");
        }
        return e.equals(LOCAL) ? new RemoteHost(LOCAL, null, slots) : ssh(ssh, e, slots, persist);
    }
}
