// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Python client as its users get it: a fresh virtual environment installs
 * {@code clients/python} with pip, offline (setuptools and wheel as Debian ships them), and the
 * package's own {@code unittest} suite passes against a real {@code brisk serve} started here and
 * stopped by its PID.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PythonPackageIT {
    private static final Path SOURCE = Path.of(System.getProperty("brisk.root", "..")).toAbsolutePath().normalize()
            .resolve("clients/python");
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    @Test
    void aFreshVenvInstallsThePackageFromTheTreeAndPassesItsTests() throws Exception {
        Path work = Files.createTempDirectory("brisk-python-it");
        try {
            installAndTest(work);
        } finally {
            // by hand, not @TempDir: the venv's python is a symbolic link out of the directory
            try (Stream<Path> files = Files.walk(work)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    private static void installAndTest(Path work) throws Exception {
        // a copy: pip builds in the source directory, and the tree is left as it was
        Path src = work.resolve("src");
        copyTree(SOURCE, src);
        Path venv = work.resolve("venv");
        Path python = venv.resolve("bin/python");
        run(work, Map.of(), PYTHON.toString(), "-m", "venv", "--system-site-packages", venv.toString());
        // --isolated: no user or site pip configuration; --no-index: nothing is downloaded
        run(work, Map.of(), python.toString(), "-m", "pip", "--isolated", "install", "--no-index", "--no-build-isolation",
                "--quiet", src.toString());
        String where = run(work, Map.of(), python.toString(), "-c",
                "import brisk_client, os; print(os.path.dirname(brisk_client.__file__))").strip();
        assertThat(Path.of(where)).startsWith(venv);
        assertThat(Path.of(where, "py.typed")).exists();
        try (ServeServer server = ServeServer.start("-j", "8")) {
            String out = run(work, Map.of("BRISK_SOCKET", server.socket.toString()), python.toString(),
                    "-m", "unittest", "discover", "-v", "-s", src.resolve("tests").toString());
            Matcher ran = Pattern.compile("\nRan (\\d+) tests? in ").matcher(out);
            assertThat(ran.find()).as(out).isTrue();
            assertThat(Integer.parseInt(ran.group(1))).as(out).isGreaterThanOrEqualTo(20);
            assertThat(out).as(out).contains("\nOK").doesNotContain("skipped");
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                String rel = from.relativize(f).toString();
                if (rel.startsWith("build") || rel.contains(".egg-info") || rel.contains("__pycache__")) {
                    continue;
                }
                Path target = to.resolve(rel);
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }

    /** Runs cmd in dir and returns its output (stdout and stderr); fails unless it exits 0 within 120 s. */
    private static String run(Path dir, Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().remove("PYTHONPATH");
        pb.environment().putAll(env);
        return ProcessOutput.of(pb, 120);
    }
}
