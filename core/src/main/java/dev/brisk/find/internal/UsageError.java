// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A bad find command line; the message is what find prints after {@code find: }. GNU find
 * prints a command-line argument in some messages byte for byte ({@code paths must precede
 * expression: `ARG'}), so the message is kept as bytes: text as UTF-8 (plain ASCII outside a
 * UTF-8 locale, see {@link Quote}) and arguments as given.
 */
public final class UsageError extends Exception {
    private static final long serialVersionUID = 1L;
    private final byte[] bytes;

    public UsageError(String message) {
        this(message, message.getBytes(StandardCharsets.UTF_8));
    }

    private UsageError(String display, byte[] bytes) {
        super(display);
        this.bytes = bytes;
    }

    /** A message of {@code parts}, each a String (text) or a byte[] (an argument, printed as it is). */
    static UsageError of(Object... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        StringBuilder display = new StringBuilder();
        for (Object p : parts) {
            byte[] raw = p instanceof byte[] r ? r : ((String) p).getBytes(StandardCharsets.UTF_8);
            b.writeBytes(raw);
            display.append(p instanceof byte[] r ? new String(r, StandardCharsets.UTF_8) : (String) p);
        }
        return new UsageError(display.toString(), b.toByteArray());
    }

    /** The message as find prints it (without {@code find: } and the newline). */
    public byte[] bytes() {
        return bytes.clone();
    }
}
