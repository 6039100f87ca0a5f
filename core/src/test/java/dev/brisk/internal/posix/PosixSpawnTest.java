// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link SpawnTest}'s every test with glibc's posix_spawn, the reference brisk's own start follows. */
class PosixSpawnTest extends SpawnTest {
    @Override
    Spawn spawn() {
        return new Spawn().posixSpawn();
    }

    @Override
    @Test
    void x86StartsWithBrisksOwnCode() {
        try (Spawn s = spawn()) {
            assertThat(s.startsNatively()).isFalse(); // posixSpawn() always takes glibc's path
        }
    }
}
