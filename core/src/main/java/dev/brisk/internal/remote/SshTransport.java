// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import java.util.ArrayList;
import java.util.List;

/**
 * A shell on a host through ssh: {@code SSH [-p PORT] LOGIN exec /bin/sh -s}, where SSH is the
 * user's {@code --ssh} command (default {@code ssh}, so {@code ~/.ssh/config} applies), run by
 * {@code /bin/sh} so that it may carry options and quotes as GNU parallel allows (spawned
 * directly when it is plain words, which a shell would only split at spaces). brisk adds
 * {@code -T} (no terminal), {@code BatchMode} (a password prompt would hang the run) and
 * keep-alive probes (a host whose network is gone is noticed within seconds); options the user
 * gives come first and so win, as ssh takes the first value of each option. In a warm server's
 * call, {@code persist} above zero also shares the connection ({@link SshSharing}): the login
 * stays up that long after the run for the next run to the same host.
 *
 * @param ssh the ssh command, shell words
 * @param login {@code [user@]host}, or a whole ssh command line whose last word is the host
 *              (GNU parallel's {@code ssh -p 2222 host} form)
 * @param port the port, or 0 for ssh's default
 * @param persist how long a warm server keeps the login up after the run; zero: not at all
 */
public record SshTransport(String ssh, String login, int port, java.time.Duration persist) implements Transport {
    public SshTransport {
        java.util.Objects.requireNonNull(persist, "persist");
        if (persist.isNegative()) {
            throw new IllegalArgumentException("persist must not be negative, got " + persist);
        }
    }

    /** The remote command: the login shell runs it, so it must parse in csh and fish too. */
    static final String REMOTE = "exec /bin/sh -s";

    /**
     * A transport for GNU parallel's sshlogin {@code login}: {@code [user@]host[:port]} (an IPv6
     * address in brackets), or a whole ssh command line whose last word is the host.
     *
     * @throws IllegalArgumentException for a bad port
     */
    public static SshTransport of(String ssh, String login) {
        return of(ssh, login, java.time.Duration.ZERO);
    }

    /** As {@link #of(String, String)}, sharing the login for {@code persist} in a warm server's call. */
    public static SshTransport of(String ssh, String login, java.time.Duration persist) {
        String l = login.strip();
        int port = 0;
        if (!l.contains(" ")) {
            int colon = l.lastIndexOf(':');
            int close = l.lastIndexOf(']');
            if (colon > 0 && colon > close && (close >= 0 || l.indexOf(':') == colon)) {
                String p = l.substring(colon + 1);
                if (!p.matches("[0-9]{1,5}") || Integer.parseInt(p) > 65535 || Integer.parseInt(p) == 0) {
                    throw new IllegalArgumentException("bad port in sshlogin '" + login + "'");
                }
                port = Integer.parseInt(p);
                l = l.substring(0, colon);
            }
            if (l.startsWith("[") && l.endsWith("]")) {
                l = l.substring(1, l.length() - 1);
            }
        }
        return new SshTransport(ssh, l, port, persist);
    }

    @Override
    public String host() {
        String last = login.strip();
        int space = last.lastIndexOf(' ');
        return space < 0 ? last : last.substring(space + 1);
    }

    @Override
    public List<String> command() {
        boolean whole = login.strip().contains(" ");
        // the words before the host: the --ssh command, or the login's own ssh command line
        String base = whole ? login.strip().substring(0, login.strip().lastIndexOf(' ')) : ssh;
        List<String> options = List.of("-T", "-o", "BatchMode=yes", "-o", "ServerAliveInterval=5",
                "-o", "ServerAliveCountMax=3");
        List<String> rest = new ArrayList<>();
        if (port > 0) {
            rest.addAll(List.of("-p", Integer.toString(port)));
        }
        rest.add(whole ? host() : login.strip());
        List<String> words = plainWords(base);
        List<String> sharing = SshSharing.options(words, List.copyOf(rest), persist);
        rest.add(REMOTE);
        List<String> argv = new ArrayList<>();
        if (words != null) {
            // nothing for a shell to do: spawn ssh itself, one exec of /bin/sh fewer before the login
            argv.addAll(words);
            argv.addAll(options);
            argv.addAll(sharing);
        } else {
            argv.addAll(List.of("/bin/sh", "-c", base + " " + String.join(" ", options) + " \"$@\"", "ssh"));
        }
        argv.addAll(rest);
        return argv;
    }

    /**
     * {@code command}'s words when a shell would only split it at spaces (no quotes, variables,
     * globs, escapes or operators), else null.
     */
    static List<String> plainWords(String command) {
        if (command.isBlank()) {
            return null;
        }
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            boolean plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == ' ' || "-_./=:@%+,".indexOf(c) >= 0;
            if (!plain) {
                return null;
            }
        }
        // a first word with = would be a variable assignment to the shell, and a shell's own
        // word (exec ssh, time ssh, command ssh) no program to spawn
        List<String> words = List.of(command.strip().split(" +"));
        return words.getFirst().contains("=") || SHELL_WORDS.contains(words.getFirst()) ? null : words;
    }

    /** The reserved words and builtins of a POSIX shell that plain words can spell. */
    private static final java.util.Set<String> SHELL_WORDS = java.util.Set.of("exec", "command", "builtin", "eval",
            "time", ".", "source", "if", "while", "until", "for", "case", "export", "set", "unset", "cd", "trap",
            "ulimit", "umask", "alias", "readonly", "local", "type", "hash", "wait", "true", "false", ":", "read",
            "shift", "return", "exit", "break", "continue", "times", "getopts", "jobs", "fg", "bg", "kill",
            "printf", "echo", "test", "pwd");
}
