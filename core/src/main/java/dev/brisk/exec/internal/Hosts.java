// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.ExecException;
import dev.brisk.exec.RemoteHost;
import dev.brisk.exec.RemoteOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The remote hosts of one run ({@code -S}, {@code --slf}): opens their channels at the start, at
 * most {@value #AT_ONCE} at a time (below sshd's default {@code MaxStartups} of 10, so none is
 * dropped), gives each its slots, and re-reads the sshlogin files while the run goes on, adding
 * hosts that appear and retiring those that disappear.
 */
public final class Hosts {
    static final int AT_ONCE = dev.brisk.internal.remote.Prestart.AT_ONCE;

    private final RemoteOptions options;
    private final OutputStream err;
    private final Object errLock;
    private final Map<String, HostLink> links = new LinkedHashMap<>();
    /** Links removed from the sshlogin files during the run: closed with the others at its end. */
    private final List<HostLink> retired = new ArrayList<>();
    private final Map<Path, FileTime> seen = new HashMap<>();
    private boolean groups;
    private final java.util.concurrent.atomic.AtomicLong budget;
    private final Path tmpdir;
    private volatile Thread watcher;

    Hosts(RemoteOptions options, OutputStream err, Object errLock, java.util.concurrent.atomic.AtomicLong budget, Path tmpdir) {
        this.budget = budget;
        this.tmpdir = tmpdir;
        this.options = options;
        this.spacing = new LoginSpacing(options.sshDelay());
        this.err = err;
        this.errLock = errLock;
    }

    /** The slots of this machine ({@code :} among the hosts): its {@code N/}, else {@code jobs}. */
    int localSlots(int jobs) {
        int n = 0;
        for (RemoteHost h : options.hosts()) {
            if (h.local()) {
                n += h.slots() > 0 ? h.slots() : jobs;
            }
        }
        return n;
    }

    /**
     * Opens every host's channel and hands its slots to {@code add}; a host that cannot be
     * reached is left out with a warning.
     *
     * @param groups whether jobs need process groups of their own (the run may kill single jobs)
     * @throws ExecException when no host at all can run jobs
     */
    void start(boolean groups, Consumer<Slot> add) {
        this.groups = groups;
        List<RemoteHost> all = new ArrayList<>();
        for (RemoteHost h : options.hosts()) {
            if (!h.local()) {
                all.add(h);
            }
        }
        all.addAll(readLoginFiles());
        int up = connect(all, add);
        if (up == 0 && localSlots(1) == 0) {
            throw new ExecException("no host can be reached");
        }
    }

