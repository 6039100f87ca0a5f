// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ByteSizeTest {
    @ParameterizedTest
    @CsvSource({"0,0", "4096,4096", "10k,10240", "10K,10240", "10m,10485760", "1G,1073741824",
            "1t,1099511627776", "010,10", "'  12',12", "'10 k',10240"})
    void acceptsWhatPvAccepts(String text, long bytes) {
        assertThat(ByteSize.parse(text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "10Q", "1.5K", "1.5", "-5", "+5", "0x10", "10kb", "10KiB", "1p", "1e3",
            "99999999999999999999", "9000000T"})
    void rejectsWhatPvRejects(String text) {
        assertThatThrownBy(() -> ByteSize.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "'");
    }
}
