// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The language clients of {@code brisk serve} (Python, Common Lisp, Java) start the user's
 * brisk server when none answers on the default socket, as the {@code brisk} command does: each
 * runs a command with no server running in a socket directory of its own, through {@code brisk
 * daemon start} (the native client, {@code $BRISK_COMMAND}); the server it started is stopped and
 * reaped by its pid at the end.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClientsStartServerIT {
    private static final Path ROOT = Path.of(System.getProperty("brisk.root", "..")).toAbsolutePath().normalize();
    private Path runtime;
    private Path brisk;

    @BeforeEach
    void noServer() throws Exception {
        runtime = Files.createTempDirectory("brisk-it-start-");
        brisk = nativeCommand(runtime);
    }

    /**
     * The native client as a command in {@code runtime} ({@code brisk-command}, with its JVM
     * launcher beside it), for a run with {@code XDG_RUNTIME_DIR=runtime}: no server there yet.
     */
    static Path nativeCommand(Path runtime) throws java.io.IOException {
        Path launcher = runtime.resolve("brisk-jvm");
        String jar = Path.of(System.getProperty("brisk.jar", "target/brisk.jar")).toAbsolutePath().toString();
        Files.writeString(launcher, "#!/bin/sh\nexec '" + System.getProperty("brisk.java", "java")
                + "' --enable-native-access=ALL-UNNAMED -XX:-MaxFDLimit -XX:+UseSerialGC -XX:-UsePerfData -jar '" + jar + "' \"$@\"\n");
        Path brisk = runtime.resolve("brisk-command"); // not "brisk": the socket directory has that name
        Files.writeString(brisk, "#!/bin/sh\nBRISK_JVM='" + launcher + "' exec '" + TestDaemon.client() + "' \"$@\"\n");
        for (Path p : List.of(launcher, brisk)) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        }
        return brisk;
    }

    @AfterEach
    void stopServer() throws Exception {
        Path pid = runtime.resolve("brisk").resolve("daemon.pid");
        for (int i = 0; i < 100 && !Files.exists(pid); i++) {
            Thread.sleep(50);
        }
        if (Files.exists(pid)) {
            long n = Long.parseLong(Files.readString(pid).strip());
            ProcessHandle.of(n).ifPresent(h -> {
                h.destroy();
                h.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(t -> {
                    h.destroyForcibly();
                    return h;
                }).join();
            });
        }
    }

    private String run(List<String> cmd) throws Exception {
        assertThat(Files.exists(runtime.resolve("brisk").resolve("daemon.sock"))).as("no server yet").isFalse();
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        pb.environment().remove("BRISK_SOCKET");
        pb.environment().put("BRISK_COMMAND", brisk.toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(100, TimeUnit.SECONDS)).isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        assertThat(runtime.resolve("brisk").resolve("daemon.pid")).exists();
        return text;
    }

    /**
     * The clone's {@code ./brisk} passes the caller's exported bash functions to the jobs: on the
     * direct path, on a first call (run directly while it starts the server) and through that
     * server (a dash script dropped them: "doit: command not found").
     */
    @Test
    void theClonesLauncherPassesExportedFunctions() throws Exception {
        String script = "doit() { echo \"did $1\"; }; export -f doit; \"$0\" par -k doit ::: a b";
        assertThat(clone(script, "0")).isEqualTo("did a\ndid b\n");
        assertThat(clone(script, "1")).isEqualTo("did a\ndid b\n");
        Path pid = runtime.resolve("brisk").resolve("daemon.pid");
        for (int i = 0; i < 200 && !Files.exists(pid); i++) {
            Thread.sleep(50);
        }
        assertThat(pid).as("the server the first call started").exists();
        assertThat(clone(script, "1")).isEqualTo("did a\ndid b\n");
    }

    /** Runs bash {@code script} with {@code $0} the clone's {@code ./brisk} and {@code BRISK_DAEMON=daemon}; its output, status 0. */
    private String clone(String script, String daemon) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script, ROOT.resolve("brisk").toString()).redirectErrorStream(true);
        pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        pb.environment().remove("BRISK_SOCKET");
        pb.environment().putAll(java.util.Map.of("BRISK_DAEMON", daemon, "BRISK_NO_BUILD", "1", "BRISK_NO_AOT", "1"));
        Process p = pb.start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(100, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(text).isZero();
        return text;
    }

    @Test
    void pythonStartsTheServer() throws Exception {
        String out = run(List.of("python3", "-c", "import sys\nsys.path.insert(0, sys.argv[1])\nimport brisk_client\n"
                + "print(brisk_client.run('echo hi from $((1+1))', text=True).stdout.strip())", ROOT.resolve("clients/python").toString()));
        assertThat(out).isEqualTo("hi from 2\n");
    }

    @Test
    void pythonAsyncClientStartsTheServer() throws Exception {
        String out = run(List.of("python3", "-c", "import asyncio, sys\nsys.path.insert(0, sys.argv[1])\nimport brisk_client\n"
                + "async def main():\n    async with brisk_client.AsyncClient() as c:\n"
                + "        print((await c.run('echo hi from $((1+1))', text=True)).stdout.strip())\n"
                + "asyncio.run(main())", ROOT.resolve("clients/python").toString()));
        assertThat(out).isEqualTo("hi from 2\n");
    }

    @Test
    void lispStartsTheServer() throws Exception {
        Path script = runtime.resolve("t.lisp");
        Files.writeString(script, "(load \"" + ROOT.resolve("clients/lisp/brisk.lisp") + "\")\n"
                + "(write-string (brisk:run \"echo hi from $((1+1))\"))\n");
        String out = run(List.of("sbcl", "--script", script.toString()));
        assertThat(out).isEqualTo("hi from 2\n");
    }

    @Test
    void javaStartsTheServer() throws Exception {
        Path source = runtime.resolve("Start.java");
        Files.writeString(source, """
                public class Start {
                    public static void main(String[] a) throws Exception {
                        try (var c = dev.brisk.serve.BriskClient.connect()) {
                            System.out.print(c.run(dev.brisk.shell.Command.of("echo hi from $((1+1))")).stdoutText());
                        }
                    }
                }
                """);
        Path core = Files.list(ROOT.resolve("core/target")).filter(p -> p.getFileName().toString().matches("brisk-core-.*[0-9T]\\.jar"))
                .findFirst().orElseThrow();
        String out = run(List.of(System.getProperty("brisk.java", "java"), "--enable-native-access=ALL-UNNAMED", "-cp",
                core.toString(), source.toString()));
        assertThat(out).isEqualTo("hi from 2\n");
    }
}
