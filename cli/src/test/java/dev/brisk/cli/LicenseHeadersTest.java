// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Every source file of the repository (Java, shell and Python scripts) names its license,
 * Apache-2.0, in an SPDX line: {@code scripts/license-headers --check} lists none.
 */
class LicenseHeadersTest {

    @Test
    void everySourceFileNamesItsLicense() throws IOException, InterruptedException {
        Path script = Path.of("..", "scripts", "license-headers").toAbsolutePath().normalize();
        Process p = new ProcessBuilder(script.toString(), "--check").redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("files without the SPDX line (run scripts/license-headers to add it):%n%s", out).isZero();
        assertThat(out).isEmpty();
    }
}
