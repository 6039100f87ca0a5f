// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * that this JVM loaded and calls; it leaves no file behind.
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
    void thisJvmCallsByJniAndLeftNoFileBehind() throws Exception {
        String arch = System.getProperty("os.arch");
        Assumptions.assumeTrue("amd64".equals(arch) || "x86_64".equals(arch), "x86-64 only");
        assertThat(Syscall.how()).isEqualTo("brisk's JNI method");
        assertThat(Kernel.call(Syscall.GETPID, 0, 0, 0, 0, 0, 0)).isEqualTo(ProcessHandle.current().pid());
        assertThat(Kernel.call(Syscall.CLOSE, -1, 0, 0, 0, 0, 0)).isEqualTo(-Errno.EBADF);
        // a second load writes and maps a file of its own, and deletes it too
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        assertThat(Kernel.load()).isTrue();
        try (Stream<Path> s = Files.list(tmp)) {
            assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("brisk-") && n.endsWith(".so"))).isEmpty();
        }
    }
}
