// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The loop guard over real directories reached twice: through a symbolic link, and through a bind mount. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LoopGuardTest {
    @TempDir
    Path tmp;

    private final Scratch scratch = new Scratch();
    private final List<Integer> open = new ArrayList<>();

    /** Opens a directory following links, as the walker does under -L. */
    private int dir(Path p) {
        byte[] b = p.toString().getBytes(StandardCharsets.UTF_8);
        int fd = Syscalls.openat(scratch, Syscalls.AT_FDCWD, scratch.cString(b, 0, b.length), Syscalls.O_DIR_FLAGS);
        assertThat(fd).as("open %s", p).isGreaterThanOrEqualTo(0);
        open.add(fd);
        return fd;
    }

    @AfterEach
    void closeAll() {
        open.forEach(fd -> Syscalls.close(scratch, fd));
    }

    @Test
    void aLinkToAnAncestorIsALoopAtThatLevel() throws Exception {
        Files.createDirectories(tmp.resolve("a/b/c"));
        Files.createSymbolicLink(tmp.resolve("a/b/c/up"), Path.of(".."));
        LoopGuard g = new LoopGuard(scratch);
        g.start(null);
        assertThat(g.enter(0, dir(tmp.resolve("a")))).isEqualTo(LoopGuard.NONE);
        assertThat(g.enter(1, dir(tmp.resolve("a/b")))).isEqualTo(LoopGuard.NONE);
        assertThat(g.enter(2, dir(tmp.resolve("a/b/c")))).isEqualTo(LoopGuard.NONE);
        assertThat(g.enter(3, dir(tmp.resolve("a/b/c/up")))).isEqualTo(1);
        // a level re-entered after the loop forgets what was there: a sibling is no loop
        Files.createDirectories(tmp.resolve("a/b/d"));
        assertThat(g.enter(2, dir(tmp.resolve("a/b/d")))).isEqualTo(LoopGuard.NONE);
    }

    @Test
    void directoriesAboveAHandedOffSubtreeCountAsAncestors() throws Exception {
        Files.createDirectories(tmp.resolve("top/sub"));
        Files.createSymbolicLink(tmp.resolve("top/sub/back"), Path.of(".."));
        LoopGuard first = new LoopGuard(scratch);
        first.start(null);
        first.enter(0, dir(tmp.resolve("top")));
        long[] above = first.pathThrough(0);
        assertThat(above).hasSize(2);
        LoopGuard second = new LoopGuard(scratch); // another thread's walker, handed top/sub
        second.start(above);
        assertThat(second.enter(0, dir(tmp.resolve("top/sub")))).isEqualTo(LoopGuard.NONE);
        assertThat(second.enter(1, dir(tmp.resolve("top/sub/back")))).isEqualTo(LoopGuard.ABOVE);
        assertThat(second.pathThrough(0)).hasSize(4).startsWith(above);
        assertThat(second.find(above[0], above[1], 0)).isEqualTo(LoopGuard.ABOVE);
        assertThat(second.find(above[0], above[1] + 1_000_000_007L, 1)).isEqualTo(LoopGuard.NONE);
    }

    @Test
    void aBindMountOfAnAncestorIsALoop() throws Exception {
        assumeTrue(run("id -u").equals("0"), "bind mounts need root");
        Files.createDirectories(tmp.resolve("a/b/m"));
        Path m = tmp.resolve("a/b/m");
        assumeTrue(new ProcessBuilder("mount", "--bind", tmp.resolve("a").toString(), m.toString())
                .inheritIO().start().waitFor() == 0, "mount --bind is not allowed here");
        try {
            LoopGuard g = new LoopGuard(scratch);
            g.start(null);
            assertThat(g.enter(0, dir(tmp.resolve("a")))).isEqualTo(LoopGuard.NONE);
            assertThat(g.enter(1, dir(tmp.resolve("a/b")))).isEqualTo(LoopGuard.NONE);
            assertThat(g.enter(2, dir(m))).isEqualTo(0);
        } finally {
            closeAll();
            open.clear();
            assertThat(new ProcessBuilder("umount", m.toString()).inheritIO().start().waitFor()).isZero();
        }
    }

    private static String run(String cmd) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", cmd).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        return out;
    }
}
