// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve.internal;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * One frame of brisk serve's wire protocol (docs/PROTOCOL.md): a 9-byte header (type byte,
 * 4-byte big-endian request id, 4-byte big-endian payload length) and the payload.
 *
 * <p>Immutable. The payload array is shared, not copied: frames live only between the socket
 * and the code that handles them.
 */
public record Frame(byte type, int id, byte[] payload) {
    /** Header bytes before every payload. */
    public static final int HEADER = 9;
    /** The largest payload either side may send; a longer one ends the connection. */
    public static final int MAX_PAYLOAD = 1 << 20;
    /** The protocol version the hello announces. */
    public static final String HELLO = "brisk-serve 1";

    // client to server
    public static final byte REQUEST = 'R';
    public static final byte STDIN = 'I';
    public static final byte CANCEL = 'C';
    public static final byte OPEN_SESSION = 'O';
    public static final byte CLOSE_SESSION = 'X';
    // server to client
    public static final byte HELLO_TYPE = 'H';
    public static final byte STDOUT = 'o';
    public static final byte STDERR = 'e';
    public static final byte EXIT = 'x';
    public static final byte OK = 'K';
    public static final byte ERROR = 'E';

    /** Thrown when a frame header announces more than {@link #MAX_PAYLOAD} bytes. */
    public static final class TooLargeException extends IOException {
        public TooLargeException(long length) {
            super("frame payload of " + length + " bytes is over the limit of " + MAX_PAYLOAD);
        }
    }

    /**
     * Reads one frame, blocking. Returns null at a clean end of stream (before a header).
     *
     * @throws EOFException if the stream ends inside a frame
     * @throws TooLargeException if the length is over the limit (nothing past the header is read)
     */
    public static Frame read(ReadableByteChannel in, ByteBuffer header) throws IOException {
        header.clear();
        if (!fill(in, header, true)) {
            return null;
        }
        header.flip();
        byte type = header.get();
        int id = header.getInt();
        long length = Integer.toUnsignedLong(header.getInt());
        if (length > MAX_PAYLOAD) {
            throw new TooLargeException(length);
        }
        byte[] payload = new byte[(int) length];
        fill(in, ByteBuffer.wrap(payload), false);
        return new Frame(type, id, payload);
    }

    private static boolean fill(ReadableByteChannel in, ByteBuffer b, boolean atStart) throws IOException {
        boolean first = true;
        while (b.hasRemaining()) {
            if (in.read(b) < 0) {
                if (first && atStart) {
                    return false;
                }
                throw new EOFException("the stream ended inside a frame");
            }
            first = false;
        }
        return true;
    }

    /** Writes one frame with {@code len} payload bytes from {@code data} at {@code off}. */
    public static void write(WritableByteChannel out, byte type, int id, byte[] data, int off, int len)
            throws IOException {
        ByteBuffer b = ByteBuffer.allocate(HEADER + len);
        b.put(type).putInt(id).putInt(len).put(data, off, len).flip();
        while (b.hasRemaining()) {
            out.write(b);
        }
    }

    /** Writes an error frame with a UTF-8 message. */
    public static void writeError(WritableByteChannel out, int id, String message) throws IOException {
        byte[] m = message.getBytes(StandardCharsets.UTF_8);
        write(out, ERROR, id, m, 0, m.length);
    }

    /** The type byte as a printable name for messages. */
    public static String describe(byte type) {
        return type >= 0x21 && type < 0x7f ? "'" + (char) type + "'" : String.format("0x%02x", type & 0xff);
    }
}
