// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The machine code {@link NativeSpawn} runs is the assembly in the source tree, byte for byte. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeSpawnTest {
    @Test
    void theCodeIsTheAssembledSource() throws IOException, InterruptedException {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("scripts/native-spawn"))) {
            root = root.getParent();
            assertThat(root).as("the source tree's root").isNotNull();
        }
        Process p = new ProcessBuilder(root.resolve("scripts/native-spawn").toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String hex = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(NativeSpawn.CODE).as("NativeSpawn.CODE: paste scripts/native-spawn's output").isEqualTo(hex);
        assertThat(NativeSpawn.CODE.length() / 2).isLessThan(4096); // it fits the one page it is copied into
    }
}
