// SPDX-License-Identifier: Apache-2.0
package dev.brisk.bench;

import dev.brisk.shell.CommandResult;
import dev.brisk.shell.ShellPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One point of the pool's scale curve: COMMANDS runs of CMD shared by CALLERS threads, through the
 * warm shell pool (CALLERS workers) or through {@code ProcessBuilder("sh","-c")}; prints the wall
 * time per command in microseconds (inverse throughput) as {@code us_per_command=...}.
 *
 * <p>One JVM per point, so that {@code /usr/bin/time -f %M} around it gives that point's peak
 * memory. Run by {@code bench/scale.sh pool}; by hand:
 * {@code java --enable-native-access=ALL-UNNAMED -cp bench/target/classes:core/target/classes
 * dev.brisk.bench.PoolScaleBench pool|processbuilder CALLERS COMMANDS CMD}.
 */
public final class PoolScaleBench {
    private PoolScaleBench() {}

    private interface Runner {
        void run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String runner = args[0];
        int callers = Integer.parseInt(args[1]);
        int commands = Integer.parseInt(args[2]);
        String cmd = args[3];
        if (runner.equals("pool")) {
            try (ShellPool pool = ShellPool.builder().workers(callers).build()) {
                Runner r = () -> check(pool.run(cmd), cmd);
                time(r, Math.max(callers * 4, commands / 10), callers); // warm-up: every worker, and the JIT
                report(time(r, commands, callers));
            }
        } else {
            Runner r = () -> ShellBench.processBuilder(cmd);
            time(r, Math.max(callers * 2, commands / 20), callers);
            report(time(r, commands, callers));
        }
    }

    private static void report(double micros) {
        System.out.printf("us_per_command=%.2f%n", micros);
    }

    private static void check(CommandResult r, String cmd) {
        if (r.exitCode() != 0) {
            throw new IllegalStateException("benchmark command failed: " + cmd + ": " + r.stderrText());
        }
    }

    /** Wall µs per command over {@code n} commands shared by {@code callers} threads. */
    private static double time(Runner r, int n, int callers) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(callers);
        try {
            long start = System.nanoTime();
            List<Future<?>> fs = new ArrayList<>();
            int share = Math.max(1, n / callers);
            for (int t = 0; t < callers; t++) {
                fs.add(ex.submit(() -> {
                    for (int i = 0; i < share; i++) {
                        r.run();
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            return (System.nanoTime() - start) / 1000.0 / ((long) share * callers);
        } finally {
            ex.shutdownNow();
        }
    }
}
