// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RunningMedianTest {
    @Test
    void emptyIsZeroAndSmallValuesAreExact() {
        RunningMedian m = new RunningMedian();
        assertThat(m.median()).isZero();
        for (long v : new long[] {5, 1, 9, 3, 7}) {
            m.add(v);
        }
        assertThat(m.count()).isEqualTo(5);
        assertThat(m.median()).isEqualTo(5);
    }

    @Test
    void everyBucketHoldsItsOwnMiddleAndBucketsAreOrdered() {
        int last = -1;
        for (long v = 0; v < 1L << 40; v = v < 200 ? v + 1 : v + v / 7) {
            int b = RunningMedian.bucket(v);
            assertThat(b).isGreaterThanOrEqualTo(last);
            assertThat(RunningMedian.bucket(RunningMedian.middle(b))).isEqualTo(b);
            last = b;
        }
        assertThat(RunningMedian.bucket(Long.MAX_VALUE)).isLessThan((64 - 6) * 64);
    }

    @Test
    void withinOneSixtyFourthOfTheExactMedianOnSkewedRuntimes() {
        Random r = new Random(42);
        for (int trial = 0; trial < 20; trial++) {
            RunningMedian fresh = new RunningMedian();
            RunningMedian polled = new RunningMedian();
            int n = 1 + r.nextInt(20_000);
            long[] xs = new long[n];
            for (int i = 0; i < n; i++) {
                // job runtimes in nanoseconds: log-normal around 1 ms, one in a hundred 5 s slower
                xs[i] = (long) Math.exp(13.8 + 1.5 * r.nextGaussian()) + (r.nextInt(100) == 0 ? 5_000_000_000L : 0);
                fresh.add(xs[i]);
                polled.add(xs[i]);
                polled.median(); // asked after every job, as the runner does
            }
            long[] sorted = xs.clone();
            Arrays.sort(sorted);
            long exact = sorted[(n - 1) / 2];
            // computed once at the end: the middle of the bucket that holds the lower median
            assertThat((double) Math.abs(fresh.median() - exact)).isLessThanOrEqualTo(exact / 64.0 + 1);
            // asked all along: the cache may lag by under 1/64 of the jobs, so the value returned
            // lies between the (1/2 - 1/64) and (1/2 + 1/64) quantiles, give or take a bucket
            long lo = sorted[(int) Math.max(0, Math.floor(n * (0.5 - 1 / 64.0)) - 1)];
            long hi = sorted[(int) Math.min(n - 1, Math.ceil(n * (0.5 + 1 / 64.0)))];
            assertThat(polled.median()).isBetween(lo - lo / 64 - 1, hi + hi / 64 + 1);
        }
    }
}
