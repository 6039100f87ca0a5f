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
 * @param passed the client's numbers of the descriptors passed after the first four, which its
 *     arguments name as {@code /dev/fd/N} or {@code /proc/self/fd/N}
 */
public record CallRequest(String build, int pid, int pgrp, int terminals, int foreground, int umask, long ignored,
        long[][] limits, List<byte[]> args, List<byte[]> env, int[] passed) {
    /** The magic that opens every request. */
    public static final int MAGIC = 0x42524b31; // "BRK1"
    /** The longest request taken (arguments and environment together). */
    public static final int MAX_LENGTH = 64 << 20;
    /** The most descriptors a request passes beyond the working directory and stdio. */
    public static final int MAX_PASSED = 16;

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
            int npassed = count(b, 4);
            if (npassed > MAX_PASSED) {
                throw new IOException("malformed request: " + npassed + " descriptors passed, at most " + MAX_PASSED);
            }
            int[] passed = new int[npassed];
            for (int i = 0; i < npassed; i++) {
                passed[i] = b.getInt();
            }
            if (b.hasRemaining()) {
                throw new IOException("malformed request: " + b.remaining() + " bytes after its end");
            }
            return new CallRequest(build, pid, pgrp, terminals, foreground, umask, ignored, limits, args, env, passed);
        } catch (java.nio.BufferUnderflowException e) {
            throw new IOException("malformed request: it ends early");
        }
    }

    /**
     * The arguments as the server must read them: each {@code /dev/fd/N} and
     * {@code /proc/self/fd/N} that names a descriptor the client passed (its number in
     * {@code passed}, ours at the same index of {@code ours}) names ours, {@code /proc/self/fd/M};
     * and an argument that is exactly {@code /dev/stdin}, {@code /dev/stdout},
     * {@code /dev/stderr} or {@code /dev/fd/0..2} (brisk opening the caller's own stdio as a
     * file: {@code pv /dev/stdin}, {@code -fprint /dev/stderr}) names the caller's descriptor in
     * {@code stdio}. Names inside longer words (a job's command text) stay as they are but for
     * the passed ones: a job's own 0..2 are the caller's.
     */
    public static List<byte[]> translate(List<byte[]> args, int[] passed, int[] ours, int[] stdio) {
        List<byte[]> out = new ArrayList<>(args.size());
        for (byte[] a : args) {
            String s = new String(a, java.nio.charset.StandardCharsets.ISO_8859_1);
            int std = switch (s) {
                case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0" -> 0;
                case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1" -> 1;
                case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2" -> 2;
                default -> -1;
            };
            if (std >= 0) {
                out.add(("/proc/self/fd/" + stdio[std]).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
                continue;
            }
            if (passed.length > 0 && s.contains("/fd/")) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(/dev/fd/|/proc/self/fd/)([0-9]+)(?![0-9])").matcher(s);
                StringBuilder b = new StringBuilder();
                while (m.find()) {
                    String to = m.group();
                    for (int i = 0; i < passed.length; i++) {
                        if (m.group(2).equals(Integer.toString(passed[i]))) {
                            to = "/proc/self/fd/" + ours[i];
                        }
                    }
                    m.appendReplacement(b, java.util.regex.Matcher.quoteReplacement(to));
                }
                m.appendTail(b);
                s = b.toString();
            }
            out.add(s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        return out;
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
