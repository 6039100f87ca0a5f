// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Row claims on one display: lowest free row first, the last to leave learns the group's size. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RowClaimTest {
    @TempDir
    Path dir;

    @Test
    void metersOnOneDisplayTakeTheLowestFreeRowAndTheLastLearnsTheGroupSize() throws Exception {
        Path display = Files.createFile(dir.resolve("display"));
        int fd = open(display);
        try {
            RowClaim first = RowClaim.claim(fd);
            RowClaim second = RowClaim.claim(fd);
            assertThat(first).isNotNull();
            assertThat(second).isNotNull();
            assertThat(first.row()).isZero();
            assertThat(second.row()).isEqualTo(1);
            assertThat(first.release()).as("others still draw").isZero();
            RowClaim third = RowClaim.claim(fd);
            assertThat(third.row()).as("a freed row is reused").isZero();
            assertThat(third.release()).isZero();
            assertThat(second.release()).as("the last one: two rows were in use").isEqualTo(2);
            RowClaim again = RowClaim.claim(fd);
            assertThat(again.row()).as("a new group starts on the cursor's line").isZero();
            assertThat(again.release()).isEqualTo(1);
        } finally {
            Libc.close(fd);
        }
    }

    /** The last meter of a group removes its file; a mark left at the name by a killed remover is used as empty. */
    @Test
    void theLastToLeaveRemovesTheFileAndALeftoverMarkIsUsedAsEmpty() throws Exception {
        Path display = Files.createFile(dir.resolve("display"));
        int fd = open(display);
        try {
            Path file = RowClaim.fileOf(display);
            RowClaim first = RowClaim.claim(fd);
            RowClaim second = RowClaim.claim(fd);
            assertThat(Files.readString(file)).startsWith("2\n");
            assertThat(first.release()).isZero();
            assertThat(Files.exists(file)).as("a meter still draws").isTrue();
            assertThat(second.release()).isEqualTo(2);
            assertThat(Files.exists(file)).as("removed by the last to leave").isFalse();
            Files.writeString(file, "gone 1 2\n");
            RowClaim late = RowClaim.claim(fd);
            assertThat(late.row()).isZero();
            assertThat(Files.readString(file)).isEqualTo("1\n" + ProcessHandle.current().pid() + "\n");
            assertThat(late.release()).isEqualTo(1);
            assertThat(Files.exists(file)).isFalse();
        } finally {
            Libc.close(fd);
        }
    }

    /**
     * A meter that opened the file before its last meter removed it, and got the lock after,
     * claims its row in the file then at the name, not in the removed one. The remover is another
     * process (python3, with the same fcntl lock as the JVM's): it holds the lock until this JVM
     * has the file open and waits for it.
     */
    @Test
    void aMeterWaitingOnARemovedFileFollowsTheName() throws Exception {
        Path display = Files.createFile(dir.resolve("display"));
        int fd = open(display);
        Path file = RowClaim.fileOf(display);
        Process remover = new ProcessBuilder("python3", "-c", """
                import fcntl, os, sys
                f = open(sys.argv[1], 'w+')
                f.write('1\\n%d\\n' % os.getpid()); f.flush()
                fcntl.lockf(f, fcntl.LOCK_EX)
                print('locked', flush=True)
                sys.stdin.readline()
                f.seek(0); f.truncate(); f.write('gone %d 1\\n' % os.getpid()); f.flush()
                os.unlink(sys.argv[1])
                f.close()
                """, file.toString()).redirectErrorStream(true).start();
        try {
            var said = new java.io.BufferedReader(new java.io.InputStreamReader(remover.getInputStream(), StandardCharsets.UTF_8));
            assertThat(said.readLine()).isEqualTo("locked");
            java.util.concurrent.atomic.AtomicReference<RowClaim> got = new java.util.concurrent.atomic.AtomicReference<>();
            Thread claimer = Thread.ofPlatform().start(() -> got.set(RowClaim.claim(fd)));
            while (!openHere(file)) {
                Thread.sleep(10); // the claim has opened the file, and waits for its lock
            }
            remover.getOutputStream().write('\n');
            remover.getOutputStream().flush();
            claimer.join();
            assertThat(remover.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(got.get()).isNotNull();
            assertThat(got.get().row()).isZero();
            assertThat(Files.readString(file)).as("a new file at the name").isEqualTo("1\n" + ProcessHandle.current().pid() + "\n");
            assertThat(got.get().release()).isEqualTo(1);
            assertThat(Files.exists(file)).isFalse();
        } finally {
            remover.destroyForcibly().waitFor();
            Libc.close(fd);
            Files.deleteIfExists(file);
        }
    }

    /** {@code display} opened for writing, as a meter's stderr. */
    private static int open(Path display) throws Exception {
        return Libc.open(display.toString().getBytes(StandardCharsets.UTF_8), Flags.O_WRONLY, 0);
    }

    /** True when a descriptor of this process has {@code file} open. */
    private static boolean openHere(Path file) throws java.io.IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.anyMatch(f -> {
                try {
                    return Files.readSymbolicLink(f).equals(file);
                } catch (java.io.IOException e) {
                    return false;
                }
            });
        }
    }

    @Test
    void anotherDisplayIsAnotherGroup() throws Exception {
        int a = open(Files.createFile(dir.resolve("a")));
        int b = open(Files.createFile(dir.resolve("b")));
        try {
            RowClaim onA = RowClaim.claim(a);
            RowClaim onB = RowClaim.claim(b);
            assertThat(onA.row()).isZero();
            assertThat(onB.row()).isZero();
            assertThat(onA.release()).isEqualTo(1);
            assertThat(onB.release()).isEqualTo(1);
        } finally {
            Libc.close(a);
            Libc.close(b);
        }
    }
}