    /** Opens {@code hosts} (new ones only), {@value #AT_ONCE} at a time; returns how many came up. */
    private int connect(List<RemoteHost> hosts, Consumer<Slot> add) {
        List<HostLink> fresh = new ArrayList<>();
        synchronized (links) {
            for (RemoteHost h : hosts) {
                if (!links.containsKey(h.name())) {
                    HostLink l = new HostLink(h, options, err, errLock);
                    links.put(h.name(), l);
                    fresh.add(l);
                }
            }
        }
        if (fresh.isEmpty()) {
            return 0;
        }
        int up = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.min(AT_ONCE, fresh.size()))) {
            // each host's slots start as soon as it is up, not when the slowest is
            java.util.concurrent.CompletionService<HostLink> done = new java.util.concurrent.ExecutorCompletionService<>(pool);
            Map<HostLink, IOException> failures = new java.util.concurrent.ConcurrentHashMap<>();
            for (HostLink l : fresh) {
                done.submit(() -> {
                    try {
                        spacing.await();
                        l.connect();
                    } catch (IOException e) {
                        failures.put(l, e);
                    }
                    return l;
                });
            }
            for (int i = 0; i < fresh.size(); i++) {
                HostLink l;
                try {
                    l = done.take().get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                } catch (java.util.concurrent.ExecutionException e) {
                    continue;
                }
                IOException e = failures.get(l);
                if (e != null) {
                    l.remove();
                    synchronized (links) {
                        links.remove(l.name());
                    }
                    if (!options.filterHosts()) {
                        l.warn("brisk: Warning: could not connect to " + l.name() + " (" + HostLink.reasonOf(e)
                                + "): not using it");
                    }
                    continue;
                }
                up++;
                for (int k = 1; k <= l.slots(); k++) {
                    add.accept(new RemoteSlot(l, k, options, groups, budget, tmpdir));
                }
            }
        }
        return up;
    }

    /** {@code --ssh-delay} between this run's logins. */
    private final LoginSpacing spacing;

    /** Re-reads the sshlogin files about once a second while the run goes on. */
    void watch(BooleanSupplier finished, Consumer<Slot> add) {
        if (options.loginFiles().isEmpty()) {
            return;
        }
        watcher = Thread.ofPlatform().daemon().name("brisk-par-slf").start(() -> {
            while (!finished.getAsBoolean() && !Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                if (!changed()) {
                    continue;
                }
                List<RemoteHost> now = readLoginFiles();
                for (RemoteHost h : options.hosts()) {
                    if (!h.local()) {
                        now.add(h);
                    }
                }
                // the new hosts first, so that the run never stands without a host in between
                connect(now, add);
                List<String> names = now.stream().map(RemoteHost::name).toList();
                synchronized (links) {
                    for (HostLink l : links.values()) {
                        if (!names.contains(l.name())) {
                            l.remove();
                            // its slots finish their jobs on it: its channel ends with the run
                            retired.add(l);
                        }
                    }
                    links.values().removeIf(HostLink::removed);
                }
            }
        });
    }

    private boolean changed() {
        boolean changed = false;
        for (Path p : options.loginFiles()) {
            try {
                FileTime t = Files.getLastModifiedTime(resolve(p));
                if (!t.equals(seen.get(p))) {
                    changed = true;
                }
            } catch (IOException e) {
                changed |= seen.get(p) != null;
            }
        }
        return changed;
    }

    private List<RemoteHost> readLoginFiles() {
        List<RemoteHost> hosts = new ArrayList<>();
        for (Path p : options.loginFiles()) {
            try {
                seen.put(p, Files.getLastModifiedTime(resolve(p)));
            } catch (IOException e) {
                seen.remove(p);
            }
            hosts.addAll(readLoginFile(p, options));
        }
        hosts.removeIf(RemoteHost::local);
        return hosts;
    }

    /**
     * The hosts sshlogin file {@code p} ({@code --slf}) lists now, {@code :} included, with the
     * ssh command and persistence of {@code options}; {@code ..} and {@code .} are GNU parallel's
     * files, and a relative name that is not here is looked for in {@code ~/.parallel}.
     *
     * @throws ExecException when it cannot be read or an entry is bad
     */
    public static List<RemoteHost> readLoginFile(Path p, RemoteOptions options) {
        try {
            return RemoteHost.parse(Files.readString(resolve(p), StandardCharsets.UTF_8), options.ssh(), options.sshPersist());
        } catch (java.nio.file.NoSuchFileException e) {
            throw new ExecException("cannot read sshlogin file " + p + ": No such file or directory");
        } catch (IOException e) {
            throw new ExecException("cannot read sshlogin file " + p + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ExecException(p + ": " + e.getMessage());
        }
    }

    /** GNU parallel's special names: {@code ..} (~/.parallel/sshloginfile), {@code .} (/etc/parallel/sshloginfile). */
    private static Path resolve(Path p) {
        String s = p.toString();
        if (s.equals("..")) {
            return Path.of(RemoteFiles.home(), ".parallel", "sshloginfile");
        }
        if (s.equals(".")) {
            return Path.of("/etc/parallel/sshloginfile");
        }
        if (!Files.exists(p) && !p.isAbsolute()) {
            Path home = Path.of(RemoteFiles.home(), ".parallel").resolve(p);
            if (Files.exists(home)) {
                return home;
            }
        }
        return p;
    }

    /** Whether hosts may still come (an sshlogin file is watched). */
    boolean watching() {
        Thread w = watcher;
        return w != null && w.isAlive();
    }

    void close() {
        Thread w = watcher;
        if (w != null) {
            w.interrupt();
        }
        for (HostLink l : all()) {
            l.close();
        }
    }

    void kill() {
        for (HostLink l : all()) {
            l.kill();
        }
    }

    /** Every link of the run: its hosts now and those removed from its sshlogin files. */
    private List<HostLink> all() {
        synchronized (links) {
            List<HostLink> all = new ArrayList<>(links.values());
            all.addAll(retired);
            return all;
        }
    }
}
