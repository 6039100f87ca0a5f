// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/** The real packaged {@code brisk}: help, version, exit statuses, and {@code brisk run}. */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MainIT {

    @Test
    void helpAndVersion() {
        BriskProcess.Run help = BriskProcess.run("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("Usage: brisk", "run", "Exit status");
        BriskProcess.Run version = BriskProcess.run("--version");
        assertThat(version.exit()).isZero();
        assertThat(version.out()).startsWith("brisk 0.");
        // the revision this tree's HEAD names (a build from a git clone), and the running Java
        String head = git("rev-parse", "HEAD");
        assertThat(version.out().lines()).containsExactly("brisk " + System.getProperty("brisk.version"),
                "built from git revision " + head,
                "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ", "
                        + System.getProperty("java.home") + ")");
    }

    @Test
    void libraryManifestNamesVersionRevisionAndJdk() throws Exception {
        java.nio.file.Path core = java.nio.file.Path.of(System.getProperty("brisk.root"), "core", "target",
                "brisk-core-" + System.getProperty("brisk.version") + ".jar");
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(core.toFile())) {
            java.util.jar.Attributes a = jar.getManifest().getMainAttributes();
            assertThat(a.getValue("Implementation-Version")).isEqualTo(System.getProperty("brisk.version"));
            assertThat(a.getValue("Build-Revision")).isEqualTo(git("rev-parse", "HEAD"));
            assertThat(a.getValue("Build-Jdk")).startsWith(System.getProperty("java.version"));
        }
    }

    private static String git(String... args) {
        try {
            java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("git", "-C", System.getProperty("brisk.root")));
            cmd.addAll(java.util.List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(p.waitFor()).as("git %s: %s", java.util.Arrays.toString(args), out).isZero();
            return out;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void usageErrorsAreOneLineAndStatus2() {
        BriskProcess.Run none = BriskProcess.run();
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).startsWith("brisk: missing subcommand");
        BriskProcess.Run unknown = BriskProcess.run("--no-such-flag");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("--no-such-flag").doesNotContain("Exception", "\tat ");
        assertThat(unknown.err().lines()).hasSize(1);
        BriskProcess.Run sub = BriskProcess.run("bogus");
        assertThat(sub.exit()).isEqualTo(2);
        assertThat(sub.err()).isEqualTo("brisk: unknown subcommand 'bogus' (try 'brisk --help')\n");
        BriskProcess.Run badJobs = BriskProcess.run("run", "-j", "0", "true");
        assertThat(badJobs.exit()).isEqualTo(2);
        assertThat(badJobs.err()).isEqualTo("brisk run: --jobs must be at least 1, got 0\n");
        BriskProcess.Run badShell = BriskProcess.run("run", "--shell", "no-such-shell", "true");
        assertThat(badShell.exit()).isEqualTo(1);
        assertThat(badShell.err().strip()).isEqualTo("brisk run: shell not found: 'no-such-shell' (not an executable file, nor on PATH)");
    }

    @Test
    void findThroughTheJarsMainClass() throws Exception {
        // the launcher enters find through FindMain (FindIT); java -jar goes through Main
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("brisk-main-find");
        try {
            java.nio.file.Files.writeString(dir.resolve("a.txt"), "x");
            BriskProcess.Run r = BriskProcess.run("find", dir.toString(), "-name", "*.txt");
            assertThat(r.exit()).isZero();
            assertThat(r.out()).isEqualTo(dir.resolve("a.txt") + "\n");
            BriskProcess.Run bad = BriskProcess.run("find", dir.toString(), "-bogus");
            assertThat(bad.exit()).isEqualTo(1);
            assertThat(bad.err()).isEqualTo("find: unknown predicate `-bogus'\n"); // GNU find's words
        } finally {
            java.nio.file.Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void runPrintsEachCommandsOutputWholeAndInOrder() {
        BriskProcess.Run r = BriskProcess.run("run", "-j", "3", "sleep 0.3; echo first", "echo second; echo e2 >&2", "printf 'third\\000'");
        assertThat(r.exit()).isZero();
        assertThat(r.stdout()).isEqualTo("first\nsecond\nthird\0".getBytes(StandardCharsets.UTF_8));
        assertThat(r.err()).isEqualTo("e2\n");
    }

    @Test
    void runReadsCommandsFromStdinAndFailsWhenOneFails() {
        BriskProcess.Run r = BriskProcess.run("echo a\nexit 4\necho c\n".getBytes(StandardCharsets.UTF_8), null, "run");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEqualTo("a\nc\n");
    }

    @Test
    void runTimesOut() {
        BriskProcess.Run r = BriskProcess.run("run", "--timeout", "0.2", "sleep 30");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("timed out: sleep 30");
    }
}
