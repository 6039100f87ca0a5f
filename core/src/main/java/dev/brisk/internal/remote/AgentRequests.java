// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import dev.brisk.internal.shell.ShellQuote;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The requests brisk writes to an agent, as the bytes of its protocol: shell calls quoted by
 * {@link ShellQuote} for the {@code sh} agent ({@link AgentScript}, version 1), a line of
 * numbers and the byte strings it announces for the Perl one ({@link PerlAgent}, version 2).
 */
final class AgentRequests {
    private final boolean framed;

    private AgentRequests(boolean framed) {
        this.framed = framed;
    }

    /** The requests for the agent that said hello with {@code version}. */
    static AgentRequests forVersion(int version) {
        return new AgentRequests(version == PerlAgent.VERSION);
    }

    /** Run {@code script} for {@code slot} as job {@code seq}, started as {@code launch} says. */
    byte[] job(long seq, int slot, RemoteShell.Launch launch, byte[] script) {
        int group = launch == RemoteShell.Launch.GROUP ? 1 : 0;
        return framed
                ? withBlobs("j " + seq + " " + slot + " " + switch (launch) {
                    case SUBSHELL -> 0;
                    case GROUP -> 1;
                    case SHELL -> 2;
                    case BUILTIN -> 3;
                }, script)
                : line(call("__bj " + seq + " " + slot + " " + group, script));
    }

    /** Signal the job of {@code slot} ({@code signal}: a name such as TERM). */
    byte[] signal(int slot, String signal) {
        return ((framed ? "k " : "__bk ") + slot + " " + signal + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Write {@code content} to {@code path}, creating {@code dir}. */
    byte[] put(byte[] dir, byte[] path, byte[] content) {
        byte[] d = dir.length == 0 ? new byte[] {'.'} : dir;
        if (framed) {
            return withBlobs("f", d, path, content);
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream(content.length * 4 / 3 + 256);
        b.writeBytes(call("__bf", d, path));
        b.writeBytes(" <<'__BRISK_EOF'\n".getBytes(StandardCharsets.US_ASCII));
        b.writeBytes(Base64.getMimeEncoder(76, new byte[] {'\n'}).encode(content));
        b.writeBytes("\n__BRISK_EOF\n".getBytes(StandardCharsets.US_ASCII));
        return b.toByteArray();
    }

    /** Send back the files at {@code paths} ({@code R} frames), then {@code d SEQ}. */
    byte[] get(long seq, List<byte[]> paths) {
        if (framed) {
            return withBlobs("g " + seq, paths.toArray(byte[][]::new));
        }
        byte[] code = call("__bs", paths.toArray(byte[][]::new));
        return line(call("__br " + seq, code));
    }

    /** Remove the files at {@code paths}. */
    byte[] remove(List<byte[]> paths) {
        return framed ? withBlobs("c", paths.toArray(byte[][]::new)) : line(call("__bc", paths.toArray(byte[][]::new)));
    }

    /** Answer {@code p N}. */
    byte[] ping(long n) {
        return ((framed ? "p " : "__bp ") + n + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code head}, then each argument quoted, space-separated (no newline). */
    private static byte[] call(String head, byte[]... args) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        b.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        for (byte[] a : args) {
            b.write(' ');
            b.writeBytes(ShellQuote.quote(a));
        }
        return b.toByteArray();
    }

    private static byte[] line(byte[] b) {
        byte[] r = java.util.Arrays.copyOf(b, b.length + 1);
        r[b.length] = '\n';
        return r;
    }

    /** {@code head}, each blob's length, a newline, then the blobs. */
    private static byte[] withBlobs(String head, byte[]... blobs) {
        StringBuilder h = new StringBuilder(head);
        int total = 0;
        for (byte[] blob : blobs) {
            h.append(' ').append(blob.length);
            total += blob.length;
        }
        h.append('\n');
        ByteArrayOutputStream b = new ByteArrayOutputStream(h.length() + total);
        b.writeBytes(h.toString().getBytes(StandardCharsets.US_ASCII));
        for (byte[] blob : blobs) {
            b.writeBytes(blob);
        }
        return b.toByteArray();
    }
}
