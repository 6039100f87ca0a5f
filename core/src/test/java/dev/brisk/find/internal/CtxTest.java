// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A thread's output buffer hands the shared output whole records only: in a parallel walk another
 * thread's records may be written between two of its writes, so a record split across two writes
 * would come out cut in two, with foreign records in between.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CtxTest {
    /** Records every write it receives as one chunk. */
    private static final class Chunks extends OutputStream {
        final List<byte[]> chunks = new ArrayList<>();

        @Override
        public void write(int b) {
            chunks.add(new byte[] {(byte) b});
        }

        @Override
        public void write(byte[] b, int off, int len) {
            chunks.add(Arrays.copyOfRange(b, off, off + len));
        }
    }

    private static byte[] record(int len, byte fill) {
        byte[] r = new byte[len];
        Arrays.fill(r, fill);
        return r;
    }

    @Test
    void aFullBufferIsWrittenAtRecordBoundariesOnly() {
        Chunks out = new Chunks();
        Ctx c = new Ctx(new Output(out, new RunState()), new RunState());
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        // lengths chosen so that records end exactly at, just before and just after 64 KiB
        int[] lengths = {65535, 1, 100, 65436, 7, 65529, 300, 1000, 70000, 3};
        byte fill = 'a';
        for (int len : lengths) {
            byte[] r = record(len, fill++);
            c.write(r, 0, r.length);   // -print: the path, then the terminator
            c.write('\n');
            c.endRecord();
            expected.writeBytes(r);
            expected.write('\n');
        }
        c.flush();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] chunk : out.chunks) {
            assertThat(chunk).isNotEmpty();
            assertThat(chunk[chunk.length - 1]).as("every chunk ends a record").isEqualTo((byte) '\n');
            all.writeBytes(chunk);
        }
        assertThat(all.toByteArray()).isEqualTo(expected.toByteArray());
        assertThat(out.chunks.size()).isGreaterThan(2);
    }
}
