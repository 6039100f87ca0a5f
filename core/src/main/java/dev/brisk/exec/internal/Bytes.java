// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.util.Arrays;

/** Byte-array helpers the runner's parts share. Stateless. */
final class Bytes {
    private Bytes() {}

    /** {@code a} then {@code b}, in a new array. */
    static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
