// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class StatusLinesTest {
    @Test
    void linesSplitAcrossReadsAreParsedWhole() {
        List<String> seen = new ArrayList<>();
        StatusLines.Listener l = recorder(seen);
        StatusLines s = new StatusLines();
        byte[] all = "p 1234\nx 0\nu\np 99\nx 143\nnoise\n".getBytes(StandardCharsets.US_ASCII);
        // fed one byte at a time, then in uneven pieces: the same events
        for (byte b : all) {
            s.feed(new byte[] {b}, 1, l);
        }
        List<String> byByte = List.copyOf(seen);
        seen.clear();
        s.feed(all, 5, l);
        byte[] rest = new byte[all.length - 5];
        System.arraycopy(all, 5, rest, 0, rest.length);
        s.feed(rest, rest.length, l);
        assertThat(byByte).containsExactly("p1234", "x0", "u", "p99", "x143");
        assertThat(seen).isEqualTo(byByte);
    }

    /** A listener that records each event as {@code p1234}, {@code u} or {@code x0}. */
    static StatusLines.Listener recorder(List<String> seen) {
        return new StatusLines.Listener() {
            @Override
            public void processGroup(int pgid) {
                seen.add("p" + pgid);
            }

            @Override
            public void notStarted() {
                seen.add("u");
            }

            @Override
            public void exited(int status) {
                seen.add("x" + status);
            }
        };
    }
}
