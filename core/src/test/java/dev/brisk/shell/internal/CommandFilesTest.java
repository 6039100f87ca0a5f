// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The command and input files, read back by a real shell as the worker's shell reads them. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CommandFilesTest {
    @TempDir
    Path dir;

    /** What {@code . ./c} prints in {@code dir}, under {@code shell}, with stdin from {@code input} (or /dev/null). */
    private String source(String shell, Path input) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(shell, "-c", ". ./c").directory(dir.toFile()).redirectErrorStream(true);
        pb.redirectInput(input != null ? input.toFile() : new java.io.File("/dev/null"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    @Test
    void theShellRunsTheCommandInItsDirectoryWithItsEnvironment() throws Exception {
        Path cwd = Files.createDirectory(dir.resolve("it's here"));
        CommandFiles f = CommandFiles.create(dir);
        try {
            String awkward = "a'b \"c\" $HOME `x` \\";
            f.writeCommand("printf '%s|%s|' \"$X\" \"$__brisk_dir\"; pwd".getBytes(StandardCharsets.UTF_8), false, true,
                    cwd, Map.of("X", awkward));
            for (String shell : new String[] {"bash", "dash"}) {
                assertThat(source(shell, null)).as(shell).isEqualTo(awkward + "||" + cwd + "\n");
            }
            // a directory that is not there stops the command before it runs
            f.writeCommand("echo ran".getBytes(StandardCharsets.UTF_8), false, false, dir.resolve("nowhere"), Map.of());
            assertThat(source("bash", null)).doesNotContain("ran");
            // a shorter command leaves nothing of the longer one behind; a bare one has no prologue
            f.writeCommand("echo hi".getBytes(StandardCharsets.UTF_8), true, true, null, Map.of());
            assertThat(Files.readString(dir.resolve("c"))).isEqualTo("echo hi\n");
            assertThat(source("dash", null)).isEqualTo("hi\n");
        } finally {
            f.close();
        }
    }

    @Test
    void inputFilesFeedTheCommandAndGoAtTheNextTidy() throws Exception {
        CommandFiles f = CommandFiles.create(dir);
        try {
            byte[] input = new byte[100_000];
            for (int i = 0; i < input.length; i++) {
                input[i] = (byte) i;
            }
            byte[] path = f.writeInput(7, input);
            Path i7 = dir.resolve("i7");
            assertThat(new String(path, StandardCharsets.UTF_8)).isEqualTo(i7.toString());
            assertThat(Files.readAllBytes(i7)).isEqualTo(input);
            f.writeCommand("wc -c".getBytes(StandardCharsets.UTF_8), false, true, null, Map.of());
            assertThat(source("bash", i7).trim()).isEqualTo("100000");
            f.done(path);
            assertThat(i7).exists();
            f.tidy();
            assertThat(i7).doesNotExist();
        } finally {
            f.close();
        }
    }
}
