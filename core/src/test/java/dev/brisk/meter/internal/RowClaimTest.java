// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Row claims on one display: lowest free row first, the last to leave learns the group's size. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RowClaimTest {
    @TempDir
    Path dir;

    @Test
    void metersOnOneDisplayTakeTheLowestFreeRowAndTheLastLearnsTheGroupSize() throws Exception {
        Path display = Files.createFile(dir.resolve("display"));
        int fd = Libc.open(display.toString().getBytes(StandardCharsets.UTF_8), Flags.O_WRONLY, 0);
        try {
            RowClaim first = RowClaim.claim(fd);
            RowClaim second = RowClaim.claim(fd);
            assertThat(first).isNotNull();
            assertThat(second).isNotNull();
            assertThat(first.row()).isZero();
            assertThat(second.row()).isEqualTo(1);
            assertThat(first.release()).as("others still draw").isZero();
            RowClaim third = RowClaim.claim(fd);
            assertThat(third.row()).as("a freed row is reused").isZero();
            assertThat(third.release()).isZero();
            assertThat(second.release()).as("the last one: two rows were in use").isEqualTo(2);
            RowClaim again = RowClaim.claim(fd);
            assertThat(again.row()).as("a new group starts on the cursor's line").isZero();
            assertThat(again.release()).isEqualTo(1);
        } finally {
            Libc.close(fd);
        }
    }

    /** The last meter of a group removes its file; a removed file's mark sends a late meter to the name's file. */
    @Test
    void theLastToLeaveRemovesTheFileAndALateOpenerFollowsTheName() throws Exception {
        Path display = Files.createFile(dir.resolve("display"));
        int fd = Libc.open(display.toString().getBytes(StandardCharsets.UTF_8), Flags.O_WRONLY, 0);
        try {
            Path file = rowFile(display);
            RowClaim first = RowClaim.claim(fd);
            RowClaim second = RowClaim.claim(fd);
            assertThat(Files.readString(file)).startsWith("2\n");
            assertThat(first.release()).isZero();
            assertThat(Files.exists(file)).as("a meter still draws").isTrue();
            assertThat(second.release()).isEqualTo(2);
            assertThat(Files.exists(file)).as("removed by the last to leave").isFalse();
            // a file marked gone at the name (its remover killed before the unlink): used as empty
            Files.writeString(file, "gone\n");
            RowClaim late = RowClaim.claim(fd);
            assertThat(late.row()).isZero();
            assertThat(Files.readString(file)).isEqualTo("1\n" + ProcessHandle.current().pid() + "\n");
            assertThat(late.release()).isEqualTo(1);
            assertThat(Files.exists(file)).isFalse();
        } finally {
            Libc.close(fd);
        }
    }

    /** The claims' file of {@code display}, where RowClaim keeps it. */
    private static Path rowFile(Path display) throws Exception {
        long dev = ((Number) Files.getAttribute(display, "unix:dev")).longValue();
        long ino = ((Number) Files.getAttribute(display, "unix:ino")).longValue();
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isEmpty() && Files.isDirectory(Path.of(runtime))) {
            return Path.of(runtime, "brisk-pv-" + dev + "-" + ino + ".rows");
        }
        return Path.of(System.getProperty("java.io.tmpdir", "/tmp"),
                "brisk-pv-" + Files.getAttribute(Path.of("/proc/self"), "unix:uid") + "-" + dev + "-" + ino + ".rows");
    }

    @Test
    void anotherDisplayIsAnotherGroup() throws Exception {
        int a = Libc.open(Files.createFile(dir.resolve("a")).toString().getBytes(StandardCharsets.UTF_8), Flags.O_WRONLY, 0);
        int b = Libc.open(Files.createFile(dir.resolve("b")).toString().getBytes(StandardCharsets.UTF_8), Flags.O_WRONLY, 0);
        try {
            RowClaim onA = RowClaim.claim(a);
            RowClaim onB = RowClaim.claim(b);
            assertThat(onA.row()).isZero();
            assertThat(onB.row()).isZero();
            assertThat(onA.release()).isEqualTo(1);
            assertThat(onB.release()).isEqualTo(1);
        } finally {
            Libc.close(a);
            Libc.close(b);
        }
    }
}
