// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --pipe}'s records ({@code -N}, {@code -L}, {@code -l}, {@code --block},
 * {@code --recstart}, {@code --recend}, {@code --regexp}, {@code --spreadstdin}, {@code --pipepart},
 * {@code --cat}, {@code --fifo}, {@code --files}): each command
 * line run by GNU parallel 20221122 and by {@code brisk par}, with the same stdout, stderr (GNU's
 * {@code parallel: Error: } and {@code parallel: Warning: } read as brisk's) and status.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParPipeIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void inputs() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 100_000; i++) {
            lines.append(i).append('\n');
        }
        Files.writeString(dir.resolve("hundredk"), lines);
        Files.writeString(dir.resolve("thirty"), lines.substring(0, lines.indexOf("\n31\n") + 1));
        Files.writeString(dir.resolve("fasta"), ">a\n1\n2\n>b\n3\n>c\n4\n5\n6\n");
        Files.writeString(dir.resolve("garbage"), "x\ny\n>a\n1\n2\n>b\n3\n>c\n4\n5\n6\n");
        Files.writeString(dir.resolve("semis"), "a;b;c;dd;eee;f");
        Files.writeString(dir.resolve("numbered"), "a1Xb22Xc333Xd");
        Files.write(dir.resolve("nul"), "a\0bb\0ccc\0dddd\0".getBytes(StandardCharsets.US_ASCII));
        Files.write(dir.resolve("zeros"), new byte[5000]);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "--pipe -k wc -l < hundredk",
        "--pipe --block 100k -k wc -l < hundredk",
        "--pipe --block 10K -k 'wc -c' < hundredk",
        "--spreadstdin --blocksize 50000 -k wc < hundredk",
        "--pipe -N7 -k 'echo {#}; wc -l' < thirty",
        "--pipe -n 4 -k 'echo [; cat' < thirty",
        "--pipe -N 10000 -k wc -l < hundredk",
        "--pipe -L4 --block 20 -k 'echo {#}; wc -l' < thirty",
        "--pipe -l3 --block 10 -k 'echo {#}; wc -l' < thirty",
        "--pipe -l --block 5 -k 'echo {#}; wc -l' < thirty",
        "--pipe -N2 -L3 -k 'echo [; cat' < thirty",
        "--pipe --recstart '>' -N1 -k 'echo [; cat' < fasta",
        "--pipe --recstart '>' --block 8 -k 'echo [; cat' < fasta",
        "--pipe --recstart '>' -N2 -k 'echo [; cat' < garbage",
        "--pipe --regexp --recstart '^>' -N1 -k 'echo [; cat' < garbage",
        "--pipe --regexp --recstart '^>' --block 10 -k 'echo [; cat' < fasta",
        "--pipe --recend ';' --block 3 -k 'echo [; cat; echo' < semis",
        "--pipe --recend ';' -N2 -k 'echo [; cat; echo' < semis",
        "--pipe --recend '\\n>' --recstart '' -N1 -k 'echo [; cat' < fasta",
        "--pipe --recend '\\0' -N2 -k 'echo [; tr \\\\0 _; echo' < nul",
        "--pipe --regexp --recend '[0-9]+X' -N1 -k 'echo [; cat; echo' < numbered",
        "--pipe --regexp --recend '[0-9]+X' --block 4 -k 'echo [; cat; echo' < numbered",
        "--pipe --block 1k -k 'wc -c' < zeros",
        "--pipe -k 'test -p /dev/stdin && echo pipe || echo not a pipe; cat >/dev/null' < thirty",
        "--pipe < thirty",
        "--pipe --tag --block 30 -k wc -l < thirty",
        "--pipe -v --block 30 -k 'echo x{}y; wc -l' < thirty",
        "--pipepart -a hundredk -k wc -l",
        "--pipepart -j3 -a hundredk -k wc -l",
        "--pipepart --block 100k -a hundredk -k wc -l",
        "--pipepart --block 10 -a fasta --recstart '>' -k 'echo [; cat'",
        "--pipepart --block 3 -a fasta --regexp --recstart '>' -k 'echo [; cat'",
        "--pipepart -N2 -a thirty cat",
        "--pipepart -a nosuch cat",
        "--cat --block 30 -k 'wc -l < {}; test -f {} && echo file' < thirty",
        "--pipe --cat -k 'test -s' < thirty",
        "--fifo --block 30 -k 'test -p {} && wc -l < {}' < thirty",
        "--fifo --cat cat < thirty",
        "--pipe --block 30 -k --files cat < thirty | xargs sh -c 'cat \"$@\"; rm -f \"$@\"' sh",
        "--files -k 'echo x; exit 2' ::: a b | xargs sh -c 'cat \"$@\"; rm -f \"$@\"' sh; exit ${PIPESTATUS[0]}",
        "--pipe --cat --files --block 30 -k 'wc -l' < thirty | xargs sh -c 'cat \"$@\"; rm -f \"$@\"' sh | sed 's,[^ ]*par[A-Za-z0-9]\\{5\\},F,'",
    })
    void matchesGnuParallel(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }

    /**
     * The native client at {@code ulimit -n 20} (soft and hard) with no server running: the call
     * runs, and starts no server that would keep that limit; at a soft limit of 20 the server
     * it starts has 1024 for itself, while the call's jobs keep the caller's 20.
     */
    @Test
    void aLowDescriptorLimitStartsNoServerWithIt() throws Exception {
        Path runtime = Files.createTempDirectory("brisk-it-nofile-");
        Path command = ClientsStartServerIT.nativeCommand(runtime);
        Path pid = runtime.resolve("brisk").resolve("daemon.pid");
        try {
            String call = "'" + command + "' par --pipe --block 10k -k 'wc -l; ulimit -n' < '" + dir.resolve("thirty") + "'";
            for (String limit : new String[] {"ulimit -n 20", "ulimit -S -n 20"}) {
                ProcessBuilder pb = new ProcessBuilder("bash", "-c", limit + "; " + call).redirectErrorStream(true);
                pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
                pb.environment().remove("BRISK_SOCKET");
                Process p = pb.start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(50, TimeUnit.SECONDS)).isTrue();
                assertThat(out).as(limit).isEqualTo("30\n20\n");
                assertThat(p.exitValue()).isZero();
                // the starter waits for the call's end, up to 2 s: no server after 3 s, or one within them
                if (limit.equals("ulimit -n 20")) {
                    Thread.sleep(3000);
                    assertThat(pid).as("a server started under a hard limit of 20").doesNotExist();
                } else {
                    for (int i = 0; i < 60 && !Files.exists(pid); i++) {
                        Thread.sleep(50);
                    }
                }
            }
            assertThat(pid).exists();
            String limits = Files.readString(Path.of("/proc", Files.readString(pid).strip(), "limits"));
            assertThat(limits).containsPattern("Max open files +1024 ");
        } finally {
            if (Files.exists(pid)) {
                ProcessHandle.of(Long.parseLong(Files.readString(pid).strip())).ifPresent(h -> {
                    h.destroy();
                    h.onExit().orTimeout(10, TimeUnit.SECONDS).join();
                });
            }
        }
    }

    /**
     * At {@code ulimit -n 20} (soft and hard) brisk's blocks reach their jobs as GNU parallel's
     * do, the run ends with status 0, and no warm server is left started with that limit to fail
     * later calls. GNU parallel warns that it runs one job at a time; brisk does not need to.
     */
    @Test
    void runsUnderALowDescriptorLimit() throws Exception {
        String args = "--pipe --block 10k wc -l < hundredk | sort -n | uniq -c";
        for (int round = 0; round < 2; round++) {
            Out[] runs = GnuRuns.both(dir, brisk, "ulimit -n 20; parallel --will-cite " + args,
                    "ulimit -n 20; \"$B\" par " + args);
            assertThat(runs[1].stdout()).as("round %d (stderr: %s)", round, runs[1].stderr()).isEqualTo(runs[0].stdout()).isNotEmpty();
            assertThat(runs[1].stderr()).isEmpty();
            assertThat(runs[1].status()).isEqualTo(runs[0].status()).isZero();
        }
    }
}
