// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import java.util.ArrayList;
import java.util.List;

/**
 * A shell on a host through ssh: {@code SSH [-p PORT] LOGIN exec /bin/sh -s}, where SSH is the
 * user's {@code --ssh} command (default {@code ssh}, so {@code ~/.ssh/config} applies), run by
 * {@code /bin/sh} so that it may carry options and quotes as GNU parallel allows. brisk adds
 * {@code -T} (no terminal), {@code BatchMode} (a password prompt would hang the run) and
 * keep-alive probes (a host whose network is gone is noticed within seconds); options the user
 * gives come first and so win, as ssh takes the first value of each option.
 *
 * @param ssh the ssh command, shell words
 * @param login {@code [user@]host}, or a whole ssh command line whose last word is the host
 *              (GNU parallel's {@code ssh -p 2222 host} form)
 * @param port the port, or 0 for ssh's default
 */
public record SshTransport(String ssh, String login, int port) implements Transport {
    /** The remote command: the login shell runs it, so it must parse in csh and fish too. */
    static final String REMOTE = "exec /bin/sh -s";

    /**
     * A transport for GNU parallel's sshlogin {@code login}: {@code [user@]host[:port]} (an IPv6
     * address in brackets), or a whole ssh command line whose last word is the host.
     *
     * @throws IllegalArgumentException for a bad port
     */
    public static SshTransport of(String ssh, String login) {
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
        return new SshTransport(ssh, l, port);
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
        String base = whole ? login.strip() : ssh;
        String script = base + " -T -o BatchMode=yes -o ServerAliveInterval=5 -o ServerAliveCountMax=3 \"$@\"";
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", script, "ssh"));
        if (whole) {
            // the host is the last word of the login: move our options before it
            int space = login.strip().lastIndexOf(' ');
            argv.set(2, login.strip().substring(0, space)
                    + " -T -o BatchMode=yes -o ServerAliveInterval=5 -o ServerAliveCountMax=3 \"$@\"");
            if (port > 0) {
                argv.addAll(List.of("-p", Integer.toString(port)));
            }
            argv.add(host());
        } else {
            if (port > 0) {
                argv.addAll(List.of("-p", Integer.toString(port)));
            }
            argv.add(login.strip());
        }
        argv.add(REMOTE);
        return argv;
    }
}
