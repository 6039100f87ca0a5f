// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.serve.CallServer;
import java.util.List;

/** What the warm server runs for its clients: brisk's own command line ({@link Main#call}). */
final class DaemonHandler implements CallServer.Handler {
    @Override
    public String directReason(List<byte[]> args) {
        return Main.directReason(args);
    }

    @Override
    public int call(List<byte[]> args) {
        return Main.call(args);
    }

    /** Loads and compiles the common paths before the first client's call. */
    static void warm() {
        // filled in once find, pv and par run as calls
    }
}
