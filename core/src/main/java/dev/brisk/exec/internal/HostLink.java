// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.RemoteHost;
import dev.brisk.exec.RemoteOptions;
import dev.brisk.internal.remote.HostLostException;
import dev.brisk.internal.remote.RemoteShell;
import dev.brisk.internal.remote.Transport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import dev.brisk.internal.shell.ShellQuote;

/**
 * One remote host of a run and its channel ({@link RemoteShell}), shared by the host's slots:
 * opens it (and sends the {@code --basefile}s), notices its loss once, and opens it again later
 * with a growing pause (1 s to 30 s) while the run has work left.
 */
final class HostLink {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    private static final long FIRST_RETRY_MILLIS = 1000;
    private static final long LAST_RETRY_MILLIS = 30_000;
    /** Channels lost or not opened, by every link of this JVM: what {@link SlurmHosts#watch} waits for. */

    private final RemoteHost host;
    private final RemoteOptions options;
    private final Map<String, byte[]> env;
    private final OutputStream err;
    private final Object errLock;
    private volatile RemoteShell shell;
    private volatile boolean removed;
    private long retryAt;
    private long retryMillis = FIRST_RETRY_MILLIS;
    private final List<byte[]> sentBasefiles = new ArrayList<>();

    HostLink(RemoteHost host, RemoteOptions options, OutputStream err, Object errLock) {
        this.host = host;
        this.options = options;
        this.err = err;
        this.errLock = errLock;
        this.env = new LinkedHashMap<>();
        for (String v : options.env()) {
            String value = dev.brisk.internal.posix.Environ.get(v);
            if (value != null) {
                env.put(v, value.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    String name() {
        return host.name();
    }

    RemoteHost host() {
        return host;
    }

    /**
     * How many channels of the current caller's runs have been lost or failed to open so far:
     * those a slot found lost, those that would not open, and those that died while no job ran
     * on them.
     */
    static long troubles() {
        return dev.brisk.internal.posix.Caller.current().channelTroubles().get();
    }

    /** Opens the channel now; on failure the exception says why. */
    synchronized void connect() throws IOException {
        RemoteShell s;
        try {
            s = RemoteShell.open(transport(), JobShell.BASH_ECHO, env, CONNECT_TIMEOUT);
        } catch (IOException e) {
            dev.brisk.internal.posix.Caller.current().channelTroubles().incrementAndGet();
            throw e;
        }
        try {
            sentBasefiles.clear();
            for (Path b : options.basefiles()) {
                byte[] there = RemoteFiles.remotePath(b.toString().getBytes(StandardCharsets.UTF_8), workdirBase());
                s.put(RemoteFiles.dirOf(there), there, Files.readAllBytes(b));
                sentBasefiles.add(there);
            }
        } catch (IOException e) {
            s.close();
            throw e;
        }
        shell = s;
        retryMillis = FIRST_RETRY_MILLIS;
    }

    /** The work directory's path as the host sees it, or empty for the login's home. */
    byte[] workdirBase() {
        return RemoteFiles.workdir(options.workdir());
    }

    /** The slots this host gets: {@code N/}, else {@code -j}, else its processors. */
    int slots() {
        if (host.slots() > 0) {
            return host.slots();
        }
        if (options.slotsPerHost() > 0) {
            return options.slotsPerHost();
        }
        RemoteShell s = shell;
        return s == null ? 1 : s.cores();
    }

    /**
     * The open channel, or null. A channel found dead here (it ended while none of the host's
     * slots waited on it, as between jobs) is reported lost as one a job found would be.
     */
    RemoteShell shell() {
        RemoteShell s = shell;
        if (s != null && !s.alive()) {
            lost(s, new HostLostException(host.name(), s.reason()));
            return null;
        }
        return s;
    }

    /**
     * Waits until the channel is up (opening it again when its pause is over); false when the
     * host was removed or {@code finished} says the run needs no more slots.
     */
    boolean awaitUp(BooleanSupplier finished) {
        while (!removed && !finished.getAsBoolean()) {
            if (shell() != null) {
                return true;
            }
            synchronized (this) {
                if (shell() == null && System.currentTimeMillis() >= retryAt) {
                    try {
                        connect();
                        return true;
                    } catch (IOException e) {
                        retryAt = System.currentTimeMillis() + retryMillis;
                        retryMillis = Math.min(LAST_RETRY_MILLIS, retryMillis * 2);
                    }
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** Reports the loss of {@code from} once, and closes it. */
    void lost(RemoteShell from, HostLostException e) {
        synchronized (this) {
            if (from == null || shell != from) {
                return;
            }
            shell = null;
            retryAt = System.currentTimeMillis() + retryMillis;
        }
        dev.brisk.internal.posix.Caller.current().channelTroubles().incrementAndGet();
        from.close();
        warn("brisk: Warning: lost host " + host.name() + " (" + reasonOf(e) + "): its running jobs run elsewhere");
    }

    /** Stops using the host (its sshlogin was removed): its slots finish their jobs and stop. */
    void remove() {
        removed = true;
    }

    boolean removed() {
        return removed;
    }

    /** Removes the basefiles ({@code --cleanup}) and closes the channel. */
    void close() {
        RemoteShell s = shell;
        shell = null;
        if (s == null) {
            return;
        }
        if (options.cleanup()) {
            try {
                List<byte[]> files = new ArrayList<>(sentBasefiles);
                s.remove(files);
                if ("...".equals(options.workdir())) {
                    s.run(0, 0, ("rmdir -- " + ShellQuote.quoteLatin1(workdirBase()) + " 2>/dev/null; true")
                            .getBytes(StandardCharsets.ISO_8859_1), false);
                }
            } catch (IOException | InterruptedException e) {
                // the host is gone: nothing to clean
            }
        }
        s.close();
    }

    /** Kills the channel at once: the agent on the host kills every job. */
    void kill() {
        RemoteShell s = shell;
        if (s != null) {
            s.kill();
        }
    }

    void warn(String message) {
        synchronized (errLock) {
            try {
                err.write((message + "\n").getBytes(StandardCharsets.UTF_8));
                err.flush();
            } catch (IOException e) {
                // stderr is gone
            }
        }
    }

    static String reasonOf(IOException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        return e instanceof HostLostException h && m.startsWith(h.host() + ": ") ? m.substring(h.host().length() + 2) : m;
    }

    private Transport transport() {
        return new Transport() {
            @Override
            public String host() {
                return host.name();
            }

            @Override
            public List<String> command() {
                return host.command();
            }
        };
    }
}
