// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RateLimiterTest {
    private final FakeTicker ticker = new FakeTicker();

    @Test
    void startsEmptyAndGrantsATenthOfASecondAtATime() {
        RateLimiter limiter = new RateLimiter(1000, ticker);
        assertThat(limiter.tryAcquire(1 << 20)).isZero();
        assertThat(limiter.nanosToWait(1 << 20)).isEqualTo(100_000_000L);
        ticker.advanceMillis(100);
        assertThat(limiter.tryAcquire(1 << 20)).isEqualTo(100);
        assertThat(limiter.tryAcquire(1 << 20)).isZero();
    }

    @Test
    void aNewRateTakesOverAndUnlimitedGrantsEverything() {
        RateLimiter limiter = new RateLimiter(1000, ticker);
        ticker.advanceMillis(100);
        limiter.setBytesPerSecond(10_000);
        assertThat(limiter.bytesPerSecond()).isEqualTo(10_000);
        assertThat(limiter.tryAcquire(1 << 20)).isZero(); // 100 saved, less than the new quantum
        ticker.advanceMillis(100);
        assertThat(limiter.tryAcquire(1 << 20)).isEqualTo(1000); // a tenth of a second at the new rate
        RateLimiter free = RateLimiter.unlimited();
        assertThat(free.bytesPerSecond()).isZero();
        assertThat(free.tryAcquire(1 << 30)).isEqualTo(1 << 30);
        assertThat(free.nanosToWait(1 << 30)).isZero();
        assertThatThrownBy(() -> free.setBytesPerSecond(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void idleTimeDoesNotBuildABurst() {
        RateLimiter limiter = new RateLimiter(1000, ticker);
        ticker.advanceMillis(10_000);
        assertThat(limiter.tryAcquire(1 << 20)).isEqualTo(100);
    }

    @Test
    void smallRequestsAreGrantedWithoutWaitingForAWholeQuantum() {
        RateLimiter limiter = new RateLimiter(1000, ticker);
        ticker.advanceMillis(10);
        assertThat(limiter.tryAcquire(10)).isEqualTo(10);
    }

    @Test
    void sustainedRateIsExact() {
        long rate = 3 << 20;
        RateLimiter limiter = new RateLimiter(rate, ticker);
        long start = ticker.nanoTime();
        long moved = 0;
        while (moved < 30L << 20) {
            long got = limiter.tryAcquire(1 << 20);
            if (got == 0) {
                ticker.advanceNanos(limiter.nanosToWait(1 << 20));
            }
            moved += got;
        }
        double seconds = (ticker.nanoTime() - start) / 1e9;
        assertThat(moved / seconds).isCloseTo(rate, org.assertj.core.data.Percentage.withPercentage(1));
    }

    @Test
    void twoCopiesShareOneRate() {
        RateLimiter shared = new RateLimiter(10_000, ticker);
        long a = 0, b = 0;
        for (int step = 0; step < 1000; step++) { // ten simulated seconds
            ticker.advanceMillis(10);
            if (step / 10 % 2 == 0) { // the two copies race; either may ask first
                a += shared.tryAcquire(1 << 20);
                b += shared.tryAcquire(1 << 20);
            } else {
                b += shared.tryAcquire(1 << 20);
                a += shared.tryAcquire(1 << 20);
            }
        }
        assertThat(a + b).isBetween(99_000L, 100_000L);
        assertThat(a).isPositive();
        assertThat(b).isPositive();
    }

    @Test
    void refundReturnsUnusedTokens() {
        RateLimiter limiter = new RateLimiter(1000, ticker);
        ticker.advanceMillis(100);
        long got = limiter.tryAcquire(100);
        limiter.refund(got - 30);
        assertThat(limiter.tryAcquire(70)).isEqualTo(70);
    }

    @Test
    void rejectsANonPositiveRate() {
        assertThatThrownBy(() -> new RateLimiter(0, ticker)).hasMessageContaining("got 0");
    }
}
