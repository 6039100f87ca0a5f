// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Environment strings as Java text and back, byte for byte: valid UTF-8 is decoded as such, and
 * each byte that is not valid UTF-8 becomes a lone surrogate {@code U+DC80+byte} (Python's
 * "surrogateescape"), which {@link #encode} turns back into that byte. So a value with invalid
 * UTF-8 ({@code V=$'a\xffb'}) reaches the jobs unchanged whatever the locale, while the
 * variables brisk reads itself ({@code PATH}, {@code TMPDIR}) stay plain strings. Stateless.
 */
public final class EnvText {
    private EnvText() {}

    /** {@code bytes} as text, each invalid byte kept as {@code U+DC80+byte}. */
    public static String decode(byte[] bytes) {
        boolean ascii = true;
        for (byte b : bytes) {
            if (b < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        while (in.hasRemaining()) {
            var r = d.decode(in, out, true);
            if (r.isError()) {
                for (int i = 0; i < r.length(); i++) {
                    out.put((char) (0xDC00 | (in.get() & 0xFF)));
                }
            } else if (r.isUnderflow()) {
                break;
            }
        }
        out.flip();
        return out.toString();
    }

    /** {@code text} as bytes: UTF-8, each lone {@code U+DC80..U+DCFF} the byte it stands for. */
    public static byte[] encode(String text) {
        boolean plain = true;
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                plain = false;
                break;
            }
        }
        if (plain) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream o = new ByteArrayOutputStream(text.length() + 8);
        int from = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
            if (pair) {
                i++;
            } else if (c >= 0xDC80 && c <= 0xDCFF) {
                o.writeBytes(text.substring(from, i).getBytes(StandardCharsets.UTF_8));
                o.write(c & 0xFF);
                from = i + 1;
            }
        }
        o.writeBytes(text.substring(from).getBytes(StandardCharsets.UTF_8));
        return o.toByteArray();
    }

    /** {@code name=value} as the bytes of an environment entry. */
    public static byte[] entry(String name, String value) {
        return encode(name + "=" + value);
    }

    static {
        // a decoder error must stop at the bad bytes: make sure the JDK's is not lenient
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(new byte[] {(byte) 0xFF}));
            throw new AssertionError("UTF-8 decoder accepted 0xFF");
        } catch (CharacterCodingException expected) {
            // as it should
        }
    }
}
