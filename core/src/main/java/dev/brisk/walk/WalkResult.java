// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

/** How a walk ended: the number of errors reported, and whether it was stopped early. */
public record WalkResult(long errors, boolean stopped) {
    /** True when the walk reached every entry without an error. */
    public boolean ok() {
        return errors == 0 && !stopped;
    }
}
