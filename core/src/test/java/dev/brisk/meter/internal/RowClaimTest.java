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
