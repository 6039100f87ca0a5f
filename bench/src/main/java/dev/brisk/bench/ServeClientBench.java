// SPDX-License-Identifier: Apache-2.0
package dev.brisk.bench;

import dev.brisk.serve.BriskClient;
import dev.brisk.shell.Command;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The Java client's round trip to a running {@code brisk serve}: ROUNDS rounds of N sequential
 * {@code true} calls on one connection, after 3000 warm-up calls; prints each round's median and
 * p99 in microseconds. By hand (bench/serve.sh starts a server the same way):
 * {@code java --enable-native-access=ALL-UNNAMED -cp bench/target/classes:core/target/classes
 * dev.brisk.bench.ServeClientBench SOCKET ROUNDS N}.
 */
public final class ServeClientBench {
    private ServeClientBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: ServeClientBench SOCKET ROUNDS N");
            System.exit(2);
        }
        int rounds = Integer.parseInt(args[1]);
        int n = Integer.parseInt(args[2]);
        try (BriskClient c = BriskClient.connect(Path.of(args[0]))) {
            for (int i = 0; i < 3000; i++) {
                c.run(Command.of("true"));
            }
            System.out.println("java: " + rounds + " rounds x " + n + " calls of true");
            for (int r = 0; r < rounds; r++) {
                long[] t = new long[n];
                for (int i = 0; i < n; i++) {
                    long s = System.nanoTime();
                    if (c.run(Command.of("true")).exitCode() != 0) {
                        throw new IllegalStateException("true failed");
                    }
                    t[i] = System.nanoTime() - s;
                }
                Arrays.sort(t);
                System.out.printf("round %d  BriskClient  median %.1f us  p99 %.1f us%n", r + 1, t[n / 2] / 1e3,
                        t[(int) (n * 0.99)] / 1e3);
            }
        }
    }
}
