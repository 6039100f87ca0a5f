// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A test's child process run to its end: its output (stdout and stderr together), its status asserted 0. */
final class ProcessOutput {
    private ProcessOutput() {}

    /**
     * Starts {@code pb} (stderr joined to stdout, stdin at end of file), reads its output while
     * it runs, kills it if it has not ended within {@code seconds}, asserts it exited 0 and
     * returns what it printed.
     */
    static String of(ProcessBuilder pb, int seconds) throws Exception {
        Process p = pb.redirectErrorStream(true).start();
        p.getOutputStream().close();
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> {
            try {
                return p.getInputStream().readAllBytes();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(pb.command() + " did not finish in " + seconds + " s");
        }
        String text = new String(out.get(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("%s:%n%s", pb.command(), text).isZero();
        return text;
    }
}
