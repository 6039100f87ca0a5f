// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands brisk runs get the resource limits brisk was started with, as GNU find's and GNU
 * parallel's do: HotSpot raises its own soft open-file limit to the hard one unless told not to
 * ({@code -XX:-MaxFDLimit}, which the launcher passes), and every child would inherit the raised
 * one. Differential: the same command under {@code ulimit -Sn 64} through GNU find (or GNU
 * parallel) and through brisk.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ChildLimitsIT {
    /** Runs the rest of the command line with a soft open-file limit of 64 (the hard one unchanged). */
    private static final List<String> LOW = List.of("bash", "-c", "ulimit -Sn 64; exec \"$@\"", "sh");
    private static final String SHOW = "echo $(ulimit -Sn) $(ulimit -Hn)";

    @TempDir
    Path dir;

    private static String out(FindIT.Result r) {
        assertThat(r.status()).as(r.errText()).isZero();
        return new String(r.out(), StandardCharsets.UTF_8);
    }

    @Test
    void findsCommandsSeeTheSoftLimitFindWasStartedWith() throws Exception {
        Files.createDirectory(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/f"), "x");
        String hard = out(FindIT.run(dir, List.of("bash", "-c", "ulimit -Hn"), null)).strip();
        for (List<String> expression : List.of(
                List.of(".", "-maxdepth", "0", "-exec", "sh", "-c", SHOW, ";"),
                List.of("sub", "-name", "f", "-execdir", "sh", "-c", SHOW, ";"),
                List.of(".", "-maxdepth", "0", "-exec", "sh", "-c", SHOW, "sh", "{}", "+"),
                List.of(".", "-maxdepth", "0", "-ok", "sh", "-c", SHOW, ";"))) {
            byte[] yes = "y\n".getBytes(StandardCharsets.US_ASCII);
            String gnu = out(FindIT.run(dir, FindIT.concat(LOW, FindIT.concat(List.of("find"), expression)), yes));
            String ours = out(FindIT.brisk(dir, LOW, FindIT.concat(List.of("find"), expression), yes));
            assertThat(ours).as("%s", expression).isEqualTo(gnu).isEqualTo("64 " + hard + "\n");
        }
    }

    @Test
    void parsJobsSeeTheSoftLimitParWasStartedWith() throws Exception {
        String limits = "grep -h Max.open.files";
        // a job on the warm dash, one spawned directly, a pipeline spawned directly, a job on the pool
        for (List<String> args : List.of(List.of("-j1", SHOW, ":::", "x"),
                List.of("-j1", limits, ":::", "/proc/self/limits"),
                List.of("-j1", limits + " {} | cat", ":::", "/proc/self/limits"),
                List.of("-j1", "--line-buffer", SHOW, ":::", "x"))) {
            String gnu = out(FindIT.run(dir, FindIT.concat(LOW, FindIT.concat(List.of("parallel", "--will-cite"), args)), null));
            assertThat(gnu).containsPattern("(^| )64 ");
            assertThat(out(FindIT.brisk(dir, LOW, FindIT.concat(List.of("par"), args), null))).as("%s", args).isEqualTo(gnu);
        }
        String shell = out(FindIT.run(dir, FindIT.concat(LOW, List.of("bash", "-c", SHOW)), null));
        assertThat(out(FindIT.brisk(dir, LOW, List.of("run", SHOW), null))).isEqualTo(shell).startsWith("64 ");
    }

    /**
     * The commands find starts get the signal dispositions find was started with: ignored ones
     * stay ignored ({@code trap '' HUP}), the rest are at their default, glibc's two internal
     * signals (32 and 33) included, which glibc's posix_spawn would leave ignored. The shell is
     * started with 32 and 33 at their default (by a raw rt_sigaction, which glibc's own refuses;
     * a JVM's children start with them ignored), and with SIGPIPE and SIGXFSZ at their default,
     * which the JVM takes over (see docs/FIND.md).
     */
    @Test
    void findsCommandsSeeTheSignalDispositionsFindWasStartedWith() throws Exception {
        String defaults = """
                import ctypes, os, platform, signal, sys
                libc = ctypes.CDLL(None, use_errno=True)
                nr = {'x86_64': 13, 'aarch64': 134}[platform.machine()]
                action = (ctypes.c_ulong * 4)()
                for sig in (32, 33):
                    assert libc.syscall(nr, sig, ctypes.byref(action), None, 8) == 0
                for sig in (signal.SIGPIPE, signal.SIGXFSZ):
                    signal.signal(sig, signal.SIG_DFL)
                os.execvp(sys.argv[1], sys.argv[1:])
                """;
        List<String> wrapper = List.of("python3", "-c", defaults, "bash", "-c", "trap '' HUP; exec \"$@\"", "sh");
        List<String> expression = List.of(".", "-maxdepth", "0", "-exec", "grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status", ";");
        String gnu = out(FindIT.run(dir, FindIT.concat(wrapper, FindIT.concat(List.of("find"), expression)), null));
        String ours = out(FindIT.brisk(dir, wrapper, FindIT.concat(List.of("find"), expression), null));
        assertThat(ours).isEqualTo(gnu).contains("SigIgn:\t0000000000000001");
    }

    /**
     * The launcher itself, as a user types it, on its direct path ({@code BRISK_DAEMON=0}: the
     * server's path is the other tests'), in a runtime directory of the test's own: it starts no
     * server, least of all in the user's own directory.
     */
    @Test
    void throughTheLauncher() throws Exception {
        Path launcher = Path.of(System.getProperty("brisk.root", ".."), "brisk").toAbsolutePath();
        Path runtime = java.nio.file.Files.createDirectories(dir.resolve("launcher-run"));
        Path state = java.nio.file.Files.createDirectories(dir.resolve("launcher-state"));
        java.nio.file.Files.setPosixFilePermissions(runtime, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        List<String> env = List.of("env", "XDG_RUNTIME_DIR=" + runtime, "XDG_STATE_HOME=" + state, "BRISK_DAEMON=0",
                "BRISK_NO_BUILD=1", "BRISK_NO_AOT=1");
        FindIT.Result r = FindIT.run(dir, FindIT.concat(env, List.of("bash", "-c",
                "ulimit -Sn 64; \"$0\" find . -maxdepth 0 -exec sh -c 'ulimit -Sn' \\; && ls -A \"$1\"", launcher.toString(),
                runtime.toString())), null);
        assertThat(out(r)).isEqualTo("64\n");
    }
}
