// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.shell.internal.KillSchedule.Step;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The kill schedule on a clock passed in: no sleeping. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class KillScheduleTest {
    private static final long S = TimeUnit.SECONDS.toNanos(1);

    @Test
    void termAtTheTimeoutKillAfterTheGraceThenGiveUp() {
        KillSchedule k = new KillSchedule(10 * S, 3 * S);
        assertThat(k.nextDeadline()).isEqualTo(10 * S);
        assertThat(k.due(9 * S)).isEqualTo(Step.NONE);
        assertThat(k.started()).isFalse();
        assertThat(k.awaitingKill()).isFalse();
        assertThat(k.due(10 * S)).isEqualTo(Step.TERM);
        assertThat(k.nextDeadline()).isEqualTo(13 * S);
        assertThat(k.due(12 * S)).isEqualTo(Step.NONE);
        // a command that ends now still has its group killed at 13 s
        assertThat(k.awaitingKill()).isTrue();
        assertThat(k.due(13 * S)).isEqualTo(Step.KILL);
        assertThat(k.awaitingKill()).isFalse();
        // the shell gets the grace period, and at least two seconds, to report the end
        assertThat(k.nextDeadline()).isEqualTo(16 * S);
        assertThat(k.due(15 * S)).isEqualTo(Step.NONE);
        assertThat(k.due(16 * S)).isEqualTo(Step.GIVE_UP);
        assertThat(k.due(17 * S)).isEqualTo(Step.GIVE_UP);
    }

    @Test
    void anAbortKillsAtOnceAndGivesUpAfterAtLeastTwoSeconds() {
        KillSchedule k = new KillSchedule(Long.MAX_VALUE, S / 10);
        assertThat(k.due(Long.MAX_VALUE - 1)).isEqualTo(Step.NONE);
        k.killNow(5 * S);
        assertThat(k.started()).isTrue();
        assertThat(k.nextDeadline()).isEqualTo(7 * S);
        assertThat(k.due(6 * S)).isEqualTo(Step.NONE);
        assertThat(k.due(7 * S)).isEqualTo(Step.GIVE_UP);
    }
}
