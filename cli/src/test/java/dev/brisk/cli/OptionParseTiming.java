// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

/**
 * What reading par's and pv's options costs a call ({@link GetoptParser} on their
 * {@link OptionTable}s, {@code ParCommand.directReason}, the early-login decision): the mean
 * over 200,000 command lines once compiled, and with {@code cold}, in a fresh JVM, the first
 * call and the mean of the next 100 (what a warm server's first calls of par pay). Not a test;
 * run it after {@code mvn -pl cli -am test-compile}, from {@code cli/}:
 * {@code java -cp target/test-classes:target/classes:$(mvn -q -o dependency:build-classpath
 * -Dmdep.outputFile=/dev/stdout) dev.brisk.cli.OptionParseTiming [cold]}.
 */
public final class OptionParseTiming {
    private OptionParseTiming() {}

    public static void main(String[] args) {
        String[] par = {"echo", ":::", "a"};
        String[] par7 = {"-k", "-j4", "--tag", "--joblog", "jl", "-n", "2", "md5sum", "{}", ":::", "a", "b"};
        String[] pv = {"-q", "f"};
        String[] pv5 = {"-ptebL10k", "-s", "5", "--name=x", "f"};
        Runnable parCall = () -> {
            ParCommand c = new ParCommand();
            GetoptParser.parse(ParCommand.OPTIONS, c, par7);
            ParCommand.directReason(par7);
            c.earlyHosts();
        };
        if (args.length > 0 && args[0].equals("cold")) {
            long t0 = System.nanoTime();
            parCall.run();
            long t1 = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                parCall.run();
            }
            long t2 = System.nanoTime();
            System.out.printf("par: first call %.1f us, the next 100 %.1f us each%n", (t1 - t0) / 1e3, (t2 - t1) / 1e3 / 100);
            return;
        }
        for (int round = 0; round < 3; round++) {
            System.out.printf("round %d%n", round);
            time("par: echo ::: a", () -> GetoptParser.parse(ParCommand.OPTIONS, new ParCommand(), par));
            time("par: 7 options", () -> GetoptParser.parse(ParCommand.OPTIONS, new ParCommand(), par7));
            time("par: a whole call's reading", parCall);
            time("pv: -q f", () -> GetoptParser.parse(PvCommand.OPTIONS, new PvCommand(), pv));
            time("pv: 5 options", () -> GetoptParser.parse(PvCommand.OPTIONS, new PvCommand(), pv5));
        }
    }

    private static void time(String what, Runnable r) {
        int n = 200_000;
        for (int i = 0; i < n / 4; i++) {
            r.run();
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            r.run();
        }
        System.out.printf("  %-30s %8.2f us%n", what, (System.nanoTime() - t0) / 1e3 / n);
    }
}
