// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SyscallsTest {
    /** The walker reads errno at a constant offset instead of resolving the layout at start-up. */
    @Test
    void errnoOffsetIsTheCaptureLayouts() {
        assertThat(Syscalls.ERRNO_OFFSET).isEqualTo(Linker.Option.captureStateLayout()
                .byteOffset(MemoryLayout.PathElement.groupElement("errno")));
    }
}
