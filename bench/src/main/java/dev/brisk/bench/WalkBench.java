// SPDX-License-Identifier: Apache-2.0
package dev.brisk.bench;

import dev.brisk.walk.EntryType;
import dev.brisk.walk.Visit;
import dev.brisk.walk.WalkOptions;
import dev.brisk.walk.Walker;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The in-process library walk: counts the regular files under ROOT with {@link Walker}, RUNS times
 * after WARMUP walks, and prints the median wall time in seconds ({@code median_s=...}).
 *
 * <p>Run by {@code bench/find.sh}; by hand:
 * {@code java --enable-native-access=ALL-UNNAMED -cp bench/target/classes:core/target/classes
 * dev.brisk.bench.WalkBench ROOT [RUNS] [WARMUP] [THREADS]}.
 */
public final class WalkBench {
    private WalkBench() {}

    public static void main(String[] args) {
        byte[] root = args[0].getBytes(StandardCharsets.UTF_8);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        Walker w = Walker.of(WalkOptions.DEFAULTS.withThreads(threads));
        double[] times = new double[runs];
        long files = 0;
        for (int i = 0; i < warmup + runs; i++) {
            LongAdder n = new LongAdder();
            long t0 = System.nanoTime();
            w.walk(List.of(root), e -> {
                if (e.type() == EntryType.FILE) {
                    n.increment();
                }
                return Visit.CONTINUE;
            });
            double s = (System.nanoTime() - t0) / 1e9;
            if (i >= warmup) {
                times[i - warmup] = s;
            }
            files = n.sum();
        }
        Arrays.sort(times);
        System.out.printf("engine=%s files=%d median_s=%.4f min_s=%.4f%n", w.engine(), files, times[runs / 2], times[0]);
    }
}
