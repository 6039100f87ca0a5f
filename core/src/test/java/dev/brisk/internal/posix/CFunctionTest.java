// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** C functions bound with {@link Syscall}'s shape: an {@code int} result, signed, from the low half of the register. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CFunctionTest {
    @Test
    void aNegativeIntResultStaysNegative() {
        var strcmp = CFunction.bind("strcmp");
        try (Arena arena = Arena.ofConfined()) {
            long a = Libc.cString(arena, "a".getBytes(StandardCharsets.US_ASCII)).address();
            long b = Libc.cString(arena, "b".getBytes(StandardCharsets.US_ASCII)).address();
            assertThat(CFunction.call(strcmp, a, b, 0, 0, 0, 0)).isNegative();
            assertThat(CFunction.call(strcmp, b, a, 0, 0, 0, 0)).isPositive();
            assertThat(CFunction.call(strcmp, a, a, 0, 0, 0, 0)).isZero();
        }
    }

    @Test
    void anIntArgumentIsReadFromTheLowHalf() {
        var abs = CFunction.bind("abs");
        assertThat(CFunction.call(abs, -7, 0, 0, 0, 0, 0)).isEqualTo(7);
        // high bits set above an int's 32 are not the callee's: abs sees -7
        assertThat(CFunction.call(abs, 0x1234_5678_0000_0000L | (-7 & 0xffff_ffffL), 0, 0, 0, 0, 0)).isEqualTo(7);
    }

    @Test
    void aMissingFunctionIsAnUnsatisfiedLinkError() {
        assertThat(CFunction.exists("brisk_no_such_function")).isFalse();
        assertThatThrownBy(() -> CFunction.bind("brisk_no_such_function"))
                .isInstanceOf(UnsatisfiedLinkError.class).hasMessageContaining("brisk_no_such_function");
    }
}
