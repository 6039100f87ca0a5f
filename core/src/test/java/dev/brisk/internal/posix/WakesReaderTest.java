// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link Libc#wakesReader} on real descriptors: a pipe and a socket do, a file and /dev/null do not. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WakesReaderTest {
    @TempDir
    Path dir;

    private static byte[] bytes(Object path) {
        return path.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aPipeAndASocketWakeAReaderAFileAndDevNullDoNot() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(ValueLayout.JAVA_INT, 2);
            assertThat(Libc.pipe2(fds, Flags.O_CLOEXEC)).isZero();
            int r = fds.getAtIndex(ValueLayout.JAVA_INT, 0);
            int w = fds.getAtIndex(ValueLayout.JAVA_INT, 1);
            int sock = (int) Syscall.call(Syscall.SOCKET, 1 /* AF_UNIX */, 1 /* SOCK_STREAM */, 0, 0);
            assertThat(sock).isNotNegative();
            int file = Libc.open(bytes(dir.resolve("f")), Flags.O_WRONLY | Flags.O_CREAT | Flags.O_CLOEXEC, 0600);
            int devNull = Libc.open(bytes("/dev/null"), Flags.O_WRONLY | Flags.O_CLOEXEC, 0);
            try {
                assertThat(Libc.wakesReader(w)).isTrue();
                assertThat(Libc.wakesReader(r)).isTrue();
                assertThat(Libc.wakesReader(sock)).isTrue();
                assertThat(Libc.wakesReader(file)).isFalse();
                assertThat(Libc.wakesReader(devNull)).isFalse();
            } finally {
                for (int fd : new int[] {r, w, sock, file, devNull}) {
                    Libc.close(fd);
                }
            }
            assertThat(Libc.wakesReader(-1)).as("no descriptor").isFalse();
        }
    }
}
