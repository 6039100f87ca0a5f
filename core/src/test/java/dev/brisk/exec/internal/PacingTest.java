// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.exec.JobOptions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code --delay} on a clock passed in: each start at least the delay after the one before. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class PacingTest {
    private static final long MS = 1_000_000;

    @Test
    void startsAreTheDelayApart() {
        JobOptions o = JobOptions.builder().delay(java.time.Duration.ofMillis(100)).build();
        Pacing p = new Pacing(o, () -> false, () -> { });
        assertThat(p.reserve(1000 * MS)).isZero(); // the first starts at once
        assertThat(p.reserve(1010 * MS)).isEqualTo(90 * MS); // the second 100 ms after it
        assertThat(p.reserve(1020 * MS)).isEqualTo(180 * MS); // the third after the second
        assertThat(p.reserve(2000 * MS)).isZero(); // long after: at once
    }

    @Test
    void noDelayNeverWaits() {
        Pacing p = new Pacing(JobOptions.builder().build(), () -> false, () -> { });
        assertThat(p.reserve(5)).isZero();
        assertThat(p.reserve(6)).isZero();
    }
}
