// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

/** Every test of {@link RemoteShellTest} against the sh agent, which hosts without perl get. */
class ShAgentTest extends RemoteShellTest {
    @Override
    boolean perl() {
        return false;
    }
}
