// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.exec.ArgumentSource;
import dev.brisk.exec.ExecException;
import dev.brisk.exec.ItemSource;
import dev.brisk.exec.JobOptions;
import dev.brisk.exec.JobRunner;
import dev.brisk.exec.RemoteHost;
import dev.brisk.exec.RemoteOptions;
import dev.brisk.exec.RunSummary;
import dev.brisk.exec.Template;
import dev.brisk.exec.internal.Hosts;
import dev.brisk.exec.internal.LinePrefixer;
import dev.brisk.exec.internal.LoginSpacing;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code --onall} and {@code --nonall}: every job on every host, as GNU parallel runs them: one
 * job at a time per host, in input order; {@code -j} hosts at once; each host's output printed
 * whole when it is done (in host order with {@code -k}), each line prefixed by the host with
 * {@code --tag}. The exit status counts the hosts where a job failed (at most 101).
 */
final class OnAll {
    private OnAll() {}

    static int run(JobOptions options, boolean keepOrder, boolean tag, Template template, List<List<byte[]>> groups,
                   OutputStream out, OutputStream err, java.util.function.Consumer<JobRunner> started) throws IOException {
        RemoteOptions r = options.remote();
        List<RemoteHost> hosts = new ArrayList<>();
        for (RemoteHost h : r.hosts()) {
            hosts.add(h);
        }
        for (Path f : r.loginFiles()) {
            hosts.addAll(Hosts.readLoginFile(f, r));
        }
        int atOnce = Math.max(1, Math.min(options.jobs(), hosts.size()));
        List<Future<byte[][]>> results = new ArrayList<>();
        List<Integer> statuses = new ArrayList<>();
        Object lock = new Object();
        LoginSpacing spacing = new LoginSpacing(r.sshDelay());
        try (ExecutorService pool = Executors.newFixedThreadPool(atOnce)) {
            for (RemoteHost h : hosts) {
                results.add(pool.submit(() -> {
                    ByteArrayOutputStream o = new ByteArrayOutputStream();
                    ByteArrayOutputStream e = new ByteArrayOutputStream();
                    int status;
                    RemoteHost one = new RemoteHost(h.name(), h.command(), 1);
                    JobOptions each = options.toBuilder().jobs(1).keepOrder(true).tag(null).joblog(null)
                            .remote(new RemoteOptions(List.of(one), List.of(), r.ssh(), r.transfer(), r.returns(),
                                    r.cleanup(), r.basefiles(), r.workdir(), r.env(), r.filterHosts(), 1, r.sshPersist()))
                            .build();
                    spacing.await(); // --ssh-delay between the hosts' logins: each host's runner logs in as it starts
                    try {
                        List<List<ItemSource>> sources = new ArrayList<>();
                        for (List<byte[]> g : groups) {
                            sources.add(new ArrayList<>(List.of(ItemSource.of(g))));
                        }
                        JobRunner runner = new JobRunner(each, template, o, e);
                        started.accept(runner);
                        RunSummary s = runner.run(ArgumentSource.of(sources));
                        status = s.exitStatus();
                    } catch (ExecException x) {
                        e.writeBytes(("brisk par: " + h.name() + ": " + x.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
                        status = 255;
                    }
                    byte[][] done = {o.toByteArray(), e.toByteArray()};
                    if (!keepOrder) {
                        synchronized (lock) {
                            print(done, tag ? h.name() : null, out, err);
                        }
                    }
                    synchronized (lock) {
                        statuses.add(status);
                    }
                    return done;
                }));
            }
            for (int i = 0; i < hosts.size(); i++) {
                byte[][] done = results.get(i).get();
                if (keepOrder) {
                    print(done, tag ? hosts.get(i).name() : null, out, err);
                }
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
        long failed = statuses.stream().filter(s -> s != 0).count();
        return new RunSummary(hosts.size(), failed, false, 0).exitStatus(); // GNU parallel's count, at most 101
    }

    private static void print(byte[][] done, String tag, OutputStream out, OutputStream err) throws IOException {
        write(done[0], tag, out);
        write(done[1], tag, err);
    }

    private static void write(byte[] data, String tag, OutputStream s) throws IOException {
        (tag == null ? s : new LinePrefixer(s, (tag + "\t").getBytes(StandardCharsets.UTF_8))).write(data);
        s.flush();
    }
}
