// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LimitScriptsTest {
    @Test
    void sizesTakeGnuUnits() {
        assertThat(LimitScripts.size("1k")).isEqualTo(1000);
        assertThat(LimitScripts.size("1K")).isEqualTo(1024);
        assertThat(LimitScripts.size("1.5M")).isEqualTo(1572864);
        assertThat(LimitScripts.size("7")).isEqualTo(7);
    }

    @Test
    void gnuScriptsAndOtherCommands() {
        assertThat(LimitScripts.expand("mem 1G")).contains("/proc/meminfo", "1073741824");
        assertThat(LimitScripts.expand("load 4")).contains("ps ax", "-le 4");
        assertThat(LimitScripts.expand("mem lots")).isEqualTo("mem lots");
        assertThat(LimitScripts.expand("exit 2")).isEqualTo("exit 2");
    }
}
