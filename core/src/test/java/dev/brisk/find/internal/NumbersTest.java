// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class NumbersTest {
    /** Plain digits take a path of their own (no regular expression): it must read them as strtod does. */
    @Test
    void plainDigitsReadAsTheGrammarReadsThem() {
        Random random = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            int len = 1 + random.nextInt(19);
            StringBuilder b = new StringBuilder();
            for (int j = 0; j < len; j++) {
                b.append((char) ('0' + random.nextInt(10)));
            }
            String s = b.toString();
            assertThat(Numbers.decimal(s)).as(s).isEqualTo(Double.parseDouble(s));
            assertThat(Numbers.decimal(" \t" + s)).as(s).isEqualTo(Double.parseDouble(s));
        }
        assertThat(Numbers.decimal("999999999999999999")).isEqualTo(1e18);
        assertThat(Numbers.decimal("9007199254740993")).isEqualTo(9007199254740992.0); // rounded as strtod rounds
    }

    @Test
    void theRestOfStrtodsGrammar() {
        assertThat(Numbers.decimal("1.5")).isEqualTo(1.5);
        assertThat(Numbers.decimal("-0")).isEqualTo(-0.0);
        assertThat(Numbers.decimal("+7")).isEqualTo(7.0);
        assertThat(Numbers.decimal("0x10")).isEqualTo(16.0);
        assertThat(Numbers.decimal("1e3")).isEqualTo(1000.0);
        assertThat(Numbers.decimal("inf")).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(Numbers.decimal("1e999")).isNull();
        assertThat(Numbers.decimal("nan")).isNull();
        assertThat(Numbers.decimal("")).isNull();
        assertThat(Numbers.decimal("1x")).isNull();
        assertThat(Numbers.decimal("1 ")).isNull();
    }
}
