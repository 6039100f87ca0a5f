// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ProgressTrackerTest {
    private static final long S = 1_000_000_000L;
    private static final byte[] NONE = new byte[0];

    @Test
    void currentRateIsSinceThePreviousSnapshot() {
        ProgressTracker t = new ProgressTracker(-1, Duration.ofSeconds(30));
        t.start(0);
        assertThat(t.update(1000, 1000, S, false, NONE).rate()).isCloseTo(1000, within(1e-6));
        assertThat(t.update(5000, 5000, 2 * S, false, NONE).rate()).isCloseTo(4000, within(1e-6));
    }

    @Test
    void snapshotsCloserThanTenMillisKeepThePreviousRate() {
        ProgressTracker t = new ProgressTracker(-1, Duration.ofSeconds(30));
        t.start(0);
        t.update(1000, 1000, S, false, NONE);
        assertThat(t.update(9000, 9000, S + 5_000_000, false, NONE).rate()).isCloseTo(1000, within(1e-6));
    }

    @Test
    void averageRateCoversTheWindowOnly() {
        ProgressTracker t = new ProgressTracker(-1, Duration.ofSeconds(3));
        t.start(0);
        long count = 0;
        for (int s = 1; s <= 10; s++) {
            count += s <= 5 ? 100 : 1000; // slow first, then fast
            t.update(count, count, s * S, false, NONE);
        }
        Progress p = t.update(count + 1000, count + 1000, 11 * S, false, NONE);
        assertThat(p.averageRate()).isCloseTo(1000, within(1e-6));
    }

    /**
     * pv's own test ({@code Display_-_--average-rate}): 100 bytes, a 1 s pause, 110 bytes, a
     * 1 s pause, shown every 0.5 s: the average keeps pv's points (every second for a short
     * window, every 5 s for the default 30 s one), so a pause never reads as 0.
     */
    @Test
    void averageRateKeepsPvsPointsThroughPauses() {
        long half = S / 2;
        long[] counts = {100, 100, 210, 210};
        ProgressTracker shortWindow = new ProgressTracker(-1, Duration.ofSeconds(5));
        ProgressTracker longWindow = new ProgressTracker(-1, Duration.ofSeconds(30));
        shortWindow.start(0);
        longWindow.start(0);
        double[] shortAverages = new double[4], longAverages = new double[4];
        for (int i = 0; i < 4; i++) {
            shortAverages[i] = shortWindow.update(counts[i], counts[i], (i + 1) * half, false, NONE).averageRate();
            longAverages[i] = longWindow.update(counts[i], counts[i], (i + 1) * half, false, NONE).averageRate();
        }
        // a point at 0.5 s (its rate), the next at 1.5 s: 110 bytes over the second between
        assertThat(shortAverages).containsExactly(new double[] {200, 200, 110, 110}, within(1e-6));
        assertThat(longAverages).containsExactly(new double[] {200, 200, 200, 200}, within(1e-6));
        Progress later = longWindow.update(210, 210, 5 * S + half, false, NONE);
        assertThat(later.averageRate()).isCloseTo(110 / 5.0, within(1e-6)); // the 5 s point: 110 bytes since 0.5 s
    }

    @Test
    void etaFollowsTheAverageRate() {
        ProgressTracker t = new ProgressTracker(10_000, Duration.ofSeconds(30));
        t.start(0);
        t.update(1000, 1000, S, false, NONE);
        Progress p = t.update(2000, 2000, 2 * S, false, NONE);
        assertThat(p.averageRate()).isCloseTo(1000, within(1e-6));
        assertThat(p.etaNanos()).isEqualTo(8 * S);
        assertThat(p.percent()).isEqualTo(20);
    }

    @Test
    void unknownSizeHasNoEta() {
        ProgressTracker t = new ProgressTracker(-1, Duration.ofSeconds(30));
        t.start(0);
        assertThat(t.update(10, 10, S, false, NONE).etaNanos()).isEqualTo(-1);
        assertThat(t.update(10, 10, S, false, NONE).percent()).isEqualTo(-1);
    }

    @Test
    void finalSnapshotAveragesTheWholeCopy() {
        ProgressTracker t = new ProgressTracker(4000, Duration.ofSeconds(30));
        t.start(S);
        t.update(3000, 3000, 2 * S, false, NONE);
        Progress last = t.finish(4000, 4000, 5 * S, true, NONE);
        assertThat(last.finished()).isTrue();
        assertThat(last.rate()).isCloseTo(1000, within(1e-6));
        assertThat(last.averageRate()).isCloseTo(1000, within(1e-6));
        assertThat(last.elapsedNanos()).isEqualTo(4 * S);
        assertThat(last.etaNanos()).isZero();
        assertThat(last.spliced()).isTrue();
    }

    @Test
    void percentOfHugeCountsDoesNotOverflow() {
        Progress p = new Progress(0, Long.MAX_VALUE / 2, Long.MAX_VALUE, 0, 0, 0, 0, false, false, NONE);
        assertThat(p.percent()).isEqualTo(50);
    }
}
