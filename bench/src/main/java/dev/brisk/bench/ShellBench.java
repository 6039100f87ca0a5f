// SPDX-License-Identifier: Apache-2.0
package dev.brisk.bench;

import dev.brisk.shell.CommandResult;
import dev.brisk.shell.ShellPool;
import dev.brisk.shell.ShellSession;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.zeroturnaround.exec.ProcessExecutor;

/**
 * Per-command cost of the warm shell pool against a new process per command.
 *
 * <p>Runners, timed in the same run and interleaved round by round: {@code ProcessBuilder("sh",
 * "-c", cmd)}, zt-exec (the same {@code sh -c}; NuProcess 2.0.6 was tried and fails on JDK 25
 * with a NullPointerException in {@code BasePosixProcess.callStart}), the pool (isolated: a subshell per
 * command; bash, the default, and dash), a bash session (no subshell), and the floor: the same
 * command in a plain bash loop. Each
 * cell is the median over rounds of the mean per-command wall time; with C callers, C threads
 * share the pool (C workers) and the figure is wall time divided by commands (inverse throughput).
 *
 * <p>Run: {@code bench/shell.sh} (or {@code java -cp ... dev.brisk.bench.ShellBench [ROUNDS] [COMMANDS]}).
 */
public final class ShellBench {
    private interface Runner {
        void run(String cmd) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int perRound = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        // BENCH_COMMANDS='true|ls /' and BENCH_CALLERS=1 pick a subset; x=1; echo $x is shell code that needs a subshell
        String[] commands = System.getenv().getOrDefault("BENCH_COMMANDS", "true|echo hi|x=1; echo $x|/bin/true|ls /").split("\\|");
        int[] callerCounts = Arrays.stream(System.getenv().getOrDefault("BENCH_CALLERS", "1,4").split(","))
                .mapToInt(Integer::parseInt).toArray();
        System.out.printf("ShellBench: %d rounds x %d commands, %d cores, %s%n", rounds, perRound,
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        for (int callers : callerCounts) {
            try (ShellPool pool = ShellPool.builder().workers(callers).build();
                 ShellPool dash = ShellPool.builder().shell("dash").workers(callers).build()) {
                List<ShellSession> sessions = new ArrayList<>();
                for (int i = 0; i < callers; i++) {
                    sessions.add(pool.session());
                }
                ThreadLocal<ShellSession> mySession = new ThreadLocal<>();
                java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
                Map<String, Runner> runners = new LinkedHashMap<>();
                runners.put("ProcessBuilder sh -c", ShellBench::processBuilder);
                runners.put("zt-exec sh -c", c -> new ProcessExecutor("sh", "-c", c).readOutput(true).execute());
                runners.put("brisk pool (isolated)", c -> check(pool.run(c)));
                runners.put("brisk pool, dash (isolated)", c -> check(dash.run(c)));
                runners.put("brisk session", c -> {
                    ShellSession s = mySession.get();
                    if (s == null) {
                        s = sessions.get(next.getAndIncrement() % sessions.size());
                        mySession.set(s);
                    }
                    check(s.run(c));
                });
                for (String cmd : commands) {
                    Map<String, double[]> samples = new LinkedHashMap<>();
                    runners.keySet().forEach(k -> samples.put(k, new double[rounds]));
                    double[] floor = new double[rounds];
                    for (Runner r : runners.values()) {
                        timeMicros(r, cmd, Math.max(20, perRound / 10), callers);
                    }
                    for (int round = 0; round < rounds; round++) {
                        for (Map.Entry<String, Runner> e : runners.entrySet()) {
                            samples.get(e.getKey())[round] = timeMicros(e.getValue(), cmd, perRound, callers);
                        }
                        floor[round] = bashLoopMicros(cmd, perRound, callers);
                    }
                    double pb = median(samples.get("ProcessBuilder sh -c"));
                    double fl = median(floor);
                    System.out.printf("%n%-10s callers=%d   (µs/command, median of %d; ratio = ProcessBuilder / runner; vs floor = runner / bash loop)%n",
                            "'" + cmd + "'", callers, rounds);
                    for (Map.Entry<String, double[]> e : samples.entrySet()) {
                        double m = median(e.getValue());
                        System.out.printf("  %-24s %9.1f µs   %6.2fx faster   %5.2f of floor%n", e.getKey(), m, pb / m, m / fl);
                    }
                    System.out.printf("  %-24s %9.1f µs   %6.2fx%n", "floor: plain bash loop", fl, pb / fl);
                }
                for (ShellSession s : sessions) {
                    s.close();
                }
            }
        }
    }

    private static void check(CommandResult r) {
        if (r.exitCode() != 0) {
            throw new IllegalStateException("benchmark command failed: " + r + " " + r.stderrText());
        }
    }

    static void processBuilder(String cmd) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", cmd).start();
        p.getOutputStream().close();
        try (InputStream out = p.getInputStream(); InputStream err = p.getErrorStream()) {
            out.readAllBytes();
            err.readAllBytes();
        }
        if (p.waitFor() != 0) {
            throw new IllegalStateException("failed: " + cmd);
        }
    }

    /** Mean µs per command over {@code n} commands shared by {@code callers} threads. */
    private static double timeMicros(Runner r, String cmd, int n, int callers) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(callers);
        try {
            long start = System.nanoTime();
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < callers; t++) {
                int share = n / callers;
                fs.add(ex.submit(() -> {
                    for (int i = 0; i < share; i++) {
                        r.run(cmd);
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            return (System.nanoTime() - start) / 1000.0 / n;
        } finally {
            ex.shutdownNow();
        }
    }

    /** The floor: the same command in {@code callers} plain bash loops at once, µs per command. */
    private static double bashLoopMicros(String cmd, int n, int callers) throws Exception {
        String loop = "for ((i=0;i<" + (n / callers) + ";i++)); do " + cmd + " >/dev/null; done";
        List<Process> ps = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < callers; t++) {
            ps.add(new ProcessBuilder("bash", "--noprofile", "--norc", "-c", loop).start());
        }
        for (Process p : ps) {
            p.waitFor();
        }
        return (System.nanoTime() - start) / 1000.0 / n;
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
