// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The Debian package end to end, through {@code scripts/test-package --from-build} (as root, as CI
 * runs): packaged from the jars this build has just made and tested (CI's build is itself a clean
 * clone's; the script alone packages a clean clone of HEAD), installed with dpkg, run with no JDK
 * in sight, man pages and bash completion, removed without a trace. The script removes the package
 * on any exit and refuses (status 77: this test is then skipped) where brisk is already installed
 * or the user is not root.
 */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
class PackageIT {

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void packageBuildsInstallsRunsAndUninstallsCleanly() throws IOException, InterruptedException {
        Path script = Path.of(System.getProperty("brisk.root"), "scripts", "test-package");
        Process p = new ProcessBuilder(script.toString(), "--from-build").redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
        } finally {
            // a timeout interrupts this thread: the script's own trap removes the package on TERM
            if (p.isAlive()) {
                p.destroy();
                p.waitFor(30, TimeUnit.SECONDS);
            }
        }
        System.out.print(out);
        assumeTrue(p.exitValue() != 77, () -> "skipped: " + out.strip());
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("test-package: ok");
    }
}
