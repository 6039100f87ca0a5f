// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ErrnoTest {
    /** errno is read at a constant offset instead of resolving the layout at start-up. */
    @Test
    void offsetIsTheCaptureLayouts() {
        assertThat(Errno.OFFSET).isEqualTo(Linker.Option.captureStateLayout()
                .byteOffset(MemoryLayout.PathElement.groupElement("errno")));
    }

    @Test
    void tableWordsAreStrerrors() {
        for (int e : new int[] {Errno.EPERM, Errno.ENOENT, Errno.EIO, Errno.EACCES, Errno.ENOTDIR, Errno.ENFILE,
                Errno.EMFILE, Errno.ENAMETOOLONG, Errno.ELOOP}) {
            assertThat(Errno.message(e)).isEqualTo(Libc.strerror(e));
        }
        assertThat(Errno.message(Errno.EEXIST)).isEqualTo("File exists");
    }

    @Test
    void aFailedSystemCallLeavesItsErrnoInTheCallersState() {
        var state = Errno.newState();
        try (var arena = java.lang.foreign.Arena.ofConfined()) {
            var path = Libc.cString(arena, "/nonexistent/brisk".getBytes(StandardCharsets.US_ASCII));
            long r = Syscall.call(state, Syscall.OPENAT, Flags.AT_FDCWD, path.address(), Flags.O_RDONLY, 0, 0);
            assertThat(r).isEqualTo(-1);
            assertThat(Errno.read(state)).isEqualTo(Errno.ENOENT);
            Errno.write(state, Errno.EINTR);
            assertThat(Errno.read(state)).isEqualTo(Errno.EINTR);
        }
        assertThat(Syscall.call(Syscall.GETPID, 0, 0, 0, 0)).isEqualTo(ProcessHandle.current().pid());
        assertThat(Syscall.call(Syscall.KILL, Integer.MAX_VALUE, 0, 0, 0)).isEqualTo(-Errno.ESRCH);
    }

    @Test
    void libcWrappersThrowWithTheErrno() {
        assertThatThrownBy(() -> Libc.open("/nonexistent/x".getBytes(StandardCharsets.US_ASCII), Flags.O_RDONLY, 0))
                .isInstanceOfSatisfying(PosixException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT))
                .hasMessage("/nonexistent/x: No such file or directory");
        assertThat(Libc.openOrErrno("/".getBytes(StandardCharsets.US_ASCII), Flags.O_WRONLY, 0)).isEqualTo(-Errno.EISDIR);
    }

    /** A pipe whose reader has gone is recognised on the descriptor (what brisk par's 255 on {@code | head} rests on). */
    @Test
    void readerGoneIsSeenOnThePipe() {
        try (var a = java.lang.foreign.Arena.ofConfined()) {
            var fds = a.allocate(java.lang.foreign.ValueLayout.JAVA_INT, 2);
            assertThat(Libc.pipe2(fds, Flags.O_CLOEXEC)).isZero();
            int r = fds.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 0);
            int w = fds.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 1);
            assertThat(Libc.readerGone(w)).isFalse();
            Libc.close(r);
            assertThat(Libc.readerGone(w)).isTrue();
            Libc.close(w);
        }
    }
}
