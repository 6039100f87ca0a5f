// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.walk.Backend;
import dev.brisk.walk.Visit;
import dev.brisk.walk.WalkOptions;
import dev.brisk.walk.Walker;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * brisk's own system call (x86-64: {@link Kernel}'s JNI method, and {@link Syscall#RAW_CODE}
 * through the FFM linker, neither with errno capture) gives what the C library's
 * {@code syscall(2)} gives, result and errno, call by call; and JVMs made to use the linker
 * ({@code -Dbrisk.syscall=ffm}) or the C library's ({@code -Dbrisk.syscall=libc}, as on aarch64)
 * walk, spawn and fail as this one does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SyscallTest {
    @TempDir
    Path dir;

    @Test
    void x86CallsThroughBrisksOwnCodeByJni() {
        String arch = System.getProperty("os.arch");
        boolean x86 = "amd64".equals(arch) || "x86_64".equals(arch);
        assertThat(Syscall.raw()).isEqualTo(x86);
        assertThat(Syscall.how()).isEqualTo(x86 ? "brisk's JNI method" : "the C library's syscall(2) through FFM");
    }

    /** One call made the three ways (this JVM's, the linker's with brisk's code, the C library's), six arguments: [result, errno after it] each. */
    private static long[][] both(long nr, long a, long b, long c, long d, long e, long f) {
        MemorySegment own = Errno.newState();
        MemorySegment ffm = Errno.newState();
        MemorySegment libc = Errno.newState();
        Errno.write(own, 0);
        Errno.write(ffm, 0);
        Errno.write(libc, 0);
        long r1 = Syscall.call6(own, nr, a, b, c, d, e, f);
        Long r3 = Syscall.callViaOwnFfm(ffm, nr, a, b, c, d, e, f);
        long r2 = Syscall.callViaLibc(libc, nr, a, b, c, d, e, f);
        if (r3 == null) { // not x86-64: the C library's is this JVM's
            return new long[][] {{r1, Errno.read(own)}, {r2, Errno.read(libc)}, {r2, Errno.read(libc)}};
        }
        return new long[][] {{r1, Errno.read(own)}, {r2, Errno.read(libc)}, {r3, Errno.read(ffm)}};
    }

    /**
     * The call's result both ways is {@code result}; when it failed (-1), errno both ways is
     * {@code errno}. (After a success the C library leaves errno as it was, and the capture copies
     * whatever the thread had, so errno is compared for failures only.)
     */
    private static void agree(long nr, long a, long b, long c, long d, long result, int errno) {
        agree6(nr, a, b, c, d, 0, 0, result, errno);
    }

    private static void agree6(long nr, long a, long b, long c, long d, long e, long f, long result, int errno) {
        long[][] r = both(nr, a, b, c, d, e, f);
        assertThat(r[0][0]).as("brisk's own call's result").isEqualTo(r[1][0]).isEqualTo(result);
        assertThat(r[2][0]).as("through the linker").isEqualTo(result);
        if (result == -1) {
            assertThat(r[0][1]).as("brisk's own call's errno").isEqualTo(r[1][1]).isEqualTo(errno);
            assertThat(r[2][1]).as("through the linker").isEqualTo(errno);
        }
    }

    @Test
    void failuresGiveMinusOneAndTheSameErrno() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            long missing = Libc.cString(arena, dir.resolve("missing").toString().getBytes(UTF_8)).address();
            agree(Syscall.OPENAT, Flags.AT_FDCWD, missing, Flags.O_RDONLY, 0, -1, Errno.ENOENT);
            agree(Syscall.CLOSE, -1, 0, 0, 0, -1, Errno.EBADF);
            agree(Syscall.CLOSE, Integer.MAX_VALUE - 1, 0, 0, 0, -1, Errno.EBADF);
            Path file = Files.writeString(dir.resolve("file"), "x");
            long path = Libc.cString(arena, file.toString().getBytes(UTF_8)).address();
            // a file opened as a directory; a call the kernel does not have
            agree(Syscall.OPENAT, Flags.AT_FDCWD, path, Flags.O_RDONLY | Flags.O_DIRECTORY, 0, -1, Errno.ENOTDIR);
            agree(100_000, 0, 0, 0, 0, -1, Errno.ENOSYS);
        }
    }

    @Test
    void resultsComeBackWhole() throws Exception {
        agree(Syscall.GETPID, 0, 0, 0, 0, ProcessHandle.current().pid(), 0);
        // an offset past 2^32 (a result wider than an int) and a negative one (EINVAL)
        Path sparse = dir.resolve("sparse");
        int fd = Libc.open(sparse.toString().getBytes(UTF_8), Flags.O_RDWR | Flags.O_CREAT, 0644);
        try {
            agree(Syscall.LSEEK, fd, 1L << 40, 0 /* SEEK_SET */, 0, 1L << 40, 0);
            agree(Syscall.LSEEK, fd, -5, 0, 0, -1, Errno.EINVAL);
        } finally {
            Syscall.call(Syscall.CLOSE, fd, 0, 0, 0);
        }
    }

    /** copy_file_range has six arguments: the sixth (flags) travels on the stack into r9. */
    @Test
    void theSixthArgumentArrives() throws Exception {
        Path from = Files.writeString(dir.resolve("from"), "abcdef");
        Path to = dir.resolve("to");
        int in = Libc.open(from.toString().getBytes(UTF_8), Flags.O_RDONLY, 0);
        int out = Libc.open(to.toString().getBytes(UTF_8), Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC, 0644);
        try {
            // flags 1: the kernel takes no flags here and says EINVAL; with 0 it copies
            agree6(Syscall.COPY_FILE_RANGE, in, 0, out, 0, 3, 1, -1, Errno.EINVAL);
            assertThat(Syscall.call6(Errno.newState(), Syscall.COPY_FILE_RANGE, in, 0, out, 0, 3, 0)).isEqualTo(3);
            assertThat(Syscall.callViaLibc(Errno.newState(), Syscall.COPY_FILE_RANGE, in, 0, out, 0, 3, 0)).isEqualTo(3);
        } finally {
            Syscall.call(Syscall.CLOSE, in, 0, 0, 0);
            Syscall.call(Syscall.CLOSE, out, 0, 0, 0);
        }
        assertThat(Files.readString(to)).isEqualTo("abcdef");
    }

    @Test
    void aDirectoryReadsTheSameBothWays() throws IOException {
        for (int i = 0; i < 50; i++) {
            Files.createFile(dir.resolve("f" + i));
        }
        try (Arena arena = Arena.ofConfined()) {
            long path = Libc.cString(arena, dir.toString().getBytes(UTF_8)).address();
            byte[][] listings = new byte[2][];
            for (int way = 0; way < 2; way++) {
                MemorySegment state = Errno.newState();
                int flags = Flags.O_RDONLY | Flags.O_DIRECTORY | Flags.O_CLOEXEC;
                long fd = way == 0 ? Syscall.call6(state, Syscall.OPENAT, Flags.AT_FDCWD, path, flags, 0, 0, 0)
                        : Syscall.callViaLibc(state, Syscall.OPENAT, Flags.AT_FDCWD, path, flags, 0, 0, 0);
                assertThat(fd).isNotNegative();
                MemorySegment buf = arena.allocate(65536, 8);
                long n = way == 0 ? Syscall.call6(state, Syscall.GETDENTS64, fd, buf.address(), 65536, 0, 0, 0)
                        : Syscall.callViaLibc(state, Syscall.GETDENTS64, fd, buf.address(), 65536, 0, 0, 0);
                assertThat(n).isPositive();
                listings[way] = buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
                assertThat(Syscall.call6(state, Syscall.CLOSE, fd, 0, 0, 0, 0, 0)).isZero();
            }
            assertThat(listings[0]).isEqualTo(listings[1]);
        }
    }

    /** What {@link Child} prints by JNI (the default), as the linker's and the C library's paths would print it. */
    @Test
    void theLinkersAndTheCLibrarysPathsWalkSpawnAndFailAlike() throws Exception {
        Assumptions.assumeTrue(Syscall.raw(), "this JVM already calls through the C library");
        for (int i = 0; i < 30; i++) {
            Files.createDirectories(dir.resolve("d" + (i % 5)).resolve("e" + i));
            Files.writeString(dir.resolve("d" + (i % 5)).resolve("f" + i), "x");
        }
        String own = runChild(List.of());
        String ffm = runChild(List.of("-Dbrisk.syscall=ffm"));
        // without brisk's own system call, no own spawn code either: glibc's posix_spawn, bound
        // through CFunction with the capturing shape
        String libc = runChild(List.of("-Dbrisk.syscall=libc"));
        assertThat(own).startsWith("raw true by brisk's JNI method spawn native ");
        assertThat(ffm).startsWith("raw true by brisk's code through FFM spawn native ");
        assertThat(libc).startsWith("raw false by the C library's syscall(2) through FFM spawn posix ");
        String seen = own.substring(own.indexOf(" entries "));
        assertThat(ffm.substring(ffm.indexOf(" entries "))).isEqualTo(seen);
        assertThat(libc.substring(libc.indexOf(" entries "))).isEqualTo(seen);
        assertThat(own).contains("entries 66 ") // the root, 5 directories, 30 below them, 30 files
                .contains("status 3 ").contains("errno " + Errno.ENOENT);
    }

    /**
     * Where the shared object cannot be written (a temporary directory that takes no files) or
     * mapped executable (a {@code noexec} one, mounted in a mount namespace of the child's own),
     * the JVM makes its calls through the linker with brisk's code instead, and sees the same.
     */
    @Test
    void whereJniCannotLoadTheLinkerTakesOver() throws Exception {
        Assumptions.assumeTrue(Syscall.how().equals("brisk's JNI method"), "x86-64 only");
        for (int i = 0; i < 30; i++) {
            Files.createDirectories(dir.resolve("d" + (i % 5)).resolve("e" + i));
            Files.writeString(dir.resolve("d" + (i % 5)).resolve("f" + i), "x");
        }
        String own = runChild(List.of());
        String unwritable = runChild(List.of("-Djava.io.tmpdir=/proc")); // no file can be made there, even by root
        assertThat(unwritable).startsWith("raw true by brisk's code through FFM spawn native ")
                .endsWith(own.substring(own.indexOf(" entries ")));
        Assumptions.assumeTrue(new java.io.File("/usr/bin/unshare").canExecute()
                && "root".equals(System.getProperty("user.name")), "a noexec mount needs root and unshare");
        Path noexec = Files.createTempDirectory("brisk-noexec");
        try {
            String mounted = runChild(List.of("unshare", "-m", "sh", "-c",
                    "mount -t tmpfs -o noexec,size=1m none \"$0\" && exec \"$@\"", noexec.toString()),
                    List.of("-Djava.io.tmpdir=" + noexec));
            assertThat(mounted).startsWith("raw true by brisk's code through FFM spawn native ")
                    .endsWith(own.substring(own.indexOf(" entries ")));
        } finally {
            Files.deleteIfExists(noexec);
        }
    }

    private String runChild(List<String> props) throws Exception {
        return runChild(List.of(), props);
    }

    private String runChild(List<String> prefix, List<String> props) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new java.util.ArrayList<>(prefix);
        cmd.addAll(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(props);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Child.class.getName(), dir.toString()));
        // (its output goes to a file outside the walked tree: a pipe read would not time out)
        Path log = Files.createTempFile("brisk-syscall-child", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the child JVM ended").isTrue();
            } finally {
                p.destroyForcibly();
            }
            String out = Files.readString(log).strip();
            assertThat(p.exitValue()).as(out).isZero();
            return out;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** Walks a tree on two threads, runs {@code sh -c 'exit 3'}, opens a missing file, and prints what it saw and how. */
    static final class Child {
        public static void main(String[] args) throws Exception {
            AtomicInteger entries = new AtomicInteger();
            Walker.of(WalkOptions.DEFAULTS.withThreads(2).withBackend(Backend.NATIVE))
                    .walk(List.of(args[0].getBytes(UTF_8)), e -> {
                        entries.incrementAndGet();
                        return Visit.CONTINUE;
                    });
            int status;
            boolean natively;
            try (Spawn s = new Spawn()) {
                int pid = s.start("/bin/sh".getBytes(UTF_8), Arrays.asList("sh".getBytes(UTF_8), "-c".getBytes(UTF_8),
                        "exit 3".getBytes(UTF_8)), null);
                status = WaitStatus.shellStatus(WaitStatus.waitFor(pid));
                natively = s.startsNatively();
            }
            long r;
            try (Arena arena = Arena.ofConfined()) {
                r = Syscall.call(Syscall.OPENAT, Flags.AT_FDCWD,
                        Libc.cString(arena, (args[0] + "/missing").getBytes(UTF_8)).address(), Flags.O_RDONLY, 0);
            }
            System.out.println("raw " + Syscall.raw() + " by " + Syscall.how() + " spawn " + (natively ? "native" : "posix") + " entries " + entries.get() + " status " + status + " errno " + -r);
        }
    }
}
