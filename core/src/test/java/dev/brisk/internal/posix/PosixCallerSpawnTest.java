// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

/**
 * {@link CallerSpawnTest}'s every test with glibc's posix_spawn (aarch64's start,
 * {@code -Dbrisk.spawn=posix}): the client's descriptors and environment, and none of its limits
 * and of the signals it ignores but we do not.
 */
class PosixCallerSpawnTest extends CallerSpawnTest {
    @Override
    Spawn spawn() {
        return new Spawn().posixSpawn();
    }
}
