// SPDX-License-Identifier: Apache-2.0
/**
 * brisk serve's engine: {@code Frame} (the wire format), {@code RequestFields} (a request's
 * payload), {@code Connection} (one client: its frames, requests, sessions), {@code Request}
 * (one request's stdin, thread and cancellation), {@code Limits}, {@code SocketDirectory}
 * (chg's rule for the socket's directory).
 */
package dev.brisk.serve.internal;
