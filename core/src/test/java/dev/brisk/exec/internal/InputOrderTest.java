// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InputOrderTest {
    @TempDir
    Path tmp;

    /** Strings, encoded as their bytes; counts what went through the file. */
    private static final class Strings implements InputOrder.Codec<String> {
        int encoded;

        @Override
        public byte[] encode(String v) {
            encoded++;
            return v.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    @Test
    void anyCompletionOrderComesOutInOrderWithAtMostTheLimitInMemory() {
        Random r = new Random(7);
        for (int trial = 0; trial < 30; trial++) {
            int n = 1 + r.nextInt(3000);
            int limit = 1 + r.nextInt(16);
            List<Long> order = new ArrayList<>();
            for (long i = 1; i <= n; i++) {
                order.add(i);
            }
            Collections.shuffle(order, r);
            List<String> out = new ArrayList<>();
            Strings codec = new Strings();
            try (InputOrder<String> o = new InputOrder<>(out::add, codec, limit, tmp)) {
                for (long seq : order) {
                    o.complete(seq, "job " + seq + " \u00e9\n");
                    assertThat(o.inMemory()).isLessThanOrEqualTo(limit);
                }
                assertThat(o.inMemory()).isZero();
                assertThat(o.spilled()).isZero();
            }
            assertThat(out).hasSize(n);
            for (int i = 0; i < n; i++) {
                assertThat(out.get(i)).isEqualTo("job " + (i + 1) + " \u00e9\n");
            }
            if (n > 2 * limit + 10 && order.getFirst() != 1) {
                assertThat(codec.encoded).as("trial %d went through the file", trial).isPositive();
            }
        }
    }

    @Test
    void aSlowFirstJobKeepsTheRestInTheFileAndDrainAllKeepsOrderAcrossGaps() {
        List<String> out = new ArrayList<>();
        try (InputOrder<String> o = new InputOrder<>(out::add, new Strings(), 4, tmp)) {
            for (long seq = 3; seq <= 20_000; seq++) {
                if (seq != 10) {
                    o.complete(seq, "v" + seq);
                }
            }
            assertThat(out).isEmpty();
            assertThat(o.inMemory()).isEqualTo(4);
            assertThat(o.spilled()).isEqualTo(20_000 - 2 - 1 - 4);
            o.skip(2);
            o.complete(1, "v1");
            assertThat(out).containsExactly("v1", "v3", "v4", "v5", "v6", "v7", "v8", "v9");
            o.drainAll(); // job 10 never ended (a halted run): the rest still comes out in order
            assertThat(out).hasSize(20_000 - 2);
            assertThat(out.get(8)).isEqualTo("v11");
            assertThat(out.getLast()).isEqualTo("v20000");
            assertThat(o.spilled()).isZero();
        }
    }
}
