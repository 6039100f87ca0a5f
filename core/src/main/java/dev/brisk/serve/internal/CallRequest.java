// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve.internal;

import dev.brisk.internal.posix.Caller;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One call of the native client, as docs/DAEMON.md lays it out: the bytes after the magic and
 * the length field, read into fields. The descriptors come beside it ({@code SCM_RIGHTS}).
 *
 * @param build the client's build id
 * @param limits {cur, max} per resource number ({@link Caller#RLIMITS} entries; null where not sent)
 */
public record CallRequest(String build, int pid, int pgrp, int terminals, int foreground, int umask, long ignored,
        long[][] limits, List<byte[]> args, List<byte[]> env) {
    /** The magic that opens every request. */
    public static final int MAGIC = 0x42524b31; // "BRK1"
    /** The longest request taken (arguments and environment together). */
    public static final int MAX_LENGTH = 64 << 20;

    /** Reads the fields of {@code b} (positioned after the length field); a malformed request throws. */
    public static CallRequest parse(ByteBuffer b) throws IOException {
        try {
            String build = new String(bytes(b), java.nio.charset.StandardCharsets.UTF_8);
            int pid = b.getInt();
            int pgrp = b.getInt();
            int terminals = b.getInt();
            int foreground = b.getInt();
            int umask = b.getInt() & 0777;
            long ignored = b.getLong();
            int nlimits = count(b, 20);
            long[][] limits = new long[Caller.RLIMITS][];
            for (int i = 0; i < nlimits; i++) {
                int resource = b.getInt();
                long cur = b.getLong();
                long max = b.getLong();
                if (resource >= 0 && resource < Caller.RLIMITS) {
                    limits[resource] = new long[] {cur, max};
                }
            }
            List<byte[]> args = list(b);
            List<byte[]> env = list(b);
            if (b.hasRemaining()) {
                throw new IOException("malformed request: " + b.remaining() + " bytes after its end");
            }
            return new CallRequest(build, pid, pgrp, terminals, foreground, umask, ignored, limits, args, env);
        } catch (java.nio.BufferUnderflowException e) {
            throw new IOException("malformed request: it ends early");
        }
    }

    private static int count(ByteBuffer b, int minBytesEach) throws IOException {
        int n = b.getInt();
        if (n < 0 || (long) n * minBytesEach > b.remaining()) {
            throw new IOException("malformed request: a count of " + n + " with " + b.remaining() + " bytes left");
        }
        return n;
    }

    private static byte[] bytes(ByteBuffer b) throws IOException {
        int len = b.getInt();
        if (len < 0 || len > b.remaining()) {
            throw new IOException("malformed request: a string of " + len + " bytes with " + b.remaining() + " left");
        }
        byte[] out = new byte[len];
        b.get(out);
        return out;
    }

    private static List<byte[]> list(ByteBuffer b) throws IOException {
        int n = count(b, 4);
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(bytes(b));
        }
        return out;
    }
}
