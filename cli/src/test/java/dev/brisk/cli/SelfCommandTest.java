// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The batch job's command line for {@code --slurm-submit}: this JVM's, with {@code --slurm} for {@code --slurm-submit OPTS}. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SelfCommandTest {
    private static List<byte[]> bytes(String... args) {
        return Arrays.stream(args).map(a -> a.getBytes(StandardCharsets.UTF_8)).toList();
    }

    private static List<String> strings(List<byte[]> args) {
        return args.stream().map(a -> new String(a, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void replacesSubmitBySlurmAndKeepsEverythingElse() {
        List<byte[]> all = bytes("/jdk/bin/java", "-Xms16m", "-XX:AOTCache=/c/brisk.aot", "-jar", "/lib/brisk.jar", "par",
                "-k", "--slurm-submit", "-N 3 -t 1:00", "--joblog", "jl", "--slurm-submit=-N 2", "echo", "--slurm-submit", ":::", "a");
        assertThat(strings(SelfCommand.forSlurmJob(all, 4))).containsExactly("/jdk/bin/java", "-Xms16m",
                "-XX:AOTCache=/c/brisk.aot", "-jar", "/lib/brisk.jar", "par", "--slurm", "-k", "--joblog", "jl",
                // operands stay as they are, even one that looks like the option
                "echo", "--slurm-submit", ":::", "a");
    }

    @Test
    void keepsBytesThatAreNotUtf8() {
        List<byte[]> all = new java.util.ArrayList<>(bytes("java", "-jar", "b.jar", "par", "--slurm-submit", "", "echo"));
        all.add(new byte[] {'x', (byte) 0xff});
        List<byte[]> out = SelfCommand.forSlurmJob(all, 2);
        assertThat(out.getLast()).containsExactly('x', 0xff);
        assertThat(strings(out.subList(0, 5))).containsExactly("java", "-jar", "b.jar", "par", "--slurm");
    }

    @Test
    void refusesAJvmNotStartedWithJar() {
        assertThatThrownBy(() -> SelfCommand.forSlurmJob(bytes("java", "-cp", "x", "dev.brisk.cli.Main", "par", "echo"), 1))
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("--slurm-submit: brisk was not started");
    }
}
