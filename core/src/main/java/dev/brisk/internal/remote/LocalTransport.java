// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import dev.brisk.internal.shell.ShellSpec;
import java.util.List;

/**
 * The agent on this machine, in a session of its own ({@code setsid /bin/sh -s}): the channel
 * without a network, for tests and for hosts given as a plain command.
 *
 * @param name the name shown for the host
 */
public record LocalTransport(String name) implements Transport {

    @Override
    public String host() {
        return name;
    }

    @Override
    public List<String> command() {
        return List.of(ShellSpec.setsid(), "/bin/sh", "-s");
    }
}
