// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The agent and its Java half over a local channel ({@code setsid /bin/sh -s}): real shells, real files. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RemoteShellTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether the tests run the Perl agent (this class) or the sh one ({@link ShAgentTest}). */
    boolean perl() {
        return true;
    }

    private RemoteShell open() throws Exception {
        return RemoteShell.open(new LocalTransport("local"), "", Map.of("BRISK_T", new byte[] {'a', '\'', (byte) 0xff}),
                Duration.ofSeconds(10), perl());
    }

    @Test
    void runsJobsWithExactStatusAndSeparateOutput() throws Exception {
        try (RemoteShell s = open()) {
            // as nproc counts them (the Perl agent counts them itself, without starting nproc)
            Process nproc = new ProcessBuilder("nproc").start();
            assertThat(s.cores()).isEqualTo(Integer.parseInt(new String(nproc.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip()));
            assertThat(s.protocol()).as("the agent that answered").isEqualTo(perl() ? 2 : 1);
            RemoteShell.Result r = s.run(1, 1, b("printf 'a\\000b'; echo err >&2; exit 7"), false);
            assertThat(r.status()).isEqualTo(7);
            assertThat(r.out().bytes(-1)).containsExactly('a', 0, 'b');
            assertThat(new String(r.err().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("err\n");
            r = s.run(1, 3, b(": no output; exit 5"), false);
            assertThat(r.status()).isEqualTo(5);
            assertThat(r.out().size()).isZero();
            assertThat(r.err().size()).isZero();
            r = s.run(2, 2, b("echo \"$PARALLEL_SEQ $PARALLEL_JOBSLOT\" '\"it'\\''s\"'; printf %s \"$BRISK_T\""), true);
            assertThat(r.status()).isZero();
            assertThat(r.out().bytes(-1)).containsExactly(concat(b("2 2 \"it's\"\n"), new byte[] {'a', '\'', (byte) 0xff}));
        }
    }

    /**
     * A job launched in the slot's shell (a builtin, a pipeline) has no subshell of its own on the
     * Perl agent: a child it starts is the slot shell's, the same for every job of the slot, while
     * a subshell job's child has a new parent each time. Output, status and job variables are as
     * for any job; the sh agent runs it in a subshell all the same.
     */
    @Test
    void aJobLaunchedInTheSlotsShellNeedsNoSubshell() throws Exception {
        try (RemoteShell s = open()) {
            List<String> parents = new ArrayList<>();
            for (int i = 1; i <= 4; i++) {
                RemoteShell.Launch launch = i <= 2 ? RemoteShell.Launch.SHELL : RemoteShell.Launch.SUBSHELL;
                RemoteShell.Result r = s.await(s.submit(1, i, b("sh -c 'echo $PPID $PARALLEL_SEQ; echo e >&2; exit 3' | cat"), launch));
                assertThat(r.status()).isEqualTo(0);
                assertThat(new String(r.err().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("e\n");
                String[] out = new String(r.out().bytes(-1), StandardCharsets.UTF_8).trim().split(" ");
                assertThat(out[1]).isEqualTo(String.valueOf(i));
                parents.add(out[0]);
            }
            assertThat(s.await(s.submit(1, 5, b("false | true | (exit 4)"), RemoteShell.Launch.SHELL)).status()).isEqualTo(4);
            RemoteShell.Result r = s.await(s.submit(1, 6, b("echo a; echo b >&2; false"), RemoteShell.Launch.BUILTIN));
            assertThat(r.status()).isEqualTo(1);
            assertThat(new String(r.out().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("a\n");
            assertThat(new String(r.err().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("b\n");
            assertThat(parents.get(2)).isNotEqualTo(parents.get(3));
            if (perl()) {
                assertThat(parents.get(0)).isEqualTo(parents.get(1));
            } else {
                assertThat(parents.get(0)).isNotEqualTo(parents.get(1));
            }
        }
    }

    /** Output beyond what is held in memory goes to a file and comes back whole, byte for byte. */
    @Test
    void outputLargerThanMemoryHoldsComesBackWhole() throws Exception {
        try (RemoteShell s = open()) {
            long size = Payload.IN_MEMORY * 3L + 12345;
            Path data = Files.createTempFile("brisk-big", ".bin");
            RemoteShell.Result r = s.run(1, 1, b("head -c " + size + " /dev/urandom >" + data + "; cat " + data
                    + "; md5sum <" + data + " >&2; rm -f " + data), false);
            Path spilled;
            try (Payload out = r.out(); Payload err = r.err()) {
                assertThat(out.size()).isEqualTo(size);
                assertThat(out.inMemory()).isFalse();
                java.security.MessageDigest md = java.security.MessageDigest.getInstance("MD5");
                try (var in = java.nio.file.Files.newInputStream(out.file())) {
                    byte[] buf = new byte[1 << 16];
                    for (int n; (n = in.read(buf)) > 0; ) {
                        md.update(buf, 0, n);
                    }
                }
                String sum = new String(err.bytes(32), StandardCharsets.US_ASCII);
                assertThat(java.util.HexFormat.of().formatHex(md.digest())).isEqualTo(sum);
                spilled = out.file();
            }
            assertThat(spilled).doesNotExist();
            assertThat(s.run(1, 2, b("echo after"), false).out().bytes(-1)).isEqualTo(b("after\n"));
        }
    }

    @Test
    void slotsRunAtOnceAndStateDoesNotLeak() throws Exception {
        try (RemoteShell s = open()) {
            List<Thread> ts = new ArrayList<>();
            List<RemoteShell.Result> results = java.util.Collections.synchronizedList(new ArrayList<>());
            long t0 = System.nanoTime();
            for (int slot = 1; slot <= 4; slot++) {
                int k = slot;
                Thread t = Thread.ofPlatform().start(() -> {
                    try {
                        results.add(s.run(k, k, b("x=set; cd /; sleep 1; echo $k${y-unset}"), true));
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                ts.add(t);
            }
            for (Thread t : ts) {
                t.join();
            }
            assertThat(results).hasSize(4).allSatisfy(r -> assertThat(r.status()).isZero());
            RemoteShell.Result r = s.run(1, 9, b("echo ${x-unset} $(pwd)"), false);
            assertThat(new String(r.out().bytes(-1), StandardCharsets.UTF_8)).doesNotStartWith("set").doesNotContain(" /\n");
        }
    }

    /**
     * Many short jobs on several slots at once: the frames of concurrent jobs never mix (the echo
     * shim wrote a line in two; {@code cat} read the next job's output into this one's frame).
     */
    @Test
    void concurrentShortJobsKeepTheirFramesApart() throws Exception {
        try (RemoteShell s = RemoteShell.open(new LocalTransport("local"), dev.brisk.exec.internal.JobShell.BASH_ECHO, Map.of(),
                Duration.ofSeconds(10), perl())) {
            List<Thread> ts = new ArrayList<>();
            java.util.concurrent.atomic.AtomicInteger bad = new java.util.concurrent.atomic.AtomicInteger();
            for (int slot = 1; slot <= 4; slot++) {
                int k = slot;
                ts.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 100; i++) {
                            // long and short outputs in turn: the next job rewrites the slot's file at once
                            String pad = i % 2 == 0 ? "x".repeat(60) : "";
                            RemoteShell.Result r = s.run(k, i, b("/bin/echo " + k + "-" + i + pad), false);
                            if (r.status() != 0 || !new String(r.out().bytes(-1), StandardCharsets.UTF_8).equals(k + "-" + i + pad + "\n")) {
                                bad.incrementAndGet();
                            }
                        }
                    } catch (Exception e) {
                        bad.addAndGet(1000);
                    }
                }));
            }
            for (Thread t : ts) {
                t.join();
            }
            assertThat(bad.get()).isZero();
            assertThat(s.alive()).isTrue();
        }
    }

    @Test
    void signalReachesTheWholeGroup(@TempDir Path dir) throws Exception {
        try (RemoteShell s = open()) {
            Path pidFile = dir.resolve("pid");
            Thread killer = Thread.ofPlatform().start(() -> {
                try {
                    while (!Files.exists(pidFile) || Files.size(pidFile) == 0) {
                        Thread.sleep(20);
                    }
                    s.signal(3, "TERM");
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            RemoteShell.Result r = s.run(3, 1, b("sleep 30 & echo $! > " + pidFile + "; wait"), true);
            killer.join();
            assertThat(r.status()).isEqualTo(128 + 15);
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            ProcessHandle h = ProcessHandle.of(pid).orElse(null);
            if (h != null) {
                h.onExit().get(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void filesTravelBothWays(@TempDir Path dir) throws Exception {
        try (RemoteShell s = open()) {
            byte[] name = concat(b(dir + "/sub/odd 'n\"$a\n"), new byte[] {(byte) 0xe9});
            byte[] content = new byte[100_000];
            new java.util.Random(1).nextBytes(content);
            s.put(b(dir + "/sub"), name, content);
            RemoteShell.Result r = s.run(1, 1, b("cat " + dir + "/sub/odd* | wc -c"), false);
            assertThat(new String(r.out().bytes(-1), StandardCharsets.UTF_8).strip()).isEqualTo("100000");
            List<byte[]> got = s.get(5, List.of(name, b(dir + "/missing")));
            assertThat(got.get(0)).isEqualTo(content);
            assertThat(got.get(1)).isNull();
            s.remove(List.of(name));
            r = s.run(1, 2, b("ls " + dir + "/sub | wc -l"), false);
            assertThat(new String(r.out().bytes(-1), StandardCharsets.UTF_8).strip()).isEqualTo("0");
        }
    }

    @Test
    void closingTheChannelKillsJobsAndCleansUp(@TempDir Path dir) throws Exception {
        RemoteShell s = open();
        Path pidFile = dir.resolve("pid");
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                s.run(1, 1, b("trap '' TERM; sleep 60 & echo $! > " + pidFile + "; wait"), false);
            } catch (HostLostException expected) {
                // the channel was closed under it
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        while (!Files.exists(pidFile) || Files.size(pidFile) == 0) {
            Thread.sleep(20);
        }
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        s.close();
        t.join();
        ProcessHandle h = ProcessHandle.of(pid).orElse(null);
        if (h != null) {
            h.onExit().get(5, TimeUnit.SECONDS);
        }
        assertThat(s.alive()).isFalse();
        assertThatThrownBy(() -> s.run(1, 2, b("true"), false)).isInstanceOf(HostLostException.class);
    }

    /** The Perl agent takes a slot's next job while its current one runs, and starts it when that one has ended. */
    @Test
    void aQueuedJobStartsWhenTheSlotsJobHasEnded(@TempDir Path dir) throws Exception {
        // killed at the end, the agent cannot remove its directory: keep it in the test's
        try (RemoteShell s = RemoteShell.open(new LocalTransport("local"), "", Map.of("TMPDIR", b(dir.toString())),
                Duration.ofSeconds(10), perl())) {
            assertThat(s.queues()).isEqualTo(perl());
            if (!perl()) {
                return;
            }
            Path mark = dir.resolve("first-ended");
            RemoteShell.Submitted first = s.submit(1, 1, b("sleep 0.3; echo one; : > " + mark), RemoteShell.Launch.SUBSHELL);
            RemoteShell.Submitted second = s.submit(1, 2, b("[ -e " + mark + " ] && echo \"two after $PARALLEL_SEQ\""), RemoteShell.Launch.SUBSHELL);
            RemoteShell.Result r2 = s.await(second);
            RemoteShell.Result r1 = s.await(first);
            assertThat(new String(r1.out().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("one\n");
            assertThat(new String(r2.out().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("two after 2\n");
            assertThat(r2.status()).isZero();
            // both are lost with the channel: the runner gives both to other hosts
            RemoteShell.Submitted running = s.submit(1, 3, b("sleep 30"), RemoteShell.Launch.SUBSHELL);
            RemoteShell.Submitted waiting = s.submit(1, 4, b("echo never"), RemoteShell.Launch.SUBSHELL);
            s.kill();
            assertThatThrownBy(() -> s.await(running)).isInstanceOf(HostLostException.class);
            assertThatThrownBy(() -> s.await(waiting)).isInstanceOf(HostLostException.class);
        }
    }

    /**
     * A job killed by a signal counts only while the agent lives: when the agent dies with it
     * (scancel and a time limit signal every process of a step), the job was lost, not failed.
     */
    @Test
    void aSignalledJobStandsOnlyWhileTheAgentLives(@TempDir Path dir) throws Exception {
        // the agent is killed with SIGKILL below and cannot remove its directory: keep it in the test's
        try (RemoteShell s = RemoteShell.open(new LocalTransport("local"), "", Map.of("TMPDIR", b(dir.toString())),
                Duration.ofSeconds(10), perl())) {
            RemoteShell.Result r = s.run(1, 1, b("sh -c 'kill -TERM $PPID'"), false);
            assertThat(r.status()).isEqualTo(143);
            Path pidFile = dir.resolve("agent");
            java.util.concurrent.CompletableFuture<Object> outcome = new java.util.concurrent.CompletableFuture<>();
            Thread.ofPlatform().start(() -> {
                try {
                    // the agent stops before it can answer (the Perl one is the slot shell's parent, the sh one
                    // leads the session); then its process group is killed, as a whole step is
                    String agent = perl() ? "-f4" : "-f6";
                    outcome.complete(s.run(1, 2, b("a=$(cut -d' ' " + agent + " /proc/$$/stat); g=$(cut -d' ' -f5 /proc/$$/stat); echo $a $g > "
                            + pidFile + "; kill -STOP $a; exit 143"), false).status());
                } catch (Exception e) {
                    outcome.complete(e);
                }
            });
            while (!Files.exists(pidFile) || Files.size(pidFile) == 0) {
                Thread.sleep(20);
            }
            String[] ids = Files.readString(pidFile).strip().split(" ");
            while (!Files.readString(Path.of("/proc", ids[0], "stat")).replaceFirst("^.*\\) ", "").startsWith("T")) {
                Thread.sleep(20);
            }
            new ProcessBuilder("kill", "-KILL", "--", "-" + ids[1]).start().waitFor();
            assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(HostLostException.class);
        }
    }

    /**
     * A job runs as under {@code sh -c}: SIGPIPE not ignored (a writer to a closed pipe dies
     * quietly, as in any shell), no positional parameters, bytes exact even where the host's
     * environment asks Perl for UTF-8 layers.
     */
    @Test
    void aJobRunsAsUnderShC() throws Exception {
        try (RemoteShell s = RemoteShell.open(new LocalTransport("local"), "",
                Map.of("PERL_UNICODE", b("SDA"), "PERL5OPT", b("-CSDA")), Duration.ofSeconds(10), perl())) {
            assertThat(s.protocol()).isEqualTo(perl() ? 2 : 1);
            RemoteShell.Result r = s.run(1, 1, b("yes | head -c 1 >/dev/null; echo \"$# $*\"; printf '\\377\\000\\303'"), false);
            assertThat(new String(r.err().bytes(-1), StandardCharsets.UTF_8)).isEmpty();
            assertThat(r.out().bytes(-1)).containsExactly(concat(b("0 \n"), new byte[] {(byte) 0xff, 0, (byte) 0xc3}));
            r = s.run(2, 2, b("yes | head -c 1 >/dev/null; echo \"$#\""), true);
            assertThat(new String(r.err().bytes(-1), StandardCharsets.UTF_8)).isEmpty();
            assertThat(new String(r.out().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("0\n");
        }
    }

    /**
     * A job text longer than a pipe holds, queued behind a running job, does not stop the agent:
     * the other slots go on (the running job here waits for one of them, so a stalled agent would
     * never end).
     */
    @Test
    void aLongQueuedJobDoesNotStallTheOtherSlots(@TempDir Path dir) throws Exception {
        if (!perl()) {
            return;
        }
        try (RemoteShell s = open()) {
            Path mark = dir.resolve("mark");
            RemoteShell.Submitted waiting = s.submit(1, 1, b("while [ ! -e " + mark + " ]; do sleep 0.05; done; echo first"), RemoteShell.Launch.SUBSHELL);
            RemoteShell.Submitted big = s.submit(1, 2, b(": " + "x".repeat(200_000) + "; echo big"), RemoteShell.Launch.SUBSHELL);
            assertThat(new String(s.run(2, 3, b(": > " + mark + "; echo other"), false).out().bytes(-1), StandardCharsets.UTF_8))
                    .isEqualTo("other\n");
            assertThat(new String(s.await(waiting).out().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("first\n");
            assertThat(new String(s.await(big).out().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("big\n");
        }
    }

    /** The agent keeps its files in $TMPDIR when it is set (else /dev/shm, else /tmp), and leaves nothing there. */
    @Test
    void theAgentsFilesAreInTmpdirAndGoWithIt(@TempDir Path dir) throws Exception {
        RemoteShell s = RemoteShell.open(new LocalTransport("local"), "", Map.of("TMPDIR", b(dir.toString())),
                Duration.ofSeconds(10), perl());
        try (s) {
            assertThat(s.run(1, 1, b("echo hi"), false).status()).isZero();
            try (var files = Files.list(dir)) {
                assertThat(files.map(p -> p.getFileName().toString()).toList()).singleElement().asString().startsWith("brisk-agent.");
            }
        }
        for (int i = 0; i < 100 && !empty(dir); i++) {
            Thread.sleep(50);
        }
        assertThat(empty(dir)).as("the agent's directory is removed").isTrue();
    }

    /**
     * A job's output files are opened to append, as a local job's are: a write through a second
     * open of them ({@code >/dev/stderr}) and one through the job's own descriptor both stay; and
     * the next job of the slot starts with them empty.
     */
    @Test
    void aSecondOpenOfTheJobsOutputLosesNoWrite() throws Exception {
        try (RemoteShell s = open()) {
            RemoteShell.Result r = s.run(1, 1, b("echo a >/dev/stderr; echo b >&2; echo c"), false);
            assertThat(new String(r.err().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("a\nb\n");
            assertThat(new String(r.out().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("c\n");
            r = s.run(1, 2, b("echo x >&2"), false);
            assertThat(new String(r.err().bytes(-1), StandardCharsets.UTF_8)).isEqualTo("x\n");
            assertThat(r.out().bytes(-1)).isEmpty();
        }
    }

    /**
     * Jobs sent in one write ({@link RemoteShell#submitAll}) run in order, each with its own
     * status and output: a slot's output files alternate between jobs and are emptied once read,
     * so a short output after a long one on the same files (and after one past the 1 MiB that is
     * streamed) carries nothing of it; they are opened to append, as a local job's are.
     */
    @Test
    void jobsSentTogetherRunInOrderEachWithItsOwnOutput() throws Exception {
        try (RemoteShell s = open()) {
            org.junit.jupiter.api.Assumptions.assumeTrue(s.queues(), "the agent queues jobs");
            List<RemoteShell.Job> jobs = List.of(
                    new RemoteShell.Job(1, b("echo 1111111111; echo e1e1e1e1 >&2"), RemoteShell.Launch.SUBSHELL),
                    new RemoteShell.Job(2, b("head -c 2000000 /dev/zero | tr '\\0' x; echo; echo e2e2e2e2e2 >&2"), RemoteShell.Launch.SHELL),
                    new RemoteShell.Job(3, b("echo 3"), RemoteShell.Launch.BUILTIN),
                    new RemoteShell.Job(4, b("echo 4; exit 4"), RemoteShell.Launch.SUBSHELL),
                    new RemoteShell.Job(5, b("true"), RemoteShell.Launch.SHELL),
                    new RemoteShell.Job(6, b("printf 6"), RemoteShell.Launch.BUILTIN),
                    // a second open of the job's output, then its own descriptor: both writes stay
                    new RemoteShell.Job(7, b("echo a >/dev/stderr; echo b >&2"), RemoteShell.Launch.SUBSHELL));
            List<RemoteShell.Submitted> sent = s.submitAll(1, jobs);
            List<String> got = new java.util.ArrayList<>();
            for (RemoteShell.Submitted j : sent) {
                RemoteShell.Result r = s.await(j);
                byte[] out = r.out().bytes(-1);
                String o = out.length > 100 ? out.length + " bytes" : new String(out, StandardCharsets.UTF_8);
                got.add(r.status() + "|" + o + "|" + new String(r.err().bytes(-1), StandardCharsets.UTF_8));
                r.out().close();
                r.err().close();
            }
            assertThat(got).containsExactly("0|1111111111\n|e1e1e1e1\n", "0|2000001 bytes|e2e2e2e2e2\n", "0|3\n|", "4|4\n|",
                    "0||", "0|6|", "0||a\nb\n");
            assertThatThrownBy(() -> s.submitAll(1, List.of(new RemoteShell.Job(8, b("echo 8"), RemoteShell.Launch.BUILTIN),
                    new RemoteShell.Job(8, b("echo 8"), RemoteShell.Launch.BUILTIN)))).isInstanceOf(IllegalStateException.class);
            // neither was sent, and job 8 can be sent again
            assertThat(new String(s.await(s.submit(1, 8, b("echo again"), RemoteShell.Launch.BUILTIN)).out().bytes(-1),
                    StandardCharsets.UTF_8)).isEqualTo("again\n");
        }
    }

    /**
     * Every way a job is launched gives it only stdin ({@code /dev/null}), stdout and stderr:
     * none of the agent's pipes or output files, which a job's background child would otherwise
     * hold open (the status pipe's end of file, the next job's output).
     */
    @Test
    void aJobHoldsNoDescriptorOfTheAgent() throws Exception {
        try (RemoteShell s = open()) {
            int seq = 1;
            for (RemoteShell.Launch launch : RemoteShell.Launch.values()) {
                if (launch == RemoteShell.Launch.BUILTIN) {
                    continue; // a builtin runs in the slot's shell itself, and starts nothing
                }
                // the descriptors of a shell the job starts, listed by its child while it waits
                RemoteShell.Result r = s.await(s.submit(1, seq++, b("sh -c 'ls /proc/$$/fd; true'"), launch));
                assertThat(r.status()).as("%s", launch).isZero();
                assertThat(new String(r.out().bytes(-1), StandardCharsets.UTF_8)).as("%s", launch).isEqualTo("0\n1\n2\n");
                r = s.await(s.submit(1, seq++, b("readlink /proc/self/fd/0"), launch));
                assertThat(new String(r.out().bytes(-1), StandardCharsets.UTF_8)).as("%s", launch).isEqualTo("/dev/null\n");
            }
        }
    }

    /**
     * A killed agent (SIGKILL: no clean-up runs) leaves its directory behind; the next agent
     * started on the host removes it, and only such: not one whose pid still runs, not one whose
     * lock is held (an agent in another pid namespace), not one without a lock, not another
     * host's ($TMPDIR may be shared), not one whose host name merely begins with this host's.
     */
    @Test
    void theNextAgentRemovesOnlyTheDirectoriesOfDeadAgentsOfThisHost(@TempDir Path dir) throws Exception {
        String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        Process reaped = new ProcessBuilder("true").start();
        reaped.waitFor();
        long dead = reaped.pid();
        long live = ProcessHandle.current().pid();
        Path stale = agentDir(dir, dead + "." + host + ".deadbeef");
        Files.writeString(stale.resolve("1.o0"), "output of a job the agent never sent");
        Path locked = agentDir(dir, dead + "." + host + ".0locked0");
        List<Path> kept = List.of(locked,
                agentDir(dir, live + "." + host + ".0000live"),
                Files.createDirectory(dir.resolve("brisk-agent." + dead + "." + host + ".00nolock")),
                agentDir(dir, dead + ".other" + host + ".deadbeef"),
                agentDir(dir, dead + "." + host + ".x.deadbeef"),
                agentDir(dir, dead + "." + host + "x.deadbeef"));
        // flock(2), as the agents lock (Java's FileLock is fcntl's, which flock does not see)
        Process holder = new ProcessBuilder("flock", locked.resolve("lock").toString(), "sleep", "60").start();
        for (int i = 0; i < 250 && lockFree(locked.resolve("lock")); i++) {
            Thread.sleep(20);
        }
        assertThat(lockFree(locked.resolve("lock"))).as("the stand-in agent holds its lock").isFalse();
        try (RemoteShell s = RemoteShell.open(new LocalTransport("local"), "", Map.of("TMPDIR", b(dir.toString())),
                Duration.ofSeconds(10), perl())) {
            assertThat(s.run(1, 1, b("echo hi"), false).status()).isZero();
            assertThat(stale).doesNotExist();
            for (Path k : kept) {
                assertThat(k).isDirectory();
            }
            // the agent's own directory has its lock, held
            try (var files = Files.list(dir)) {
                Path own = files.filter(p -> !kept.contains(p)).findFirst().orElseThrow();
                assertThat(own.resolve("lock")).isRegularFile();
                assertThat(lockFree(own.resolve("lock"))).as("the running agent holds its lock").isFalse();
            }
        } finally {
            holder.destroyForcibly().waitFor();
        }
    }

    /** Whether flock(1) can take {@code lock} now. */
    private static boolean lockFree(Path lock) throws Exception {
        return new ProcessBuilder("flock", "-n", lock.toString(), "true").start().waitFor() == 0;
    }

    /** A directory as an agent leaves it: with its lock file. */
    private static Path agentDir(Path dir, String rest) throws java.io.IOException {
        Path d = Files.createDirectory(dir.resolve("brisk-agent." + rest));
        Files.createFile(d.resolve("lock"));
        return d;
    }

    /** The same with a real agent killed by SIGKILL: its directory stays, and goes when the next one starts. */
    @Test
    void aKilledAgentsDirectoryGoesWhenTheNextAgentStarts(@TempDir Path dir) throws Exception {
        Path left;
        try (RemoteShell s = RemoteShell.open(new LocalTransport("local"), "", Map.of("TMPDIR", b(dir.toString())),
                Duration.ofSeconds(10), perl())) {
            assertThat(s.run(1, 1, b("echo hi"), false).status()).isZero();
            try (var files = Files.list(dir)) {
                left = files.collect(java.util.stream.Collectors.toList()).getFirst();
            }
            long pid = Long.parseLong(left.getFileName().toString().split("\\.")[1]);
            assertThat(new ProcessBuilder("kill", "-KILL", String.valueOf(pid)).start().waitFor()).isZero();
            for (int i = 0; i < 200 && Files.exists(Path.of("/proc/" + pid)); i++) {
                Thread.sleep(25); // until the killed agent is reaped: a zombie's pid still answers kill -0
            }
            assertThat(Path.of("/proc/" + pid)).doesNotExist();
        }
        assertThat(left).as("SIGKILL: the agent could not remove its directory").isDirectory();
        try (RemoteShell s = RemoteShell.open(new LocalTransport("local"), "", Map.of("TMPDIR", b(dir.toString())),
                Duration.ofSeconds(10), perl())) {
            assertThat(s.run(1, 1, b("echo hi"), false).status()).isZero();
            assertThat(left).doesNotExist();
        }
    }

    /**
     * Without $TMPDIR, or with the TMPDIR=/tmp that Slurm gives every step, the agent keeps its
     * files in /dev/shm when it has 1 GiB free, and in /tmp when /dev/shm is small (a 64 MB tmpfs
     * mounted over it in a mount namespace of the agent's own, as a container has).
     */
    @Test
    void withoutTmpdirTheAgentsFilesAreInDevShmWhenItHasRoom() throws Exception {
        // a machine like this one's: root (for the mount namespace) and a /dev/shm with room
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.getFileStore(Path.of("/dev/shm")).getUsableSpace() > 2L << 30,
                "/dev/shm has 2 GiB free");
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "runs as root");
        assertThat(outputFileOf("unset TMPDIR; exec /bin/sh -s")).startsWith("/dev/shm/brisk-agent.");
        assertThat(outputFileOf("TMPDIR=/tmp; export TMPDIR; exec /bin/sh -s")).startsWith("/dev/shm/brisk-agent.");
        assertThat(outputFileOf("TMPDIR=/tmp/; export TMPDIR; exec /bin/sh -s")).startsWith("/dev/shm/brisk-agent.");
        assertThat(outputFileOf("unset TMPDIR; mount -t tmpfs -o size=64m brisk-test /dev/shm && exec /bin/sh -s"))
                .startsWith("/tmp/brisk-agent.");
    }

    /** Where a job's stdout goes, on an agent started by {@code unshare -m /bin/sh -c SHELL}. */
    private String outputFileOf(String shell) throws Exception {
        Transport t = new FixedTransport("local", "unshare", "-m", "--propagation", "private", "setsid", "/bin/sh", "-c", shell);
        try (RemoteShell s = RemoteShell.open(t, "", Map.of(), Duration.ofSeconds(10), perl())) {
            RemoteShell.Result r = s.run(1, 1, b("readlink /proc/self/fd/1"), false);
            assertThat(r.status()).isZero();
            return new String(r.out().bytes(-1), StandardCharsets.UTF_8).strip();
        }
    }

    @Test
    void anUnreachableHostIsReported() {
        Transport none = new FixedTransport("nowhere", "/bin/sh", "-c",
                "echo 'ssh: connect to host nowhere port 22: Connection refused' >&2; exit 255");
        assertThatThrownBy(() -> RemoteShell.open(none, "", Map.of(), Duration.ofSeconds(10)))
                .isInstanceOf(HostLostException.class)
                .hasMessage("nowhere: ssh: connect to host nowhere port 22: Connection refused");
    }

    private static boolean empty(Path dir) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.findAny().isEmpty();
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
