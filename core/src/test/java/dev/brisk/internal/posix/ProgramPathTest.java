// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** execvp's rule, on real directories (the JVM runs as root here too: root may not run a file without an x bit). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProgramPathTest {
    @TempDir
    Path dir;

    private Path file(String name, String perms) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
        return p;
    }

    private static ProgramPath path(Object... entries) {
        return ProgramPath.of(java.util.Arrays.stream(entries).map(String::valueOf)
                .collect(java.util.stream.Collectors.joining(":")));
    }

    private static String found(ProgramPath p, String name) {
        ProgramPath.Program r = p.find(name.getBytes(UTF_8));
        return r.found() ? new String(r.path(), UTF_8) : "errno " + r.errno();
    }

    @Test
    void theFirstExecutableRegularFileWins() throws IOException {
        file("a/tool", "rw-r--r--");
        file("b/tool", "rwxr-xr-x");
        file("c/tool", "rwxr-xr-x");
        Files.createDirectories(dir.resolve("d/tool"));
        assertThat(found(path(dir.resolve("a"), dir.resolve("d"), dir.resolve("b"), dir.resolve("c")), "tool"))
                .isEqualTo(dir.resolve("b/tool").toString());
        assertThat(found(path(dir.resolve("b") + "/"), "tool")).isEqualTo(dir.resolve("b/tool").toString());
    }

    @Test
    void aFileWeMayNotRunGivesEaccesAndNothingGivesEnoent() throws IOException {
        file("a/tool", "rw-r--r--");
        Files.createDirectories(dir.resolve("d/dirtool"));
        assertThat(found(path(dir.resolve("a"), "/nonexistent"), "tool")).isEqualTo("errno " + Errno.EACCES);
        assertThat(found(path(dir.resolve("d")), "dirtool")).isEqualTo("errno " + Errno.EACCES);
        assertThat(found(path(dir.resolve("a")), "nothing")).isEqualTo("errno " + Errno.ENOENT);
        assertThat(found(path(dir.resolve("a")), "")).isEqualTo("errno " + Errno.ENOENT);
    }

    @Test
    void anEmptyEntryIsTheCurrentDirectoryAsForExecvp() throws IOException {
        file("here/tool", "rwxr-xr-x");
        byte[] here = dir.resolve("here").toString().getBytes(UTF_8);
        for (ProgramPath p : new ProgramPath[] {path("/nonexistent", ""), path("", "/nonexistent"),
                ProgramPath.of("/nonexistent::/x")}) {
            ProgramPath.Program r = p.findFrom(here, "tool".getBytes(UTF_8));
            assertThat(r.found()).isTrue();
            assertThat(new String(r.path(), UTF_8)).isEqualTo("./tool"); // relative to the child's directory
        }
        assertThat(path("/nonexistent").findFrom(here, "tool".getBytes(UTF_8)).errno()).isEqualTo(Errno.ENOENT);
        // the JVM's own directory: an empty entry finds what is there (this module's pom.xml is no program)
        assertThat(found(path(""), "pom.xml")).isEqualTo("errno " + Errno.EACCES);
    }

    @Test
    void aNameWithASlashIsUsedAsItIs() {
        assertThat(found(path("/nonexistent"), "./x/y")).isEqualTo("./x/y");
        assertThat(found(path("/nonexistent"), "/bin/sh")).isEqualTo("/bin/sh");
    }

    @Test
    void unsetPathIsGlibcsDefault() {
        assertThat(found(ProgramPath.of(null), "sh")).isIn("/bin/sh", "/usr/bin/sh");
    }

    @Test
    void namesAreBytes() throws IOException {
        byte[] name = {'t', (byte) 0xff, 'x'};
        Path d = Files.createDirectories(dir.resolve("bin"));
        Path p = Path.of(new String(d.toString().getBytes(UTF_8), UTF_8)); // the directory; the name below is not UTF-8
        byte[] full = (p + "/").getBytes(UTF_8);
        byte[] whole = new byte[full.length + name.length];
        System.arraycopy(full, 0, whole, 0, full.length);
        System.arraycopy(name, 0, whole, full.length, name.length);
        int fd = Libc.open(whole, Flags.O_WRONLY | Flags.O_CREAT | Flags.O_CLOEXEC, 0755);
        Libc.close(fd);
        ProgramPath.Program r = path(d).find(name);
        assertThat(r.found()).isTrue();
        assertThat(r.path()).isEqualTo(whole);
    }

    @Test
    void foundProgramsAreKeptUntilForgotten() throws IOException {
        Path tool = file("a/tool", "rwxr-xr-x");
        ProgramPath p = path(dir.resolve("a"), dir.resolve("b"));
        assertThat(found(p, "tool")).isEqualTo(tool.toString());
        Files.delete(tool);
        Path other = file("b/tool", "rwxr-xr-x");
        assertThat(found(p, "tool")).isEqualTo(tool.toString()); // kept, as a shell's hash table
        p.forget("tool".getBytes(UTF_8));
        assertThat(found(p, "tool")).isEqualTo(other.toString());
    }
}
