// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.exec.Halt;
import dev.brisk.exec.JobArgs;
import dev.brisk.exec.JobResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** GNU parallel's --halt counting, job by job. */
@Timeout(10)
class HaltPolicyTest {
    private static JobResult ended(long seq, int exit) {
        byte[] cmd = ("exit " + exit).getBytes(StandardCharsets.UTF_8);
        return new JobResult(JobArgs.single(List.of(cmd), seq, 1), cmd, exit, exit < 0 ? 15 : 0, 0, 0, 1, 0, null, null,
                ":");
    }

    /**
     * After {@code --halt now}, a job that had ended by itself is named as GNU parallel names the
     * jobs it reaps before it kills the others, and leaves the halting job's status; one the
     * halt killed (exit -1) is not named.
     */
    @Test
    void afterHaltNowAJobThatEndedByItselfIsNamedAndAKilledOneIsNot() {
        HaltPolicy p = new HaltPolicy(Halt.parse("now,fail=1"));
        assertThat(p.count(ended(1, 0))).isEqualTo(HaltPolicy.Verdict.NONE);
        assertThat(p.count(ended(2, 1))).isEqualTo(HaltPolicy.Verdict.HALTS);
        assertThat(p.count(ended(3, 2))).isEqualTo(HaltPolicy.Verdict.NOTED);
        assertThat(p.count(ended(4, -1))).isEqualTo(HaltPolicy.Verdict.NONE);
        assertThat(p.count(ended(5, 0))).isEqualTo(HaltPolicy.Verdict.NONE);
        assertThat(p.status()).isEqualTo(1);
        assertThat(new String(p.message(ended(3, 2), false, 1), StandardCharsets.UTF_8))
                .isEqualTo("brisk: This job failed:\nexit 2\n");
    }
}
