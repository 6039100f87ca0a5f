// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.JobArgs;
import dev.brisk.exec.JobResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a finished job waiting for its turn ({@code -k}) as bytes, for {@link InputOrder}'s
 * spill file: its result, its output when that is in memory, and whether a halt cut it. A job
 * whose output sits in a file of its own is left as it is (null): it is big and rare, and already
 * out of the heap.
 */
final class HeldCodec implements InputOrder.Codec<JobRun.Held> {
    @Override
    public byte[] encode(JobRun.Held h) {
        HeldOutput[] o = h.output();
        if (o != null && (!o[0].inMemory() || !o[1].inMemory())) {
            return null;
        }
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream(256);
            DataOutputStream d = new DataOutputStream(buf);
            JobResult r = h.result();
            d.writeBoolean(h.cut());
            d.writeLong(r.args().sequence());
            d.writeInt(r.args().slot());
            d.writeInt(r.args().tuples().size());
            for (List<byte[]> t : r.args().tuples()) {
                d.writeInt(t.size());
                for (byte[] v : t) {
                    bytes(d, v);
                }
            }
            bytes(d, r.command());
            d.writeInt(r.exitCode());
            d.writeInt(r.signal());
            d.writeDouble(r.startSeconds());
            d.writeLong(r.runtimeNanos());
            d.writeInt(r.attempts());
            d.writeLong(r.stdoutBytes());
            bytes(d, r.stdout());
            bytes(d, r.stderr());
            d.writeUTF(r.host());
            d.writeBoolean(o != null);
            if (o != null) {
                bytes(d, o[0].toByteArray());
                bytes(d, o[1].toByteArray());
                o[0].close();
                o[1].close();
            }
            d.flush();
            return buf.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public JobRun.Held decode(byte[] bytes) {
        try {
            DataInputStream d = new DataInputStream(new ByteArrayInputStream(bytes));
            boolean cut = d.readBoolean();
            long seq = d.readLong();
            int slot = d.readInt();
            int n = d.readInt();
            List<List<byte[]>> tuples = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int m = d.readInt();
                List<byte[]> t = new ArrayList<>(m);
                for (int j = 0; j < m; j++) {
                    t.add(bytes(d));
                }
                tuples.add(t);
            }
            JobArgs args = new JobArgs(tuples, seq, slot);
            JobResult r = new JobResult(args, bytes(d), d.readInt(), d.readInt(), d.readDouble(), d.readLong(),
                    d.readInt(), d.readLong(), bytes(d), bytes(d), d.readUTF());
            HeldOutput[] o = d.readBoolean() ? new HeldOutput[] {HeldOutput.of(bytes(d)), HeldOutput.of(bytes(d))} : null;
            return new JobRun.Held(r, o, cut);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void bytes(DataOutputStream d, byte[] b) throws IOException {
        d.writeInt(b == null ? -1 : b.length);
        if (b != null) {
            d.write(b);
        }
    }

    private static byte[] bytes(DataInputStream d) throws IOException {
        int n = d.readInt();
        return n < 0 ? null : d.readNBytes(n);
    }
}
