// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Test helper: runs the packaged {@code brisk} as a real process and collects what it did. */
final class BriskProcess {
    /** The outcome of one run: exit status and both streams, byte for byte. */
    record Run(int exit, byte[] stdout, byte[] stderr) {
        String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }

        String err() {
            return new String(stderr, StandardCharsets.UTF_8);
        }
    }

    private BriskProcess() {}

    /**
     * Writes {@code dir/brisk}, a launcher script for the packaged brisk (C1 only, serial GC, the
     * caller's {@code BRISK_JVM_OPTS}), with permissions {@code mode}, and returns its path.
     */
    static Path launcher(Path dir, String mode) throws java.io.IOException {
        String jvm = System.getProperty("brisk.java", "java");
        String jar = System.getProperty("brisk.jar", "target/brisk.jar");
        Path brisk = dir.resolve("brisk");
        if (TestDaemon.enabled()) {
            // bash passes the whole environment on, as the package's native /usr/bin/brisk is run
            // (dash would drop exported bash functions)
            StringBuilder line = new StringBuilder("#!/bin/bash\nexec");
            for (String w : TestDaemon.get().command()) {
                line.append(" '").append(w).append('\'');
            }
            java.nio.file.Files.writeString(brisk, line + " \"$@\"\n");
        } else {
            java.nio.file.Files.writeString(brisk, "#!/bin/bash\nexec '" + jvm + "' --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 "
                    + "-XX:+UseSerialGC -XX:-UsePerfData ${BRISK_JVM_OPTS:-} -jar '" + jar + "' \"$@\"\n");
        }
        java.nio.file.Files.setPosixFilePermissions(brisk, java.nio.file.attribute.PosixFilePermissions.fromString(mode));
        return brisk;
    }

    static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>();
        if (TestDaemon.enabled()) {
            cmd.addAll(TestDaemon.get().command());
            cmd.addAll(List.of(args));
            return cmd;
        }
        cmd.add(System.getProperty("brisk.java", "java"));
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-XX:-UsePerfData"); // no hsperfdata file, and no warning on stderr when its number is taken
        cmd.add("-jar");
        cmd.add(System.getProperty("brisk.jar", Path.of("target/brisk.jar").toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Runs brisk with {@code args}, feeding {@code stdin} (null: none), in {@code dir} (null: here). */
    static Run run(byte[] stdin, Path dir, String... args) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command(args));
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            if (stdin == null) {
                pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            }
            Process p = pb.start();
            CompletableFuture<byte[]> out = drain(p.getInputStream());
            CompletableFuture<byte[]> err = drain(p.getErrorStream());
            if (stdin != null) {
                try (var in = p.getOutputStream()) {
                    in.write(stdin);
                }
            }
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("brisk did not finish in 60 s: " + List.of(args));
            }
            return new Run(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static Run run(String... args) {
        return run(null, null, args);
    }

    private static CompletableFuture<byte[]> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                in.transferTo(b);
                return b.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
