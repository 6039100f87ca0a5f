package dev.brisk.cli;

import java.io.PrintWriter;
import java.io.Writer;

/**
 * The workload of the launcher's AOT training run ({@code -Dbrisk.aot.train=true}): besides the
 * {@code --help} the launcher asks for, it runs each subcommand's hot path once, so the cache
 * holds the classes (and method profiles) that path loads. Without it the FFM linker and the
 * meter are loaded cold on every {@code brisk pv}, which costs more than the cache saves.
 */
final class AotTraining {
    private AotTraining() {}

    /** Runs the training workloads; output goes nowhere. */
    static void run() {
        PrintWriter none = new PrintWriter(Writer.nullWriter());
        // brisk pv: the sendfile path, the read/write path, the status line and numeric output
        Main.run(new String[] {"pv", "-f", "-S", "-s", "4M", "-o", "/dev/null", "/dev/zero"}, none, none);
        Main.run(new String[] {"pv", "-q", "-C", "-0", "-S", "-s", "100000", "-o", "/dev/null", "/dev/zero"}, none, none);
        Main.run(new String[] {"pv", "-n", "-b", "-S", "-s", "1M", "-X", "/dev/zero"}, none, none);
    }
}
