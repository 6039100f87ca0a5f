// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Test helper: a real Slurm cluster (Debian's {@code slurm-wlm} 22.05 and {@code munge}) whose
 * daemons are this JVM's own children: one {@code munged} (as the munge user, with its own key
 * and socket under the cluster's directory, so a system munged or another cluster does not
 * matter), {@code slurmctld -D} and three {@code slurmd -D -N nK} posing as nodes n1..n3, all on
 * 127.0.0.1 ({@code NodeHostname=localhost}), 2 CPUs each, on ports free when the cluster starts.
 * State, spool, logs and the {@code slurm.conf} live in a fresh temporary directory; Slurm's
 * commands find the cluster through {@link #env()} ({@code SLURM_CONF}).
 *
 * <p>{@link #close()} cancels every job, kills what the nodes' step daemons ran, then the daemons
 * by PID (TERM, then KILL), reaps them and removes the directory, whatever the test did; a
 * shutdown hook does the same if the JVM ends first. Needs root (slurmd launches tasks as the
 * submitting user).
 */
final class SlurmCluster implements AutoCloseable {
    static final List<String> NODES = List.of("n1", "n2", "n3");
    static final int CPUS = 2;

    final Path dir;
    final Path conf;
    private final Map<String, Process> daemons = new LinkedHashMap<>();
    private final Thread hook = new Thread(this::stop, "slurm-cluster-stop");
    private boolean stopped;

    private SlurmCluster(Path dir) {
        this.dir = dir;
        this.conf = dir.resolve("slurm.conf");
    }

    /** Starts a cluster and waits until every node is idle (about 1-1.5 s). */
    static SlurmCluster start() throws IOException, InterruptedException {
        for (String tool : List.of("munged", "mungekey", "setpriv", "slurmctld", "slurmd", "sinfo", "srun")) {
            if (which(tool).isEmpty()) {
                throw new AssertionError(tool + " is not installed: ./test installs slurm-wlm and munge");
            }
        }
        Path dir = Files.createTempDirectory("brisk-slurm");
        // munged (not root) must reach its socket
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        SlurmCluster c = new SlurmCluster(dir);
        Runtime.getRuntime().addShutdownHook(c.hook);
        try {
            c.boot();
            return c;
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            String logs = c.logs();
            c.close();
            throw new AssertionError("the Slurm cluster did not start: " + e.getMessage() + "\n" + logs, e);
        }
    }

    private void boot() throws IOException, InterruptedException {
        Path munge = Files.createDirectories(dir.resolve("munge"));
        Files.createDirectories(dir.resolve("state"));
        Files.createDirectories(dir.resolve("log"));
        for (String n : NODES) {
            Files.createDirectories(dir.resolve("spool").resolve(n));
        }
        exec(List.of("chown", "munge:munge", munge.toString()));
        exec(asMunge("mungekey", "--create", "--keyfile=" + munge.resolve("munge.key")));
        daemons.put("munged", spawn("munged", asMunge("munged", "-F", "--socket=" + socket(),
                "--key-file=" + munge.resolve("munge.key"), "--pid-file=" + munge.resolve("munged.pid"),
                "--seed-file=" + munge.resolve("munged.seed"), "--log-file=" + munge.resolve("munged.log"))));
        waitFor("munged's socket", () -> Files.exists(socket()));
        int[] ports = freePorts(1 + NODES.size());
        Files.writeString(conf, config(ports));
        daemons.put("slurmctld", spawn("slurmctld", List.of("slurmctld", "-D", "-i")));
        for (String n : NODES) {
            daemons.put("slurmd-" + n, spawn("slurmd-" + n, List.of("slurmd", "-D", "-N", n)));
        }
        waitFor("idle nodes", () -> idle() == NODES.size());
    }

    private Path socket() {
        return dir.resolve("munge").resolve("munge.socket");
    }

    private String config(int[] ports) {
        StringBuilder s = new StringBuilder();
        s.append("""
                ClusterName=brisk
                SlurmctldHost=localhost(127.0.0.1)
                SlurmctldPort=%d
                AuthType=auth/munge
                AuthInfo=socket=%s
                CredType=cred/munge
                SlurmUser=root
                SlurmdUser=root
                StateSaveLocation=%s/state
                SlurmdSpoolDir=%s/spool/%%n
                SlurmctldPidFile=%s/slurmctld.pid
                SlurmdPidFile=%s/spool/%%n/slurmd.pid
                SlurmctldLogFile=%s/log/slurmctld.log
                SlurmdLogFile=%s/log/slurmd-%%n.log
                ProctrackType=proctrack/linuxproc
                TaskPlugin=task/none
                SelectType=select/cons_tres
                SelectTypeParameters=CR_CPU
                AccountingStorageType=accounting_storage/none
                JobAcctGatherType=jobacct_gather/none
                JobCompType=jobcomp/none
                MpiDefault=none
                ReturnToService=2
                SlurmdTimeout=5
                InactiveLimit=0
                MinJobAge=300
                KillWait=1
                MessageTimeout=5
                # a job submitted while the last one's nodes still complete waits for the main
                # scheduling loop: 60 s by default (one test took 70 s in each of two full runs)
                SchedulerParameters=sched_interval=2
                """.formatted(ports[0], socket(), dir, dir, dir, dir, dir, dir));
        for (int i = 0; i < NODES.size(); i++) {
            s.append("NodeName=").append(NODES.get(i)).append(" NodeHostname=localhost NodeAddr=127.0.0.1 Port=")
                    .append(ports[i + 1]).append(" CPUs=").append(CPUS).append(" State=UNKNOWN\n");
        }
        s.append("PartitionName=debug Nodes=").append(String.join(",", NODES)).append(" Default=YES MaxTime=INFINITE State=UP\n");
        return s.toString();
    }

    /** The environment for Slurm's commands (and for brisk run under them): {@code SLURM_CONF}. */
    Map<String, String> env() {
        return Map.of("SLURM_CONF", conf.toString());
    }

    /** A process builder for {@code argv} with this cluster's environment, in the cluster's directory. */
    ProcessBuilder command(List<String> argv) {
        ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_"));
        pb.environment().putAll(env());
        return pb;
    }

    /** Runs a Slurm command (e.g. {@code squeue -h}) and returns its stdout; fails on a non-zero exit. */
    String run(String... argv) throws IOException, InterruptedException {
        return exec(command(List.of(argv)));
    }

    /** How many nodes {@code sinfo} shows idle (0 while slurmctld does not answer). */
    int idle() {
        try {
            return (int) run("sinfo", "-h", "-N", "-o", "%N %t").lines().filter(l -> l.endsWith(" idle")).count();
        } catch (IOException | InterruptedException | AssertionError e) {
            return 0;
        }
    }

    /**
     * Kills node {@code node} as a crash would: its slurmd, its step daemons and everything they
     * ran; then sets it DOWN, as a cluster's health check does on a node it finds dead (slurmctld
     * takes it down the same way, failing its steps, once {@code SlurmdTimeout} has passed
     * without an answer: 15 s more here).
     */
    void crash(String node) throws InterruptedException, IOException {
        Process d = daemons.get("slurmd-" + node);
        d.destroyForcibly();
        d.waitFor(5, TimeUnit.SECONDS);
        killSteps(node);
        run("scontrol", "update", "nodename=" + node, "state=down", "reason=crashed");
    }

    /** Brings a crashed node back: starts its slurmd again, returns it to service and waits until every node is idle. */
    void revive(String node) throws IOException, InterruptedException {
        Process d = daemons.get("slurmd-" + node);
        if (!d.isAlive()) {
            daemons.put("slurmd-" + node, spawn("slurmd-" + node + "-again", List.of("slurmd", "-D", "-N", node)));
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (idle() < NODES.size() && System.nanoTime() < until) {
            try {
                run("scontrol", "update", "nodename=" + node, "state=resume");
            } catch (AssertionError e) {
                // not down (yet, or any more): nothing to resume
            }
            Thread.sleep(200);
        }
        waitFor("idle nodes after reviving " + node, () -> idle() == NODES.size());
    }

    /** The step daemons of this cluster (their working directory is the cluster's). */
    private Stream<ProcessHandle> stepDaemons() {
        return ProcessHandle.allProcesses().filter(h -> {
            try {
                return Files.readString(Path.of("/proc", Long.toString(h.pid()), "comm")).startsWith("slurmstepd")
                        && Files.readSymbolicLink(Path.of("/proc", Long.toString(h.pid()), "cwd")).startsWith(dir);
            } catch (IOException | UncheckedIOException e) {
                return false;
            }
        });
    }

    /** Kills the step daemons of {@code node} (null: of every node) and all their descendants. */
    private void killSteps(String node) {
        stepDaemons().filter(h -> node == null || onNode(h, node)).forEach(h -> {
            h.descendants().forEach(ProcessHandle::destroyForcibly);
            h.destroyForcibly();
        });
    }

    /** Whether a step daemon serves {@code node}: its tasks have {@code SLURMD_NODENAME} set to it. */
    private static boolean onNode(ProcessHandle h, String node) {
        byte[] mark = ("\0SLURMD_NODENAME=" + node + "\0").getBytes(StandardCharsets.US_ASCII);
        return h.children().anyMatch(c -> {
            try {
                byte[] env = Files.readAllBytes(Path.of("/proc", Long.toString(c.pid()), "environ"));
                byte[] all = new byte[env.length + 1];
                System.arraycopy(env, 0, all, 1, env.length);
                return new String(all, StandardCharsets.ISO_8859_1).contains(new String(mark, StandardCharsets.ISO_8859_1));
            } catch (IOException e) {
                return false;
            }
        });
    }

    /** The daemons' logs, for a failure message. */
    String logs() {
        StringBuilder s = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".log") || p.toString().endsWith(".out")).sorted().toList()) {
                String text = Files.readString(f, StandardCharsets.ISO_8859_1);
                s.append("== ").append(dir.relativize(f)).append('\n')
                        .append(text, Math.max(0, text.length() - 2000), text.length()).append('\n');
            }
        } catch (IOException | UncheckedIOException e) {
            s.append("(logs unreadable: ").append(e.getMessage()).append(")\n");
        }
        return s.toString();
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook is running us
        }
    }

    private synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        if (daemons.containsKey("slurmctld") && daemons.get("slurmctld").isAlive()) {
            try {
                List<String> jobs = run("squeue", "-h", "-o", "%i").lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
                if (!jobs.isEmpty()) {
                    List<String> cancel = new ArrayList<>(List.of("scancel"));
                    cancel.addAll(jobs);
                    run(cancel.toArray(String[]::new));
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                    while (System.nanoTime() < until && stepDaemons().findAny().isPresent()) {
                        Thread.sleep(50);
                    }
                }
            } catch (IOException | InterruptedException | AssertionError e) {
                // the daemons may be half gone: what is left is killed below
            }
        }
        killSteps(null);
        List<Process> all = new ArrayList<>(daemons.values());
        java.util.Collections.reverse(all);
        for (Process p : all) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : all) {
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        killSteps(null);
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a leftover temporary directory is harmless
        }
    }

    private Process spawn(String name, List<String> argv) throws IOException {
        ProcessBuilder pb = command(argv);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectErrorStream(true);
        pb.redirectOutput(dir.resolve("log").resolve(name + ".out").toFile());
        return pb.start();
    }

    private static List<String> asMunge(String... argv) {
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=munge", "--regid=munge", "--init-groups"));
        cmd.addAll(List.of(argv));
        return cmd;
    }

    private String exec(List<String> argv) throws IOException, InterruptedException {
        return exec(command(argv));
    }

    private static String exec(ProcessBuilder pb) throws IOException, InterruptedException {
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Path err = Files.createTempFile("brisk-slurm-err", "");
        try {
            pb.redirectError(err.toFile());
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor();
                throw new AssertionError(pb.command() + " did not finish in 30 s");
            }
            if (p.exitValue() != 0) {
                throw new AssertionError(pb.command() + " exited " + p.exitValue() + ": " + Files.readString(err).strip());
            }
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    private interface Check {
        boolean ok() throws IOException, InterruptedException;
    }

    private void waitFor(String what, Check check) throws IOException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!check.ok()) {
            for (Map.Entry<String, Process> d : daemons.entrySet()) {
                if (!d.getValue().isAlive()) {
                    throw new AssertionError(d.getKey() + " exited " + d.getValue().exitValue() + " while waiting for " + what);
                }
            }
            if (System.nanoTime() > until) {
                throw new AssertionError("no " + what + " after 30 s");
            }
            Thread.sleep(25);
        }
    }

    /** Ports free on 127.0.0.1 now (bound and released; another process could take one meanwhile, which the start-up would report). */
    private static int[] freePorts(int n) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }

    static Optional<Path> which(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            for (String dirName : new String[] {d, "/usr/sbin", "/sbin"}) {
                Path p = Path.of(dirName.isEmpty() ? "." : dirName, tool);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }
}
