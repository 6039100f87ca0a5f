// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;

/** The machine code brisk runs ({@link NativeSpawn}'s, {@link Syscall}'s, {@link Kernel}'s) is the assembly in the source tree, byte for byte. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeCodeTest {
    @ParameterizedTest
    @CsvSource({"spawn-x86_64, NativeSpawn.CODE", "syscall-x86_64, Syscall.RAW_CODE", "jni-x86_64, Kernel.CODE"})
    void theCodeIsTheAssembledSource(String name, String constant) throws IOException, InterruptedException {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("scripts/native-code"))) {
            root = root.getParent();
            assertThat(root).as("the source tree's root").isNotNull();
        }
        Process p = new ProcessBuilder(root.resolve("scripts/native-code").toString(), name)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String hex = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        String code = name.startsWith("spawn") ? NativeSpawn.CODE : name.startsWith("jni") ? Kernel.CODE : Syscall.RAW_CODE;
        assertThat(code).as(constant + ": paste the output of scripts/native-code " + name).isEqualTo(hex);
        assertThat(code.length() / 2).isLessThan(4096); // it fits the one page it is copied into
    }
}
