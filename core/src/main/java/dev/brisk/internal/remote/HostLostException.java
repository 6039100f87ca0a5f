// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import java.io.IOException;

/** A host's channel could not be opened or ended: its jobs in flight are lost and run elsewhere. */
public final class HostLostException extends IOException {
    private final String host;

    public HostLostException(String host, String reason) {
        super(host + ": " + reason);
        this.host = host;
    }

    /** The host's name. */
    public String host() {
        return host;
    }
}
