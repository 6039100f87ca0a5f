// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MountNamesTest {
    private static boolean has(byte[][][] names, String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        return MountNames.mightBe(names, b, 0, b.length);
    }

    @Test
    void lastNamesOfMountPointsWithTheKernelsEscapesUndone() {
        String table = "22 1 0:21 / / rw - ext4 /dev/vda rw\n"
                + "23 22 0:22 / /proc rw,nosuid - proc proc rw\n"
                + "24 22 0:5 /null /tmp/a\\040dir/my\\040file rw - devtmpfs udev rw\n"
                + "25 22 0:23 / /run/lock rw shared:1 - tmpfs tmpfs rw\n";
        byte[][][] names = MountNames.parse(table.getBytes(StandardCharsets.UTF_8));
        assertThat(has(names, "proc")).isTrue();
        assertThat(has(names, "lock")).isTrue();
        assertThat(has(names, "my file")).isTrue();
        assertThat(has(names, "my\\040file")).isFalse();
        assertThat(has(names, "run")).isFalse();
        assertThat(has(names, "")).isFalse();
        assertThat(has(names, "a much longer name than any mount point's")).isFalse();
    }

    @Test
    void theTableOfThisProcessNamesItsMountPoints() throws Exception {
        byte[][][] names = MountNames.current();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String point = line.split(" ")[4];
            String last = point.substring(point.lastIndexOf('/') + 1);
            if (!last.isEmpty() && !last.contains("\\")) {
                assertThat(has(names, last)).as(point).isTrue();
            }
        }
        assertThat(MountNames.current()).isSameAs(names); // read again only after a change
    }
}
