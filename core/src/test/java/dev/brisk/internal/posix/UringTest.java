// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real io_uring: batches of openat against the plain system call, closes, the ring's wrap-around. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UringTest {
    @TempDir
    Path dir;

    private final MemorySegment state = Errno.newState();
    private Uring ring;
    private int dirfd = -1;

    @BeforeEach
    void setUp() throws IOException {
        ring = Uring.create(64);
        Assumptions.assumeTrue(ring != null, "no io_uring here (kernel, seccomp or kernel.io_uring_disabled)");
        for (int i = 0; i < 100; i++) {
            Files.createDirectory(dir.resolve("d" + i));
        }
        Files.writeString(dir.resolve("file"), "x");
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("d1"));
        dirfd = open(Flags.AT_FDCWD, dir.toString());
        assertThat(dirfd).isGreaterThanOrEqualTo(0);
    }

    @AfterEach
    void tearDown() {
        if (ring != null) {
            ring.close();
        }
        if (dirfd >= 0) {
            Syscall.call(state, Syscall.CLOSE, dirfd, 0, 0, 0, 0);
        }
    }

    private static final int FLAGS = Flags.O_RDONLY | Flags.O_DIRECTORY | Flags.O_CLOEXEC | Flags.O_NOFOLLOW;

    /** The plain system call: the descriptor, or -errno. */
    private int open(int at, String name) {
        MemorySegment c = Arena.ofAuto().allocateFrom(name);
        long r = Syscall.call(state, Syscall.OPENAT, at, c.address(), FLAGS, 0, 0);
        return r >= 0 ? (int) r : -Errno.read(state);
    }

    /** What descriptor {@code fd} of this process is, or null when it is not open. */
    private static String target(int fd) {
        try {
            return Files.readSymbolicLink(Paths.get("/proc/self/fd/" + fd)).toString();
        } catch (IOException e) {
            return null;
        }
    }

    private static long ringsOpen() throws IOException {
        try (Stream<Path> s = Files.list(Paths.get("/proc/self/fd"))) {
            return s.filter(p -> "anon_inode:[io_uring]".equals(target(Integer.parseInt(p.getFileName().toString())))).count();
        }
    }

    private boolean queue(String name, int tag) {
        byte[] b = name.getBytes(UTF_8);
        return ring.queueOpenat(dirfd, b, 0, b.length, FLAGS, tag);
    }

    @Test
    void aBatchOpensWhatOpenatOpensAndFailsAsItFails() {
        List<String> names = new ArrayList<>(List.of("file", "missing", "d7", "d8", "link"));
        String tooLong = "n".repeat(300);
        names.add(tooLong);
        int[] results = new int[names.size()];
        for (int i = 0; i < names.size(); i++) {
            assertThat(queue(names.get(i), i)).isTrue();
        }
        assertThat(ring.submit(results)).isTrue();
        for (int i = 0; i < names.size(); i++) {
            int plain = open(dirfd, names.get(i));
            if (plain >= 0) {
                assertThat(results[i]).as(names.get(i)).isGreaterThanOrEqualTo(0);
                assertThat(target(results[i])).isEqualTo(dir.resolve(names.get(i)).toString()).isEqualTo(target(plain));
                Syscall.call(state, Syscall.CLOSE, plain, 0, 0, 0, 0);
                Syscall.call(state, Syscall.CLOSE, results[i], 0, 0, 0, 0);
            } else {
                assertThat(results[i]).as(names.get(i)).isEqualTo(plain);
            }
        }
        assertThat(results[0]).isEqualTo(-Errno.ENOTDIR);
        assertThat(results[1]).isEqualTo(-Errno.ENOENT);
        assertThat(results[4]).isEqualTo(-Errno.ENOTDIR);
        assertThat(results[5]).isEqualTo(-Errno.ENAMETOOLONG);
        assertThat(ring.usable()).isTrue();
    }

    @Test
    void theFlagsGoWhereTheKernelReadsThem() {
        byte[] link = "link".getBytes(UTF_8);
        int[] results = new int[2];
        assertThat(ring.queueOpenat(dirfd, link, 0, link.length, Flags.O_RDONLY | Flags.O_CLOEXEC | Flags.O_NOFOLLOW, 0)).isTrue();
        assertThat(ring.queueOpenat(dirfd, link, 0, link.length, Flags.O_RDONLY | Flags.O_CLOEXEC, 1)).isTrue();
        assertThat(ring.submit(results)).isTrue();
        assertThat(results[0]).as("O_NOFOLLOW").isEqualTo(-Errno.ELOOP);
        assertThat(target(results[1])).as("followed").isEqualTo(dir.resolve("d1").toString());
        ring.queueClose(results[1]);
        assertThat(ring.submit(null)).isTrue();
        assertThat(target(results[1])).isNull();
    }

    @Test
    void batchesWrapAroundTheRingAndClosesClose() {
        int[] results = new int[64];
        int next = 0;
        List<Integer> opened = new ArrayList<>();
        for (int round = 0; round < 12; round++) {
            int k = 37; // 12 batches of 37 in a ring of 64: the queue wraps around its end
            for (int i = 0; i < k; i++) {
                assertThat(queue("d" + (next + i) % 100, i)).isTrue();
            }
            Arrays.fill(results, 0);
            assertThat(ring.submit(results)).isTrue();
            for (int i = 0; i < k; i++) {
                assertThat(target(results[i])).isEqualTo(dir.resolve("d" + (next + i) % 100).toString());
                opened.add(results[i]);
            }
            next += k;
            // close this batch's descriptors with the next batch
            for (int fd : opened) {
                ring.queueClose(fd);
            }
            assertThat(ring.queuedCloses()).isEqualTo(opened.size());
            for (int fd : opened) {
                assertThat(target(fd)).as("not closed before the submit").isNotNull();
            }
            assertThat(ring.space()).isEqualTo(64 - opened.size());
            assertThat(ring.submit(null)).isTrue();
            for (int fd : opened) {
                assertThat(target(fd)).as("closed by the submit").isNull();
            }
            opened.clear();
        }
    }

    @Test
    void aFullQueueRefusesOpensAndSubmitsCloses() {
        int[] fds = new int[100];
        for (int i = 0; i < 100; i++) {
            fds[i] = open(dirfd, "d" + i);
            assertThat(fds[i]).isGreaterThanOrEqualTo(0);
        }
        for (int i = 0; i < 64; i++) {
            ring.queueClose(fds[i]);
        }
        assertThat(queue("d1", 0)).as("no room left").isFalse();
        for (int i = 64; i < 100; i++) {
            ring.queueClose(fds[i]); // the first of these submits the 64 queued
        }
        assertThat(target(fds[0])).isNull();
        assertThat(target(fds[99])).isNotNull();
        assertThat(ring.queuedCloses()).isEqualTo(36);
        ring.close();
        for (int fd : fds) {
            assertThat(target(fd)).as("closed by the ring's close").isNull();
        }
        assertThat(ring.usable()).isFalse();
        ring.close(); // twice is fine
        int fd = open(dirfd, "d3");
        ring.queueClose(fd); // a closed ring closes at once
        assertThat(target(fd)).isNull();
    }

    @Test
    void namesFillTheirRoomBeforeTheQueueIsFull() {
        String longName = "n".repeat(300);
        int queued = 0;
        while (queue(longName, queued)) {
            queued++;
        }
        assertThat(queued).as("16 KiB of names, 301 bytes each").isEqualTo(16 * 1024 / 301);
        assertThat(ring.space()).isEqualTo(64 - queued);
        int[] results = new int[64];
        assertThat(ring.submit(results)).isTrue();
        assertThat(Arrays.copyOf(results, queued)).containsOnly(-Errno.ENAMETOOLONG);
    }

    @Test
    void aClosedRingLeavesNoDescriptor() throws IOException {
        long before = ringsOpen();
        Uring other = Uring.create(8);
        assertThat(ringsOpen()).isEqualTo(before + 1);
        other.close();
        assertThat(ringsOpen()).isEqualTo(before);
    }

    @Test
    void offMeansNoRing() {
        String old = System.getProperty("brisk.uring");
        System.setProperty("brisk.uring", "off");
        try {
            assertThat(Uring.create(8)).isNull();
        } finally {
            if (old == null) {
                System.clearProperty("brisk.uring");
            } else {
                System.setProperty("brisk.uring", old);
            }
        }
    }
}
