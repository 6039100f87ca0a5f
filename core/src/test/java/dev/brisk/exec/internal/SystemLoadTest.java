// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code --load}'s measure: the threads running now, not an average over minutes. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SystemLoadTest {
    @Test
    void countsTheThreadsRunningNow() throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            spinners.add(Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            }));
        }
        try {
            Thread.sleep(50);
            // three threads that never sleep are running or ready to run whenever it is read
            assertThat(SystemLoad.loadNow()).isGreaterThanOrEqualTo(3);
        } finally {
            stop.set(true);
            for (Thread t : spinners) {
                t.join();
            }
        }
    }
}
