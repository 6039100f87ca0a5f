// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.internal.remote.HostLostException;
import dev.brisk.internal.remote.RemoteShell;
import dev.brisk.internal.remote.SrunTransport;
import dev.brisk.internal.remote.Transport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * What {@code brisk par --slurm} relies on, checked on a real cluster ({@link SlurmCluster}): a
 * long-lived {@code /bin/sh} in a job step ({@code srun --overlap --nodes=1 --ntasks=1 -w NODE
 * --unbuffered}) takes commands on its stdin and answers on its stdout byte for byte, partial
 * lines included, and a step whose srun is killed or cancelled leaves nothing behind.
 */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SlurmStepIT {
    static SlurmCluster cluster;
    String job;
    final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        cluster = SlurmCluster.start();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void allocate() throws Exception {
        Process p = cluster.command(List.of("salloc", "-N", "3", "--no-shell")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Matcher m = Pattern.compile("Granted job allocation (\\d+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        job = m.group(1);
    }

    @AfterEach
    void release() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        cluster.run("scancel", job);
    }

    private Process step(String node, String... extra) throws IOException {
        List<String> argv = new ArrayList<>(List.of("srun", "--jobid=" + job, "--overlap", "--nodes=1", "--ntasks=1",
                "--nodelist=" + node));
        argv.addAll(List.of(extra));
        argv.addAll(List.of("/bin/sh", "-s"));
        Process p = cluster.command(argv).start();
        started.add(p);
        return p;
    }

    /** Writes {@code command} and reads until {@code until} has arrived (the test's timeout bounds the wait). */
    private static byte[] ask(Process p, String command, byte[] until) throws IOException {
        OutputStream in = p.getOutputStream();
        in.write(command.getBytes(StandardCharsets.UTF_8));
        in.flush();
        InputStream out = p.getInputStream();
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        while (!endsWith(got.toByteArray(), until)) {
            int c = out.read();
            if (c < 0) {
                throw new IOException("the step ended: got " + got);
            }
            got.write(c);
        }
        return got.toByteArray();
    }

    private static boolean endsWith(byte[] a, byte[] end) {
        if (a.length < end.length) {
            return false;
        }
        for (int i = 0; i < end.length; i++) {
            if (a[a.length - end.length + i] != end[i]) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aStepShellAnswersOnItsNodeByteForByteWithoutWaitingForANewline() throws Exception {
        Process p = step("n2", "--unbuffered");
        assertThat(new String(ask(p, "echo \"$SLURMD_NODENAME $SLURM_JOB_ID\"\n", "\n".getBytes()), StandardCharsets.UTF_8))
                .isEqualTo("n2 " + job + "\n");
        // no newline after the output: a buffered step (without --unbuffered) would hold it back
        assertThat(ask(p, "printf 'a\\000b\\377'\n", new byte[] {'b', (byte) 0xff})).containsExactly('a', 0, 'b', 0xff);
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        Path f = cluster.dir.resolve("bytes");
        Files.write(f, all);
        // ends with 0xfe 0xff: wait for those
        byte[] back = ask(p, "cat '" + f + "'; printf 'END'\n", "END".getBytes());
        assertThat(back).hasSize(259);
        assertThat(java.util.Arrays.copyOf(back, 256)).containsExactly(all);
        for (int i = 0; i < 100; i++) {
            assertThat(ask(p, "echo " + i + "\n", (i + "\n").getBytes())).containsExactly((i + "\n").getBytes());
        }
        p.getOutputStream().close();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
    }

    @Test
    void killingTheSrunProcessEndsTheStepAndEverythingItStarted() throws Exception {
        Process p = step("n3", "--unbuffered");
        Path pids = cluster.dir.resolve("pids-" + job);
        // a child in the step's group and one in a session of its own
        ask(p, "sleep 1000 & echo $! > '" + pids + "'; setsid sleep 1001 & echo $! >> '" + pids + "'; echo started\n",
                "started\n".getBytes());
        List<Long> left = Files.readAllLines(pids).stream().map(Long::parseLong).toList();
        assertThat(left).hasSize(2).allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isPresent());
        p.destroyForcibly();
        p.waitFor();
        awaitGone(left);
        awaitNoSteps();
    }

    @Test
    void cancellingTheStepEndsItsSrun() throws Exception {
        Process p = step("n1", "--unbuffered");
        ask(p, "echo up\n", "up\n".getBytes());
        String steps = cluster.run("squeue", "-h", "-s", "-j", job, "-o", "%i");
        assertThat(steps.lines().map(String::strip).toList()).contains(job + ".0");
        cluster.run("scancel", job + ".0");
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.getInputStream().readAllBytes()).isEmpty();
        awaitNoSteps();
    }

    @Test
    void theAgentRunsJobsOverAnSrunStepAndSeesTheStepEnd() throws Exception {
        SrunTransport t = new SrunTransport(job, "n2", 1);
        try (RemoteShell s = RemoteShell.open(withConf(t), "", java.util.Map.of(), java.time.Duration.ofSeconds(30))) {
            RemoteShell.Result r = s.run(1, 1, "printf 'a\\000b' ; echo \"$SLURMD_NODENAME\" >&2; exit 3".getBytes(), true);
            assertThat(r.status()).isEqualTo(3);
            assertThat(r.out().bytes(-1)).containsExactly('a', 0, 'b');
            assertThat(new String(r.err().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("n2\n");
            for (int i = 0; i < 50; i++) {
                assertThat(s.run(2, 2 + i, ("printf " + i).getBytes(), true).out().bytes(-1)).containsExactly(Integer.toString(i).getBytes());
            }
            Thread cancel = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(300);
                    cluster.run("scancel", job + ".0");
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            assertThatThrownBy(() -> s.run(1, 99, "sleep 100".getBytes(), true)).isInstanceOf(HostLostException.class);
            cancel.join();
            assertThat(s.alive()).isFalse();
        }
        awaitNoSteps();
    }

    /** {@code t} with this cluster's {@code SLURM_CONF} (the test JVM does not have it). */
    private static Transport withConf(Transport t) {
        return new Transport() {
            @Override
            public String host() {
                return t.host();
            }

            @Override
            public List<String> command() {
                List<String> argv = new ArrayList<>(List.of("env", "SLURM_CONF=" + cluster.conf));
                argv.addAll(t.command());
                return argv;
            }
        };
    }

    private static void awaitGone(List<Long> pids) throws InterruptedException {
        while (pids.stream().anyMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                && !zombie(pid))) {
            Thread.sleep(50);
        }
    }

    private static boolean zombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (IOException e) {
            return true;
        }
    }

    private void awaitNoSteps() throws Exception {
        while (!cluster.run("squeue", "-h", "-s", "-j", job, "-o", "%i").lines()
                .filter(l -> !l.strip().endsWith(".extern")).toList().isEmpty()) {
            Thread.sleep(50);
        }
    }
}
