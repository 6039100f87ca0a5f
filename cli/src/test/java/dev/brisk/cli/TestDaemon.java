// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How the CLI tests reach brisk: through the native client and one warm server per test JVM
 * (the default, as users call it), or by starting the JVM for each call ({@code
 * -Dbrisk.via=jvm}). The server is this JVM's own child, in a socket directory of its own
 * (a private {@code XDG_RUNTIME_DIR}), started on first use and killed and reaped when the
 * test JVM ends.
 */
final class TestDaemon {
    private static TestDaemon instance;

    private final Path runtime;
    private final Path launcher;
    private final Process server;

    private TestDaemon(Path runtime, Path launcher, Process server) {
        this.runtime = runtime;
        this.launcher = launcher;
        this.server = server;
    }

    /** Whether calls go through the client and the server (else each starts a JVM). */
    static boolean enabled() {
        return !"jvm".equals(System.getProperty("brisk.via", "daemon"));
    }

    /** The native client's path. */
    static Path client() {
        return Path.of(System.getProperty("brisk.client", "target/brisk-client")).toAbsolutePath();
    }

    /** The test JVM's server, started on first use. */
    static synchronized TestDaemon get() {
        if (instance == null) {
            instance = start(null);
        }
        return instance;
    }

    /**
     * Starts a server of its own in a new socket directory, {@code extraJvmArgs} (may be null)
     * before the jar, e.g. {@code -Dbrisk.build=other}; waits until it listens.
     */
    static TestDaemon start(List<String> extraJvmArgs, String... daemonArgs) {
        try {
            Path runtime = Files.createTempDirectory("brisk-it-run-");
            Path launcher = runtime.resolve("brisk-jvm");
            String jvm = System.getProperty("brisk.java", "java");
            String jar = Path.of(System.getProperty("brisk.jar", "target/brisk.jar")).toAbsolutePath().toString();
            // bash, as the package's /usr/lib/brisk/brisk-jvm: dash would drop exported bash functions
            Files.writeString(launcher, "#!/bin/bash\nexec '" + jvm + "' --enable-native-access=ALL-UNNAMED -XX:-MaxFDLimit"
                    + " -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData ${BRISK_JVM_OPTS:-} -jar '" + jar + "' \"$@\"\n");
            Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
            List<String> cmd = new ArrayList<>(List.of(jvm, "--enable-native-access=ALL-UNNAMED", "-XX:-MaxFDLimit",
                    "-XX:+UseSerialGC", "-XX:-UsePerfData"));
            if (extraJvmArgs != null) {
                cmd.addAll(extraJvmArgs);
            }
            cmd.addAll(List.of("-jar", jar, "daemon", "run"));
            cmd.addAll(List.of(daemonArgs.length > 0 ? daemonArgs : new String[] {"--idle=0"}));
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
            pb.environment().remove("BRISK_SOCKET");
            pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.redirectErrorStream(true);
            pb.redirectOutput(runtime.resolve("daemon.log").toFile());
            Process p = pb.start();
            TestDaemon d = new TestDaemon(runtime, launcher, p);
            Runtime.getRuntime().addShutdownHook(new Thread(d::stop));
            Path pid = runtime.resolve("brisk").resolve("daemon.pid");
            for (int i = 0; i < 1200 && !Files.exists(pid); i++) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("the test server exited: " + Files.readString(runtime.resolve("daemon.log")));
                }
                Thread.sleep(25);
            }
            if (!Files.exists(pid)) {
                d.stop();
                throw new IllegalStateException("the test server did not listen within 30 s");
            }
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The server's process. */
    Process process() {
        return server;
    }

    /** The socket directory ({@code XDG_RUNTIME_DIR/brisk}). */
    Path directory() {
        return runtime.resolve("brisk");
    }

    /** What the server wrote to its log. */
    String log() throws IOException {
        return Files.readString(runtime.resolve("daemon.log"));
    }

    /**
     * The command prefix that runs brisk through the client to this server: {@code env} with
     * the server's directory and the JVM launcher for direct runs, then the client.
     */
    List<String> command() {
        return List.of("/usr/bin/env", "-u", "BRISK_SOCKET", "-u", "BRISK_DAEMON", "XDG_RUNTIME_DIR=" + runtime,
                "BRISK_JVM=" + launcher, client().toString());
    }

    /** Kills the server and reaps it. */
    void stop() {
        server.destroy();
        try {
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
                server.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            server.destroyForcibly();
        }
    }
}
