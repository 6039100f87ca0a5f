// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve.internal;

/**
 * The bounds that keep a server's memory and thread count finite whatever its clients send
 * (docs/PROTOCOL.md, "Limits"). Frame payloads are bounded by {@link Frame#MAX_PAYLOAD}.
 *
 * @param connections clients connected at once; one more gets an error frame and is closed
 * @param inFlight requests and sessions open at once on one connection
 * @param sessionsPerConnection sessions open at once on one connection
 * @param sessions sessions open at once in the whole server
 * @param heldBytes bytes of requests (payloads and streamed stdin) held for one connection's live requests
 * @param heldBytesTotal the same for the whole server
 */
public record Limits(int connections, int inFlight, int sessionsPerConnection, int sessions, long heldBytes,
                     long heldBytesTotal) {
    /** The documented defaults. */
    public static final Limits DEFAULT = new Limits(256, 32, 8, 64, 16L << 20, 128L << 20);

    public Limits {
        if (connections < 1 || inFlight < 1 || sessionsPerConnection < 0 || sessions < 0 || heldBytes < 0
                || heldBytesTotal < 0) {
            throw new IllegalArgumentException("limits must be positive: " + connections + ", " + inFlight + ", "
                    + sessionsPerConnection + ", " + sessions + ", " + heldBytes + ", " + heldBytesTotal);
        }
    }
}
