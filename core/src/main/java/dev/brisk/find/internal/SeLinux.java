// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.Syscall;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * SELinux security contexts for {@code %Z}: the {@code security.selinux} extended attribute,
 * read as libselinux's {@code getfilecon} (following links) or {@code lgetfilecon} reads it.
 * The calls go through the shared {@link Syscall} binding. Thread-safe.
 */
final class SeLinux {
    private SeLinux() {}


    private static final byte[] NAME = "security.selinux".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** Whether the kernel runs SELinux (libselinux's test: its file system is mounted). */
    static boolean enabled() {
        return Files.exists(Path.of("/sys/fs/selinux/enforce"));
    }

    /** The context of {@code path} (its first {@code len} bytes) without the trailing NUL, or why there is none. */
    static Result context(byte[] path, int len, boolean follow) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = Libc.cString(arena, Arrays.copyOf(path, len));
            MemorySegment n = Libc.cString(arena, NAME);
            MemorySegment buf = arena.allocate(256);
            long call = follow ? Syscall.GETXATTR : Syscall.LGETXATTR;
            long r = Syscall.call(call, p.address(), n.address(), buf.address(), 256);
            if (r == -Errno.ERANGE) { // a long context: ask its size
                long size = Syscall.call(call, p.address(), n.address(), 0, 0);
                if (size > 0) {
                    buf = arena.allocate(size);
                    r = Syscall.call(call, p.address(), n.address(), buf.address(), size);
                }
            }
            if (r < 0) {
                return new Result(null, Errno.message((int) -r));
            }
            byte[] v = buf.asSlice(0, r).toArray(ValueLayout.JAVA_BYTE);
            int end = v.length;
            while (end > 0 && v[end - 1] == 0) {
                end--;
            }
            return new Result(Arrays.copyOf(v, end), null);
        } catch (Throwable t) {
            return new Result(null, String.valueOf(t.getMessage()));
        }
    }

    /** A context, or (context null) the reason there is none, as strerror words it. */
    record Result(byte[] context, String error) {}
}
