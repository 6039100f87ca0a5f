// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared object {@link Kernel} writes is one that the system's own tools read as intended
 * (binutils' readelf: its type, its program headers, its one symbol and where it points), and
 * that this JVM loaded and calls; it is written once, into the user's own directory, and used
 * from there only while no one else could have changed it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KernelTest {
    @TempDir
    Path dir;

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void readelfReadsTheSharedObjectAsMeant() throws Exception {
        Assumptions.assumeTrue(new File("/usr/bin/readelf").canExecute(), "no readelf (binutils)");
        byte[] code = HexFormat.of().parseHex(Kernel.CODE);
        Path so = dir.resolve("k.so");
        Files.write(so, Kernel.sharedObject(code, Kernel.SYMBOL));
        String header = run("readelf", "-h", "-l", so.toString());
        assertThat(header).contains("DYN (Shared object file)").contains("X86-64");
        assertThat(header.lines().filter(l -> l.strip().startsWith("LOAD"))).hasSize(2);
        assertThat(header).contains("DYNAMIC").contains("GNU_STACK");
        // the stack line's flags: RW, not executable
        List<String> lines = header.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().startsWith("GNU_STACK")) {
                assertThat(lines.get(i + 1)).contains("RW ").doesNotContain("RWE");
            }
        }
        String syms = run("readelf", "-W", "-s", "-D", so.toString()); // the symbols by the dynamic section (there are no sections)
        String line = syms.lines().filter(l -> l.contains(Kernel.SYMBOL)).findFirst().orElseThrow();
        assertThat(line).contains("FUNC").contains("GLOBAL").contains("DEFAULT");
        // the symbol's value and size are the code's place and length in the file (mapped at offset 0)
        String[] f = line.strip().split("\\s+");
        long value = Long.parseLong(f[1], 16);
        int size = Integer.parseInt(f[2]);
        assertThat(size).isEqualTo(code.length);
        byte[] file = Files.readAllBytes(so);
        byte[] at = java.util.Arrays.copyOfRange(file, (int) value, (int) value + size);
        assertThat(at).isEqualTo(code);
    }

    @Test
    void thisJvmCallsByJni() {
        String arch = System.getProperty("os.arch");
        Assumptions.assumeTrue("amd64".equals(arch) || "x86_64".equals(arch), "x86-64 only");
        assertThat(Syscall.how()).isEqualTo("brisk's JNI method");
        assertThat(Kernel.call(Syscall.GETPID, 0, 0, 0, 0, 0, 0)).isEqualTo(ProcessHandle.current().pid());
        assertThat(Kernel.call(Syscall.CLOSE, -1, 0, 0, 0, 0, 0)).isEqualTo(-Errno.EBADF);
    }

    private static int uid() throws Exception {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    /**
     * The object is written once into the user's 0700 directory, named by its content, and
     * found there by the next run; a directory open to others, or another user's, is not used,
     * and a file under the name that holds other bytes is replaced.
     */
    @Test
    void theObjectIsKeptInTheUsersOwnDirectory() throws Exception {
        String old = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", dir.toString());
        try {
            byte[] so = Kernel.sharedObject(HexFormat.of().parseHex(Kernel.CODE), Kernel.SYMBOL);
            Path file = Kernel.cached(so);
            Path own = dir.resolve("brisk-jni-" + uid());
            assertThat(file.getParent()).isEqualTo(own);
            assertThat(Files.readAllBytes(file)).isEqualTo(so);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(own))).isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rwx------");
            FileTime written = Files.getLastModifiedTime(file);
            Thread.sleep(20);
            assertThat(Kernel.cached(so)).isEqualTo(file);
            assertThat(Files.getLastModifiedTime(file)).as("found, not written again").isEqualTo(written);
            try (Stream<Path> s = Files.list(own)) {
                assertThat(s.toList()).containsExactly(file); // no .part left
            }
            // other bytes under the name (a file cut short): replaced whole
            Files.write(file, Arrays.copyOf(so, 100));
            assertThat(Kernel.cached(so)).isEqualTo(file);
            assertThat(Files.readAllBytes(file)).isEqualTo(so);
            // this JVM loads it (a second library of the same bytes and name is the same one)
            assertThat(Kernel.load()).isTrue();
            // a directory others may write to is not trusted
            Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwxrwxrwx"));
            assertThat(Kernel.cached(so)).isNull();
            assertThat(Kernel.load()).isFalse();
            // nor a link in its place
            Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwx------"));
            Path moved = Files.move(own, dir.resolve("elsewhere"));
            Files.createSymbolicLink(own, moved);
            assertThat(Kernel.cached(so)).isNull();
        } finally {
            System.setProperty("java.io.tmpdir", old);
        }
    }
}
