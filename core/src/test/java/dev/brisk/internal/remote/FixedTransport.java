// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import java.util.List;

/** A transport the tests spell out: a host's name and the command that opens its shell. */
record FixedTransport(String host, List<String> command) implements Transport {
    FixedTransport(String host, String... command) {
        this(host, List.of(command));
    }
}
