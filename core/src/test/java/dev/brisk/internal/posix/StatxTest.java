// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The one statx decoder against what the JDK's stat-based attributes say. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StatxTest {
    @Test
    void decodesAsStatDoes() throws Exception {
        for (String name : new String[] {"/dev/null", "/proc/self/status", "/tmp", "/bin/sh"}) {
            Path p = Path.of(name);
            try (Arena a = Arena.ofConfined()) {
                MemorySegment buf = a.allocate(Statx.SIZE, 8);
                assertThat(Statx.call(Errno.state(), Flags.AT_FDCWD, Libc.cString(a, name.getBytes(UTF_8)),
                        Flags.AT_SYMLINK_NOFOLLOW, buf)).isZero();
                int[] w = Statx.words(buf);
                assertThat(Statx.mode(w)).as(name).isEqualTo(Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS));
                assertThat(Statx.ino(w)).as(name).isEqualTo(Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS));
                assertThat(Statx.dev(w)).as(name).isEqualTo(Files.getAttribute(p, "unix:dev", LinkOption.NOFOLLOW_LINKS));
                assertThat(Statx.rdev(w)).as(name).isEqualTo(Files.getAttribute(p, "unix:rdev", LinkOption.NOFOLLOW_LINKS));
                assertThat(Statx.uid(w)).as(name).isEqualTo(Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS));
                assertThat(Statx.links(w)).as(name)
                        .isEqualTo(((Integer) Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).longValue());
            }
        }
    }

    @Test
    void makedevIsGlibcs() {
        assertThat(Statx.makedev(1, 3)).isEqualTo(0x103); // /dev/null
        assertThat(Statx.makedev(259, 0x12345)).isEqualTo(((259L & 0xfff) << 8) | (0x45) | ((0x12345L & ~0xffL) << 12));
    }
}
