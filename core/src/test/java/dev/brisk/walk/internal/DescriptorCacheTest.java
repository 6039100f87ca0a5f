// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Syscall;
import dev.brisk.internal.posix.Uring;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The walker's descriptor cache over real directory chains, under budgets of one and two. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DescriptorCacheTest {
    @TempDir
    Path tmp;

    private final Scratch scratch = new Scratch();

    /** Enters levels 0..depth-1 of {@code root/n1/n2/...}, one name per level; the path buffer. */
    private static byte[] chain(DescriptorCache c, Path root, String[] names) {
        StringBuilder p = new StringBuilder(root.toString());
        int[] ends = new int[names.length + 1];
        int[] starts = new int[names.length + 1];
        starts[0] = root.toString().lastIndexOf('/') + 1;
        ends[0] = p.length();
        for (int i = 0; i < names.length; i++) {
            p.append('/');
            starts[i + 1] = p.length();
            p.append(names[i]);
            ends[i + 1] = p.length();
        }
        byte[] path = p.toString().getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i <= names.length; i++) {
            c.enter(i, ends[i], starts[i], true);
        }
        return path;
    }

    /** Whether {@code fd} is the directory that holds a file named {@code marker}. */
    private boolean holds(int fd, String marker) {
        byte[] m = marker.getBytes(StandardCharsets.UTF_8);
        return scratch.stat(fd, m, 0, m.length, false) != null;
    }

    @Test
    void aTinyBudgetKeepsFewDescriptorsOpenAndReopensByPath() throws Exception {
        String[] names = new String[12];
        Path d = tmp;
        for (int i = 0; i < names.length; i++) {
            names[i] = "d" + i;
            d = d.resolve(names[i]);
            Files.createDirectories(d);
            Files.createFile(d.resolve("mark" + i));
        }
        Files.createFile(tmp.resolve("mark-root"));
        DescriptorCache c = new DescriptorCache(scratch, 2);
        byte[] path = chain(c, tmp, names);
        int max = 0;
        for (int level = 0; level <= names.length; level++) {
            int fd = c.open(path, level);
            assertThat(fd).as("level %d", level).isGreaterThanOrEqualTo(0);
            assertThat(holds(fd, level == 0 ? "mark-root" : "mark" + (level - 1))).isTrue();
            max = Math.max(max, c.openCount());
        }
        assertThat(max).isLessThanOrEqualTo(2);
        assertThat(c.fd(0)).as("the budget closed the shallowest levels").isEqualTo(-1);
        // a closed level reopens by path, relative to the nearest open level above it or the cwd
        int fd3 = c.ensure(path, 3);
        assertThat(holds(fd3, "mark2")).isTrue();
        int fd0 = c.ensure(path, 0);
        assertThat(holds(fd0, "mark-root")).isTrue();
        for (int level = 0; level <= names.length; level++) {
            c.close(level);
        }
        assertThat(c.openCount()).isZero();
    }

    @Test
    void aParentReopensThroughItsChildsDotDot() throws Exception {
        Files.createDirectories(tmp.resolve("a/b/c"));
        Files.createFile(tmp.resolve("a/mark-a"));
        DescriptorCache c = new DescriptorCache(scratch, 2);
        byte[] path = chain(c, tmp, new String[] {"a", "b", "c"});
        for (int level = 0; level <= 3; level++) {
            c.open(path, level);
        }
        // budget 2: opening each level closed the shallowest one open; the parent stays
        assertThat(c.fd(1)).isEqualTo(-1);
        assertThat(c.fd(2)).isGreaterThanOrEqualTo(0);
        c.reopenFromChild(1);
        assertThat(c.fd(1)).isGreaterThanOrEqualTo(0);
        assertThat(holds(c.fd(1), "mark-a")).isTrue();
        assertThat(c.openCount()).isEqualTo(3);
        for (int level = 0; level <= 3; level++) {
            c.close(level);
        }
        assertThat(c.openCount()).isZero();
    }

    /**
     * When the process runs out of descriptors (EMFILE) and the closes go through an io_uring,
     * the levels closed to make room are really closed before the open is tried again.
     */
    @Test
    void outOfDescriptorsTheRingsClosesAreMadeBeforeTheRetry() throws Exception {
        Uring ring = Uring.create(64);
        org.junit.jupiter.api.Assumptions.assumeTrue(ring != null, "no io_uring here");
        Files.createDirectories(tmp.resolve("a/b/c/d"));
        Files.createFile(tmp.resolve("a/b/c/d/mark-d"));
        DescriptorCache c = new DescriptorCache(scratch, 64);
        c.useRing(ring);
        byte[] path = chain(c, tmp, new String[] {"a", "b", "c", "d"});
        for (int level = 0; level <= 3; level++) {
            assertThat(c.open(path, level)).isGreaterThanOrEqualTo(0);
        }
        MemorySegment lim = Arena.ofAuto().allocate(16, 8);
        MemorySegment st = Errno.newState();
        assertThat(Syscall.call(st, Syscall.GETRLIMIT, Flags.RLIMIT_NOFILE, lim.address(), 0, 0, 0)).isZero();
        long[] saved = lim.toArray(ValueLayout.JAVA_LONG);
        List<Integer> fillers = new ArrayList<>();
        int fd4;
        try {
            // a soft limit just above the highest descriptor open, and every free number below it taken
            int highest;
            try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
                highest = fds.mapToInt(f -> Integer.parseInt(f.getFileName().toString())).max().orElseThrow();
            }
            MemorySegment.copy(new long[] {highest + 2, saved[1]}, 0, lim, ValueLayout.JAVA_LONG, 0, 2);
            assertThat(Syscall.call(st, Syscall.SETRLIMIT, Flags.RLIMIT_NOFILE, lim.address(), 0, 0, 0)).isZero();
            MemorySegment devNull = Arena.ofAuto().allocateFrom("/dev/null");
            long f;
            while ((f = Syscall.call(st, Syscall.OPENAT, Flags.AT_FDCWD, devNull.address(), Flags.O_RDONLY | Flags.O_CLOEXEC, 0, 0)) >= 0) {
                fillers.add((int) f);
            }
            assertThat(Errno.read(st)).isEqualTo(Errno.EMFILE);
            fd4 = c.open(path, 4);
        } finally {
            for (int f : fillers) {
                Syscall.call(st, Syscall.CLOSE, f, 0, 0, 0, 0);
            }
            MemorySegment.copy(saved, 0, lim, ValueLayout.JAVA_LONG, 0, 2);
            Syscall.call(st, Syscall.SETRLIMIT, Flags.RLIMIT_NOFILE, lim.address(), 0, 0, 0);
        }
        assertThat(fd4).as("opened after the levels above were closed").isGreaterThanOrEqualTo(0);
        assertThat(holds(fd4, "mark-d")).isTrue();
        assertThat(c.fd(0)).isEqualTo(-1);
        for (int level = 0; level <= 4; level++) {
            c.close(level);
        }
        c.flush();
        assertThat(c.openCount()).isZero();
        ring.close();
    }

    @Test
    void pathsLongerThanPathMaxOpenInPieces() throws Exception {
        // 20 levels of 250-byte names: 5,000 bytes, beyond PATH_MAX; made by a shell that cds down
        String name = "n".repeat(250);
        Process p = new ProcessBuilder("bash", "-c",
                "for i in $(seq 20); do mkdir " + name + " && cd " + name + " || exit 1; done; : > deepest")
                .directory(tmp.toFile()).inheritIO().start();
        assertThat(p.waitFor()).isZero();
        try {
            openInPieces(name);
        } finally {
            // @TempDir cannot delete a path beyond PATH_MAX; rm can
            new ProcessBuilder("rm", "-rf", name).directory(tmp.toFile()).inheritIO().start().waitFor();
        }
    }

    private void openInPieces(String name) {
        String[] names = new String[20];
        java.util.Arrays.fill(names, name);
        DescriptorCache c = new DescriptorCache(scratch, 1);
        byte[] path = chain(c, tmp, names);
        assertThat(path.length).isGreaterThan(4096);
        // with a budget of one, every level reopens its parent by path from the cwd, in pieces
        for (int level = 0; level <= 20; level++) {
            assertThat(c.open(path, level)).as("level %d", level).isGreaterThanOrEqualTo(0);
        }
        assertThat(holds(c.fd(20), "deepest")).isTrue();
        c.close(20);
        assertThat(c.ensure(path, 20)).isGreaterThanOrEqualTo(0); // the whole 5,000 bytes from the cwd
        assertThat(holds(c.fd(20), "deepest")).isTrue();
        for (int level = 0; level <= 20; level++) {
            c.close(level);
        }
        assertThat(c.openCount()).isZero();
    }

    @Test
    void aLinkIsNotFollowedWhereTheLevelSaysSo() throws Exception {
        Files.createDirectories(tmp.resolve("real"));
        Files.createSymbolicLink(tmp.resolve("link"), tmp.resolve("real"));
        byte[] path = (tmp + "/link").getBytes(StandardCharsets.UTF_8);
        DescriptorCache c = new DescriptorCache(scratch, 4);
        c.enter(0, path.length, path.length - 4, true);
        assertThat(c.open(path, 0)).isEqualTo(-1);
        assertThat(scratch.errno()).isIn(Errno.ELOOP, Errno.ENOTDIR);
        c.enter(0, path.length, path.length - 4, false);
        int fd = c.open(path, 0);
        assertThat(fd).isGreaterThanOrEqualTo(0);
        c.close(0);
        assertThat(c.openCount()).isZero();
        assertThat(Flags.O_NOFOLLOW).isNotZero();
    }
}
