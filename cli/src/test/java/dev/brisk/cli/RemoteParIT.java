// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.cli.SshHosts.Out;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code brisk par -S} on three real OpenSSH servers this test starts on 127.0.0.2–4 ({@link
 * SshHosts}): what costs the hosts (forks, writes, logins), files both ways, a host killed
 * mid-run, an sshlogin file edited mid-run, nothing left running; the comparisons with GNU
 * parallel {@code -S}, which are not timed, are {@link RemoteParGnuIT}'s.
 */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RemoteParIT {
    @TempDir
    static Path dir;
    static Path brisk;
    static SshHosts hosts;

    @BeforeAll
    static void start() throws Exception {
        brisk = BriskProcess.launcher(dir, "rwx------");
        hosts = new SshHosts(3);
    }

    @AfterAll
    static void stop() {
        if (hosts != null) {
            hosts.close();
        }
    }

    static Out sh(String script) throws IOException, InterruptedException {
        return hosts.sh(dir, brisk, script);
    }

    /**
     * A simple external command replaces its job's subshell (exec), and a pipeline runs in the
     * slot's shell without one: every job's process then has the slot's shell as its parent.
     */
    @Test
    void simpleCommandsAndPipelinesCostTheHostNoSubshell() throws Exception {
        for (String job : List.of("cat /proc/self/sta{}", "'cat /proc/self/sta{} | cat'")) {
            Out ours = sh("$B par --ssh \"$SSH\" -S 1/h1 -k " + job + " ::: t t t");
            List<String> parents = ours.stdout().lines().map(l -> l.substring(l.lastIndexOf(')') + 2).split(" ")[1]).toList();
            assertThat(parents).as("%s: %s", job, ours.stderr()).hasSize(3);
            assertThat(parents.stream().distinct()).as(job).hasSize(1);
        }
    }

    /**
     * On the Perl agent a simple external command runs in the slot's shell, which (dash) starts it
     * with vfork; a subshell around it costs the host a full fork per job (the fork's page-table
     * copy is most of a short job's cost on this kind of machine). Traced with strace on a host
     * that is a local pipe.
     */
    @Test
    void anExternalCommandCostsTheHostNoFullFork() throws Exception {
        assumeTrue(Path.of("/bin/sh").toRealPath().getFileName().toString().equals("dash"), "/bin/sh is dash");
        Path trace = dir.resolve("forks.trace");
        Path ssh = dir.resolve("traced-ssh");
        Files.writeString(ssh, "#!/bin/sh\nexec strace -f -qq -e trace=fork,vfork,clone,clone3 -o " + trace + " setsid /bin/sh -s\n");
        assertThat(ssh.toFile().setExecutable(true)).isTrue();
        Out ours = sh("seq 40 | $B par --ssh " + ssh + " -S 1/h1 -k basename /x/{}");
        assertThat(ours.stdout()).as(ours.stderr()).isEqualTo(IntStream.rangeClosed(1, 40).mapToObj(i -> i + "\n").collect(Collectors.joining()));
        List<String> calls = Files.readAllLines(trace).stream().filter(l -> !l.contains("resumed>")).toList();
        long vforks = calls.stream().filter(l -> l.contains("vfork(") || l.contains("CLONE_VFORK")).count();
        long full = calls.stream().filter(l -> l.matches("\\d+ +(fork|clone|clone3)\\(.*") && !l.contains("CLONE_VM")).count();
        assertThat(vforks).as("vforks: %s", calls).isGreaterThanOrEqualTo(40);
        assertThat(full).as("full forks (the agent's start-up only): %s", calls).isLessThan(20);
    }

    /**
     * Short jobs are sent ahead to the Perl agent, a simple command too (it once was not: a round
     * trip to brisk between every two jobs), those not yet there in one write with the job that
     * runs (each write is a message through ssh and sshd, or srun and slurmstepd, and a wake-up of
     * the agent): once queueing starts, one of the agent's reads of its channel, traced, carries
     * the job and the three behind it; after that, jobs of 5 ms or more go two to a write, the
     * host holding two others meanwhile. Jobs of 20 ms keep the writes apart otherwise.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sleep", "'sleep {}; echo {}'"})
    void jobsAheadAreSentTogether(String job) throws Exception {
        Path traces = Files.createTempDirectory(dir, "reads");
        Path ssh = traces.resolve("read-traced-ssh");
        // -ff: a file per process, so no read is split into "unfinished" and "resumed" lines
        Files.writeString(ssh, "#!/bin/sh\nexec strace -ff -qq --seccomp-bpf -s 65536 -e trace=read -o " + traces.resolve("t")
                + " setsid /bin/sh -s\n");
        assertThat(ssh.toFile().setExecutable(true)).isTrue();
        Out ours = sh("yes 0.02 | head -n 60 | $B par --ssh " + ssh + " -S 1/h1 " + job);
        assertThat(ours.status()).as(ours.stderr()).isZero();
        assertThat(ours.stdout()).isEqualTo(job.startsWith("sleep") ? "" : "0.02\n".repeat(60));
        java.util.regex.Pattern request = java.util.regex.Pattern.compile("j \\d+ 1 \\d \\d+\\\\n");
        List<Long> perRead = new java.util.ArrayList<>();
        try (var files = Files.list(traces)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("t.")).toList()) {
                Files.readAllLines(f, StandardCharsets.ISO_8859_1).stream().filter(l -> l.startsWith("read(0, \""))
                        .map(l -> request.matcher(l).results().count()).filter(n -> n > 0).forEach(perRead::add);
            }
        }
        assertThat(perRead.stream().mapToLong(Long::longValue).sum()).as("requests: %s", perRead).isEqualTo(60);
        assertThat(perRead.stream().mapToLong(Long::longValue).max().orElse(0)).as("requests per read: %s", perRead).isGreaterThanOrEqualTo(3);
        assertThat(perRead.stream().filter(n -> n == 2).count()).as("reads with two requests: %s", perRead).isGreaterThanOrEqualTo(15);
    }

    /**
     * The hosts' logins start as soon as brisk has read its options, before its input and runner
     * (EarlyConnections.start), and the run takes them as they stand: one ssh per host, not two;
     * none for --dry-run, nor for a command line with an unknown option (the wrapper notes every
     * exec of the ssh command, even of one killed at once).
     */
    @Test
    void eachHostIsLoggedIntoOnceEvenWhenItsLoginStartsEarly() throws Exception {
        Path ssh = dir.resolve("early-ssh");
        Path logins = dir.resolve("early.logins");
        // the wrapper notes each login itself: brisk starts ssh in its own JVM or in the warm server
        Files.writeString(ssh, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> " + logins + "\nexec $SSH \"$@\"\n");
        assertThat(ssh.toFile().setExecutable(true)).isTrue();
        String traced = "$B par --ssh " + ssh;
        Out ours = sh(traced + " -S 1/h1,1/h2 -k echo ::: a b c d");
        assertThat(ours.stdout()).as(ours.stderr()).isEqualTo("a\nb\nc\nd\n");
        assertThat(sshExecs(logins)).as("one login per host").hasSize(2)
                .anyMatch(l -> l.contains("h1 exec /bin/sh -s")).anyMatch(l -> l.contains("h2 exec /bin/sh -s"));
        Out dry = sh(traced + " -S h1 --dry-run echo ::: a");
        assertThat(dry.stdout()).isEqualTo("echo a\n");
        assertThat(sshExecs(logins)).as("--dry-run logs in nowhere").isEmpty();
        Out bad = sh(traced + " -S h1 --no-such-option echo ::: a");
        assertThat(bad.status()).isEqualTo(255);
        assertThat(bad.stderr()).contains("--no-such-option");
        assertThat(sshExecs(logins)).as("no login for a command line that was not read to its end").isEmpty();
    }

    /**
     * {@code --ssh-delay SECS}: the hosts' logins start at least SECS apart (the wrapper notes
     * each start's time; only a least gap is asserted, 0.3 s of 0.5: a spawn's jitter under load is the margin), in a
     * run and in {@code --onall}'s runs alike.
     */
    @Test
    void sshDelaySpacesTheLogins() throws Exception {
        Path ssh = dir.resolve("delay-ssh");
        Path logins = dir.resolve("delay.logins");
        Files.writeString(ssh, "#!/bin/sh\ndate +%s.%N >> " + logins + "\nexec $SSH \"$@\"\n");
        assertThat(ssh.toFile().setExecutable(true)).isTrue();
        for (String args : List.of("-S h1,h2,h3 -k echo ::: a b c d e f", "-S h1,h2,h3 -k --onall echo ::: a")) {
            Out ours = sh("$B par --ssh " + ssh + " --ssh-delay 0.5 " + args);
            assertThat(ours.status()).as(ours.stderr()).isZero();
            List<Double> starts = sshExecs(logins).stream().map(Double::parseDouble).sorted().toList();
            assertThat(starts).as(args).hasSize(3);
            for (int i = 1; i < starts.size(); i++) {
                assertThat(starts.get(i) - starts.get(i - 1)).as("gap %d of %s", i, args).isGreaterThanOrEqualTo(0.3);
            }
        }
    }

    /** The logins the wrapper noted since the last call (it reads and empties its file). */
    private static List<String> sshExecs(Path logins) throws IOException {
        if (!Files.exists(logins)) {
            return List.of();
        }
        List<String> all = Files.readAllLines(logins, StandardCharsets.ISO_8859_1);
        Files.delete(logins);
        return all;
    }

    /**
     * A job that takes its host down each time it runs (here it kills the agent) is run three
     * times, then counts as failed (255) with a warning, and the run ends: it is not sent round
     * the hosts for ever. The other job runs.
     */
    @Test
    void aJobThatKillsItsHostEachTimeIsGivenUp() throws Exception {
        Path ssh = dir.resolve("pipe-ssh");
        Files.writeString(ssh, "#!/bin/sh\nexec setsid /bin/sh -s\n");
        assertThat(ssh.toFile().setExecutable(true)).isTrue();
        Out ours = sh("$B par --ssh " + ssh + " -S 1/h1 -k --joblog jl-lost.txt 'if [ {} = die ]; then kill -9 $PPID; fi; echo {}' ::: die ok");
        assertThat(ours.stdout()).as(ours.stderr()).isEqualTo("ok\n");
        assertThat(ours.status()).isEqualTo(1);
        assertThat(ours.stderr()).contains("This job was lost with its host 3 times, and counts as failed (255):");
        List<String> log = Files.readAllLines(dir.resolve("jl-lost.txt"));
        assertThat(log).hasSize(3);
        assertThat(log.subList(1, 3).stream().map(l -> l.split("\t")).map(f -> f[0] + " " + f[6]).sorted())
                .containsExactly("1 255", "2 0");
    }

    @Test
    void jobLogNamesTheHost() throws Exception {
        Out ours = sh("$B par --ssh \"$SSH\" -S 1/h1,1/h2 --joblog jl.txt -k 'echo {}; exit {}' ::: 0 1 0 2");
        List<String> lines = Files.readAllLines(dir.resolve("jl.txt"));
        assertThat(lines.getFirst()).isEqualTo("Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand");
        assertThat(lines).hasSize(5);
        for (String l : lines.subList(1, 5)) {
            String[] f = l.split("\t");
            assertThat(f[1]).isIn("h1", "h2");
            assertThat(f[6]).isEqualTo(f[8].substring(f[8].lastIndexOf(' ') + 1));
            assertThat(f[5]).isEqualTo("2");
        }
        assertThat(ours.status()).isEqualTo(2);
    }

    @Test
    void filesGoThereAndComeBack() throws Exception {
        Path in = Files.createDirectories(dir.resolve("files"));
        String[] names = {"plain.txt", "it's $x.txt", "sp ace\"q\".txt"};
        for (String n : names) {
            Files.writeString(in.resolve(n), "content of " + n + "\n");
        }
        Files.write(in.resolve(new String(new byte[] {'b', 'a', 'd', (byte) 0xe9}, StandardCharsets.ISO_8859_1)), new byte[] {1, 2, 3});
        Out ours = sh("cd files && $B par --ssh \"$SSH\" -S h1,h2 --wd ... --trc {}.out 'wc -c < {} > {}.out' ::: * && cat *.out | sort");
        assertThat(ours.status()).as(ours.stderr()).isZero();
        assertThat(ours.stdout().lines().map(String::strip).sorted().toList()).containsExactly("21", "23", "25", "3");
        assertThat(SshHosts.userHome().resolve(".parallel/tmp")).satisfies(p -> {
            if (Files.isDirectory(p)) {
                try (var s = Files.list(p)) {
                    assertThat(s.filter(x -> x.getFileName().toString().startsWith("brisk-")).toList()).isEmpty();
                }
            }
        });
    }

    @Test
    void aHostThatDiesMidRunLosesNothing() throws Exception {
        assertKillingH2LosesNothing("$B par --ssh \"$SSH\" -S 2/h1,2/h2,2/h3 -k 'sleep 0.25; echo {}' ::: $(seq 1 60)", 60, 12);
    }

    /** Short jobs: each slot has its next jobs queued on the host; a lost host's queued jobs run elsewhere too. */
    @Test
    void aHostThatDiesUnderQueuedJobsLosesNothing() throws Exception {
        assertKillingH2LosesNothing("seq 1 8000 | $B par --ssh \"$SSH\" -S 2/h1,2/h2,2/h3 -k echo {}", 8000, 800);
    }

    /** The lines in {@code f} so far. */
    private static long lines(Path f) throws IOException {
        byte[] b = Files.readAllBytes(f);
        long n = 0;
        for (byte c : b) {
            n += c == '\n' ? 1 : 0;
        }
        return n;
    }

    /**
     * Runs {@code script}, kills h2's sshd once {@code afterLines} lines are out and h2 has served a
     * login for half as many lines more (a fast host can print that many before a slow one
     * connects; the run is still far from its end then, on a fast machine as on a slow one): the output is
     * 1..{@code jobs}, once each, in order.
     */
    private static void assertKillingH2LosesNothing(String script, int jobs, int afterLines) throws Exception {
        try {
            Path out = Files.createTempFile(dir, "die", ".out");
            Path err = Files.createTempFile(dir, "die", ".err");
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().put("B", brisk.toString());
            pb.environment().put("SSH", hosts.ssh());
            Process p = pb.start();
            try {
                // h2 must be in the run when it dies: serving a login, and the run half as many
                // lines further on since then (its login, past authentication, has had time to
                // end: a host killed inside it is one brisk never used, "could not connect")
                long since = -1;
                for (int i = 0; i < 3000 && p.isAlive(); i++) {
                    long n = lines(out);
                    since = !hosts.serving(2) ? -1 : since < 0 ? n : since;
                    if (since >= 0 && n >= afterLines && n >= since + afterLines / 2) {
                        break;
                    }
                    Thread.sleep(20);
                }
                assertThat(hosts.serving(2)).as("h2 at work when it is killed").isTrue();
                assertThat(p.isAlive()).as("the run still going when h2 is killed").isTrue();
                hosts.kill(2);
                assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            } finally {
                p.descendants().forEach(ProcessHandle::destroyForcibly); // a hung run must not outlive the test
                p.destroyForcibly();
            }
            String errors = Files.readString(err);
            assertThat(Files.readAllLines(out)).as(errors).containsExactlyElementsOf(
                    java.util.stream.IntStream.rangeClosed(1, jobs).mapToObj(Integer::toString).toList());
            assertThat(p.exitValue()).isZero();
            assertThat(errors).contains("lost host h2");
        } finally {
            hosts.start(2);
        }
    }

    /**
     * A job lost with its host counts as a try against --retries: a job that brings down every
     * host it runs on is failed (exit 255, as GNU parallel reports an ssh that fails) after its
     * tries, instead of taking down host after host for ever.
     */
    @Test
    void lostTriesCountAgainstRetries() throws Exception {
        Out o = sh("$B par --ssh \"$SSH\" -S 1/h1,1/h2,1/h3 -k --retries 2 --joblog retries.jl "
                + "'if [ {} = 3 ]; then kill -s KILL -- -$(cut -d\" \" -f6 /proc/$PPID/stat); fi; echo {}' ::: 1 2 3 4 5; "
                + "echo status $?; awk -F'\\t' 'NR > 1 {print $1, $7}' retries.jl | sort -n");
        assertThat(o.stdout()).as(o.stderr()).isEqualTo("1\n2\n4\n5\nstatus 1\n1 0\n2 0\n3 255\n4 0\n5 0\n");
        assertThat(o.stderr()).contains("lost host");
    }

    @Test
    void anSshloginFileEditedMidRunAddsAndRemovesHosts() throws Exception {
        Path slf = dir.resolve("hosts.slf");
        Files.writeString(slf, "1/h1\n");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c",
                "$B par --ssh \"$SSH\" --slf hosts.slf --joblog slf.log 'sleep 0.25; echo {}' ::: $(seq 1 40)")
                .directory(dir.toFile()).redirectOutput(dir.resolve("slf.out").toFile())
                .redirectError(dir.resolve("slf.err").toFile());
        pb.environment().put("B", brisk.toString());
        pb.environment().put("SSH", hosts.ssh());
        Process p = pb.start();
        Path soFar = dir.resolve("slf.out");
        for (int i = 0; i < 3000 && p.isAlive() && lines(soFar) < 3; i++) {
            Thread.sleep(20); // h1 has run jobs
        }
        Files.writeString(slf, "# h1 leaves, h2 and h3 come\n1/h2\n1/h3\n");
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("slf.err"))).isZero();
        assertThat(Files.readAllLines(dir.resolve("slf.out")).stream().map(Integer::parseInt).sorted().toList())
                .isEqualTo(java.util.stream.IntStream.rangeClosed(1, 40).boxed().toList());
        List<String> log = Files.readAllLines(dir.resolve("slf.log"));
        List<String> hostCol = log.subList(1, log.size()).stream().map(l -> l.split("\t")[1]).toList();
        assertThat(hostCol).contains("h1", "h2", "h3");
        // after h1 left, its last job ended; every later job ran on h2 or h3
        int lastH1 = hostCol.lastIndexOf("h1");
        assertThat(hostCol.subList(lastH1 + 1, hostCol.size())).isNotEmpty().doesNotContain("h1");
    }

    @Test
    void aJobThatIgnoresTermIsKilledByTheSequenceAndNothingIsLeft() throws Exception {
        Out ours = sh("$B par --ssh \"$SSH\" -S 1/h1 --timeout 1 --term-seq TERM,300,KILL,25 "
                + "'trap \"\" TERM; sleep 60 & sleep 61; echo never' ::: x");
        assertThat(ours.stdout()).doesNotContain("never");
        assertThat(ours.stderr()).contains("timed out");
        assertThat(ours.status()).isEqualTo(1);
        awaitNoUserProcesses();
    }

    @Test
    void killingBriskWithSigkillLeavesNothingOnTheHosts() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "exec $B par --ssh \"$SSH\" -S h1,h2,h3 'sleep 60' ::: 1 2 3 4 5 6")
                .directory(dir.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("B", brisk.toString());
        pb.environment().put("SSH", hosts.ssh());
        Process p = pb.start();
        long until = System.nanoTime() + 20_000_000_000L;
        while (SshHosts.userProcesses().stream().noneMatch(l -> l.contains("sleep 60")) && System.nanoTime() < until) {
            Thread.sleep(100);
        }
        assertThat(SshHosts.userProcesses()).anyMatch(l -> l.contains("sleep 60"));
        p.descendants().filter(h -> h.info().command().orElse("").contains("java")).forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
        awaitNoUserProcesses();
    }

    @Test
    void unreachableHostsAreSkippedAndNoHostAtAllIsAnError() throws Exception {
        Out some = sh("$B par --ssh \"$SSH\" -S h1,briskssh@127.0.0.9:2222 -k echo ::: a b c");
        assertThat(some.stdout()).isEqualTo("a\nb\nc\n");
        assertThat(some.stderr()).contains("could not connect to briskssh@127.0.0.9:2222");
        assertThat(some.status()).isZero();
        Out none = sh("$B par --ssh \"$SSH\" -S briskssh@127.0.0.9:2222 echo ::: a");
        assertThat(none.status()).isEqualTo(255);
        assertThat(none.stderr()).endsWith("brisk par: no host can be reached\n");
        assertThat(none.stderr()).doesNotContain("Exception");
    }

    /** Output beyond what brisk holds in memory (30 MB a job, with -k) passes whole. */
    @Test
    void outputLargerThanMemoryHoldsPasses() throws Exception {
        Out ours = sh("$B par --ssh \"$SSH\" -S 1/h1,1/h2 -k 'head -c 30000000 /dev/zero | tr \"\\000\" {}' ::: a b | md5sum");
        Out expected = sh("{ head -c 30000000 /dev/zero | tr '\\000' a; head -c 30000000 /dev/zero | tr '\\000' b; } | md5sum");
        assertThat(ours.stdout()).isEqualTo(expected.stdout());
        assertThat(ours.status()).isZero();
    }

    @Test
    void envCopiesVariables() throws Exception {
        Out ours = sh("export MYVAR=\"it's \\$x\"; $B par --ssh \"$SSH\" -S h1 --env MYVAR 'echo \"$MYVAR\" {}' ::: 1");
        assertThat(ours.stdout()).isEqualTo("it's $x 1\n");
    }

    /** The library: a shell pool whose workers live on a host, with the local pool's contract. */
    @Test
    void aShellPoolOnAHost() throws Exception {
        try (dev.brisk.shell.ShellPool pool = dev.brisk.shell.ShellPool.builder().remote("h2").ssh(hosts.ssh()).workers(3).build()) {
            dev.brisk.shell.CommandResult r = pool.run(dev.brisk.shell.Command.of("printf 'a\\0b'; echo e >&2; exit 4"));
            assertThat(r.exitCode()).isEqualTo(4);
            assertThat(r.stdout()).containsExactly('a', 0, 'b');
            assertThat(r.stderrText()).isEqualTo("e\n");
            r = pool.run(dev.brisk.shell.Command.of("cat; echo \"$V\"; pwd").stdin("in\n".getBytes(StandardCharsets.UTF_8))
                    .env("V", "it's").cwd(Path.of("/tmp")));
            assertThat(r.stdoutText()).isEqualTo("in\nit's\n/tmp\n");
            r = pool.run(dev.brisk.shell.Command.of("x=1; cd /; echo ${y-unset}"));
            r = pool.run(dev.brisk.shell.Command.of("echo ${x-unset} $(pwd)"));
            assertThat(r.stdoutText()).doesNotContain("1 /");
            r = pool.run(dev.brisk.shell.Command.of("trap '' TERM; sleep 30 & wait").timeout(java.time.Duration.ofMillis(500)));
            assertThat(r.timedOut()).isTrue();
            List<java.util.concurrent.CompletableFuture<dev.brisk.shell.CommandResult>> fs = new java.util.ArrayList<>();
            for (int i = 0; i < 30; i++) {
                fs.add(pool.submit(dev.brisk.shell.Command.of("echo " + i)));
            }
            for (int i = 0; i < 30; i++) {
                assertThat(fs.get(i).get().stdoutText()).isEqualTo(i + "\n");
            }
        }
        awaitNoUserProcesses();
    }

    /** The login user's processes (agents, jobs) are gone within a few seconds. */
    private static void awaitNoUserProcesses() throws Exception {
        long until = System.nanoTime() + 10_000_000_000L;
        List<String> left = SshHosts.userProcesses();
        while (!left.isEmpty() && System.nanoTime() < until) {
            Thread.sleep(100);
            left = SshHosts.userProcesses();
        }
        assertThat(left).isEmpty();
    }
}
