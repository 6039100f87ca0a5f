// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve.internal;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of a request frame's payload, decoded and checked: each field is a tag byte, a
 * 4-byte big-endian length and that many bytes (docs/PROTOCOL.md, "Request").
 *
 * <p>Immutable once parsed. {@link #parse} throws {@link IllegalArgumentException} with a
 * one-line message for anything malformed; the caller turns it into an error frame.
 */
public record RequestFields(byte[] script, List<byte[]> argv, String cwd, List<String[]> env,
                            byte[] stdin, boolean streamedStdin, long timeoutMillis, long maxOutput,
                            int session) {
    /** Parses a request payload. */
    public static RequestFields parse(byte[] payload) {
        ByteBuffer b = ByteBuffer.wrap(payload);
        byte[] script = null;
        List<byte[]> argv = new ArrayList<>();
        String cwd = null;
        List<String[]> env = new ArrayList<>();
        byte[] stdin = null;
        boolean streamed = false;
        long timeout = 0;
        long cap = -1;
        int session = 0;
        while (b.hasRemaining()) {
            if (b.remaining() < 5) {
                throw new IllegalArgumentException("truncated field header at offset " + b.position());
            }
            byte tag = b.get();
            int len = b.getInt();
            if (len < 0 || len > b.remaining()) {
                throw new IllegalArgumentException("field " + Frame.describe(tag) + " claims " + Integer.toUnsignedLong(len)
                        + " bytes, " + b.remaining() + " left");
            }
            byte[] v = new byte[len];
            b.get(v);
            switch (tag) {
                case 'c' -> script = v;
                case 'a' -> argv.add(v);
                case 'd' -> cwd = text(v, "cwd");
                case 'e' -> {
                    String kv = text(v, "env");
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("env field is not NAME=VALUE: '" + kv + "'");
                    }
                    env.add(new String[] {kv.substring(0, eq), kv.substring(eq + 1)});
                }
                case 'i' -> stdin = v;
                case 's' -> streamed = true;
                case 't' -> timeout = number(v, "timeout");
                case 'm' -> cap = number(v, "output cap");
                case 'S' -> {
                    long s = number(v, "session");
                    if (s == 0 || s > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException("session id out of range: " + s);
                    }
                    session = (int) s;
                }
                default -> throw new IllegalArgumentException("unknown request field " + Frame.describe(tag));
            }
        }
        if ((script == null) == argv.isEmpty()) {
            throw new IllegalArgumentException("a request needs exactly one of a command text ('c') or argv words ('a')");
        }
        if (stdin != null && streamed) {
            throw new IllegalArgumentException("a request cannot have both inline ('i') and streamed ('s') stdin");
        }
        return new RequestFields(script, argv, cwd, env, stdin, streamed, timeout, cap, session);
    }

    private static String text(byte[] v, String what) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(v)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(what + " field is not valid UTF-8");
        }
    }

    /** A non-negative ASCII decimal number of at most 18 digits. */
    public static long number(byte[] v, String what) {
        if (v.length == 0 || v.length > 18) {
            throw new IllegalArgumentException(what + " is not a decimal number of 1 to 18 digits");
        }
        long n = 0;
        for (byte c : v) {
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException(what + " is not a decimal number");
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}
