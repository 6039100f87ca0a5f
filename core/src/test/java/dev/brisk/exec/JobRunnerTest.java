// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The runner against real shells and programs. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JobRunnerTest {
    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Template t(String s) {
        return Template.parse(b(s), "{}", Template.Quoting.SHELL);
    }

    private static ArgumentSource items(String... values) {
        List<byte[]> l = new ArrayList<>();
        for (String v : values) {
            l.add(b(v));
        }
        return ArgumentSource.of(ItemSource.of(l));
    }

    private record Ran(RunSummary summary, String out, String err, List<JobResult> results) {}

    private Ran run(JobOptions o, Template t, ArgumentSource s) {
        return run(o, t, s, JobRunner.HELD_IN_MEMORY);
    }

    private Ran run(JobOptions o, Template t, ArgumentSource s, int heldInMemory) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<JobResult> results = Collections.synchronizedList(new ArrayList<>());
        RunSummary sum = new JobRunner(o, t, out, err).heldInMemory(heldInMemory).listener(new JobListener() {
            @Override
            public void finished(JobResult r) {
                results.add(r);
            }
        }).run(s);
        return new Ran(sum, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), results);
    }

    private JobOptions.Builder opts() {
        return JobOptions.builder().jobs(2).tmpdir(tmp);
    }

    /** {@link JobRunner#stop} from another thread (the Slurm allocation's end): the jobs killed, no more started. */
    @Test
    void stopKillsTheRunningJobsAndStartsNoMore() throws Exception {
        JobRunner runner = new JobRunner(opts().jobs(2).build(), t("sleep"), new ByteArrayOutputStream(),
                new ByteArrayOutputStream());
        java.util.concurrent.CompletableFuture<RunSummary> done = new java.util.concurrent.CompletableFuture<>();
        Thread.ofPlatform().start(() -> done.complete(runner.run(items("30", "30", "30", "30"))));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (ProcessHandle.current().descendants().filter(p -> p.info().commandLine().orElse("").endsWith("sleep 30"))
                .count() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        long t0 = System.nanoTime();
        runner.stop();
        RunSummary s = done.get(10, TimeUnit.SECONDS);
        assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertThat(s.started()).isEqualTo(2);
        // a stopped runner's next run stops at its start
        assertThat(runner.run(items("30")).started()).isZero();
    }

    @Test
    void keepOrderEqualsInputOrderWhateverTheCompletionOrder() {
        Ran r = run(opts().jobs(4).keepOrder(true).build(), t("sleep 0.0$((5 - {})); echo {}"), items("1", "2", "3", "4", "5"));
        assertThat(r.out).isEqualTo("1\n2\n3\n4\n5\n");
        assertThat(r.results).extracting(JobResult::sequence).containsExactly(1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void keepOrderBehindASlowFirstJobHoldsHundredsOfJobsInOrder() {
        // job 1 ends only after the last job has run: every other job waits for its turn, more of
        // them than are kept in memory (64 here, 4,096 in a real run), so most go through the
        // spill file and back
        int n = 1000;
        Path mark = tmp.resolve("last-ran");
        String cmd = "if [ {} = 1 ]; then while [ ! -e " + mark + " ]; do sleep 0.01; done; fi; "
                + "if [ {} = " + n + " ]; then : > " + mark + "; fi; echo out{}; echo err{} >&2";
        String[] values = new String[n];
        for (int i = 0; i < n; i++) {
            values[i] = Integer.toString(i + 1);
        }
        Ran r = run(opts().keepOrder(true).build(), t(cmd), items(values), 64);
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            out.append("out").append(i).append('\n');
            err.append("err").append(i).append('\n');
        }
        assertThat(r.out).isEqualTo(out.toString());
        assertThat(r.err).isEqualTo(err.toString());
        assertThat(r.results).extracting(JobResult::sequence).isSorted().hasSize(n);
        assertThat(r.summary.exitStatus()).isZero();
    }

    @Test
    void megabytesPerJobNeverMix() {
        // each job prints 3 MB of its own letter, in small writes, while the others do too
        Ran r = run(opts().jobs(3).build(), t("head -c 3000000 /dev/zero | tr '\\0' {}"), items("a", "b", "c", "d", "e", "f"));
        String out = r.out;
        assertThat(out).hasSize(18_000_000);
        for (int i = 0; i < 6; i++) {
            String block = out.substring(i * 3_000_000, (i + 1) * 3_000_000);
            assertThat(block.chars().distinct().count()).as("block %d is one job's output", i).isEqualTo(1);
        }
    }

    @Test
    void stdoutAndStderrStayApartAndKeepOrderSpillsBeyondMemory() {
        Ran r = run(opts().keepOrder(true).build(), t("echo out{}; echo err{} >&2; head -c 2000000 /dev/zero | tr '\\0' x"),
                items("1", "2"));
        assertThat(r.out).startsWith("out1\n").contains("out2\n").hasSize(2 * (5 + 2_000_000));
        assertThat(r.err).isEqualTo("err1\nerr2\n");
    }

    @Test
    void oddNamesArriveByteForByte() throws IOException {
        List<byte[]> names = List.of(b("My brother's 12\" *** record (costs $$$).jpg"), b("new\nline"),
                new byte[] {'b', 'a', 'd', (byte) 0xff, (byte) 0xfe}, b("-leading"), b("$(touch pwned)"), b("`x`;|&<>"));
        JobOptions o = opts().keepOrder(true).build();
        for (String cmd : List.of("printf '%s\\0' {}", "printf %s\\\\0 {}")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new JobRunner(o, t(cmd), out, new ByteArrayOutputStream()).run(ArgumentSource.of(ItemSource.of(names)));
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (byte[] n : names) {
                expected.writeBytes(n);
                expected.write(0);
            }
            assertThat(out.toByteArray()).as(cmd).isEqualTo(expected.toByteArray());
        }
        assertThat(Files.exists(Path.of("pwned"))).isFalse();
    }

    @Test
    void directSpawnKeepsNamesExactToo() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("tree"));
        String odd = "My brother's 12\" *** record (costs $$$).jpg";
        Files.writeString(dir.resolve(odd), "hello");
        Files.writeString(dir.resolve("-dash"), "dash");
        ByteArrayOutputStream walkErrors = new ByteArrayOutputStream();
        Ran r = run(opts().keepOrder(true).build(), t("cat --"), ArgumentSource.of(TreeItems.files(dir, List.of(), walkErrors)));
        assertThat(r.out.length()).isEqualTo(9);
        assertThat(r.out).contains("hello").contains("dash");
        assertThat(r.summary.exitStatus()).isZero();
        assertThat(walkErrors.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aWalksErrorsGoWhereTheCallerSays() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("tree"));
        Files.writeString(dir.resolve("a"), "a");
        ByteArrayOutputStream walkErrors = new ByteArrayOutputStream();
        Ran r = run(opts().build(), t("cat --"), ArgumentSource.of(TreeItems.files(dir, List.of("-nosuchtest"), walkErrors)));
        assertThat(r.out).isEmpty();
        assertThat(r.err).isEmpty();
        assertThat(walkErrors.toString(StandardCharsets.UTF_8)).contains("-nosuchtest");
    }

    @Test
    void jobsReadingStdinGetEndOfFile() {
        Ran r = run(opts().build(), t("cat; echo {}"), items("x"));
        assertThat(r.out).isEqualTo("x\n");
        Ran direct = run(opts().build(), t("cat"), items("/dev/stdin"));
        assertThat(direct.out).isEmpty();
        assertThat(direct.summary.exitStatus()).isZero();
    }

    @Test
    void exitStatusCountsFailedJobs() {
        Ran r = run(opts().build(), t("exit {}"), items("0", "1", "2", "3", "0"));
        assertThat(r.summary.failed()).isEqualTo(3);
        assertThat(r.summary.exitStatus()).isEqualTo(3);
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            many.add("1");
        }
        Ran lots = run(opts().build(), t("exit {}"), items(many.toArray(String[]::new)));
        assertThat(lots.summary.exitStatus()).isEqualTo(101);
        Ran missing = run(opts().build(), t("no-such-command-brisk"), items("a"));
        assertThat(missing.summary.exitStatus()).isEqualTo(1);
        assertThat(missing.results.getFirst().exitCode()).isEqualTo(127);
        assertThat(missing.err).contains("no-such-command-brisk");
    }

    @Test
    void stateDoesNotLeakBetweenJobs() {
        Ran r = run(opts().jobs(1).keepOrder(true).build(), t("echo ${X:-unset} $(pwd); X={}; export X; cd /; exit 0"),
                items("1", "2", "3"));
        String cwd = Path.of("").toAbsolutePath().toString();
        assertThat(r.out).isEqualTo(("unset " + cwd + "\n").repeat(3));
    }

    @Test
    void retriesRunAFailingJobUpToNTimes() throws IOException {
        Path count = tmp.resolve("count");
        Ran r = run(opts().retries(3).build(), t("echo x >> " + count + "; exit 1"), items("a"));
        assertThat(Files.readAllLines(count)).hasSize(3);
        assertThat(r.results.getFirst().attempts()).isEqualTo(3);
        Ran ok = run(opts().retries(3).build(), t("test -e " + count + ".2 || { touch " + count + ".2; exit 1; }; : {}"), items("a"));
        assertThat(ok.summary.exitStatus()).isZero();
        assertThat(ok.results.getFirst().attempts()).isEqualTo(2);
    }

    @Test
    void timeoutKillsTheWholeJobAndItsChildren() throws Exception {
        String marker = "brisk-timeout-" + ProcessHandle.current().pid();
        JobOptions o = opts().timeout(Duration.ofMillis(500)).build();
        Ran r = run(o, t("sh -c 'sleep 30; : " + marker + "' & sleep 30; echo {}"), items("a", "b"));
        assertThat(r.summary.failed()).isEqualTo(2);
        assertThat(r.results).allSatisfy(j -> {
            assertThat(j.exitCode()).isEqualTo(-1);
            assertThat(j.signal()).isEqualTo(15);
        });
        assertThat(pgrep(marker)).isEmpty();
        Ran direct = run(o, t("sleep"), items("30"));
        assertThat(direct.results.getFirst().exitCode()).isEqualTo(-1);
    }

    @Test
    void haltNowStopsAtTheFirstFailureWithItsStatus() {
        long start = System.nanoTime();
        Ran r = run(opts().halt(Halt.parse("now,fail=1")).build(), t("sleep {}; exit 3"), items("0.2", "20", "20", "20"));
        assertThat(r.summary.exitStatus()).isEqualTo(3);
        assertThat(r.summary.halted()).isTrue();
        assertThat(r.err).contains("This job failed");
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(15));
        Ran soon = run(opts().jobs(1).halt(Halt.parse("soon,success=2")).build(), t("echo {}"), items("1", "2", "3", "4"));
        assertThat(soon.out).isEqualTo("1\n2\n");
        assertThat(soon.summary.exitStatus()).isZero();
    }

    @Test
    void joblogHasGnuColumnsAndResumeSkipsLoggedJobs() throws IOException {
        Path log = tmp.resolve("log");
        run(opts().joblog(log).build(), t("exit {}"), items("0", "1", "0"));
        List<String> lines = Files.readAllLines(log);
        assertThat(lines.getFirst()).isEqualTo("Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand");
        assertThat(lines).hasSize(4);
        assertThat(lines.subList(1, 4)).anySatisfy(l -> assertThat(l).matches("2\t:\t\\d+\\.\\d{3}\t +\\d+\\.\\d{3}\t0\t0\t1\t0\texit 1"));
    }

    @Test
    void resumeFailedRunsOnlyTheFailedAndRetryFailedNeedsNoInput() throws IOException {
        Path log = tmp.resolve("log2");
        run(opts().joblog(log).build(), t("echo {}; exit {}"), items("0", "1", "0", "2"));
        Ran again = run(opts().joblog(log).resume(ResumeMode.RESUME_FAILED).keepOrder(true).build(), t("echo {}; exit {}"),
                items("0", "1", "0", "2", "0"));
        assertThat(again.out).isEqualTo("1\n2\n0\n");
        Ran resume = run(opts().joblog(log).resume(ResumeMode.RESUME).build(), t("echo {}; exit {}"),
                items("0", "1", "0", "2", "0", "5"));
        assertThat(resume.out).isEqualTo("5\n");
        Ran retry = run(opts().joblog(log).resume(ResumeMode.RETRY_FAILED).build(), t("ignored"), items());
        assertThat(retry.out).contains("5");
    }

    @Test
    void aJoblogThatDoesNotMatchTheInputIsAnError() throws IOException {
        Path log = tmp.resolve("log3");
        run(opts().joblog(log).build(), t("exit {}"), items("1"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                run(opts().joblog(log).resume(ResumeMode.RESUME_FAILED).build(), t("echo {}"), items("1")))
                .isInstanceOf(ExecException.class).hasMessageContaining("does not match");
    }

    @Test
    void capturesOutputForLibraryCallers() {
        List<JobResult> got = Collections.synchronizedList(new ArrayList<>());
        new JobRunner(opts().keepOrder(true).build(), t("echo {}; echo e{} >&2"), null, new ByteArrayOutputStream())
                .listener(new JobListener() {
                    @Override
                    public void finished(JobResult r) {
                        got.add(r);
                    }
                }).run(items("a", "b"));
        assertThat(got).extracting(r -> new String(r.stdout(), StandardCharsets.UTF_8)).containsExactly("a\n", "b\n");
        assertThat(got).extracting(r -> new String(r.stderr(), StandardCharsets.UTF_8)).containsExactly("ea\n", "eb\n");
    }

    @Test
    void lineBufferAndUngroupedStreamWithTags() {
        Template tag = Template.parse(b("{}"), "{}", Template.Quoting.RAW);
        Ran r = run(opts().output(OutputMode.LINE_BUFFER).tag(tag).build(), t("echo one; echo two; : {}"), items("a", "b"));
        assertThat(r.out.lines().sorted().toList()).containsExactly("a\tone", "a\ttwo", "b\tone", "b\ttwo");
        Ran u = run(opts().output(OutputMode.UNGROUPED).build(), t("echo {}"), items("a", "b"));
        assertThat(u.out.lines().sorted().toList()).containsExactly("a", "b");
    }

    @Test
    void batchingFitsTheLimitAndSpreadsOverSlots() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add("item" + i);
        }
        Ran r = run(opts().jobs(2).batching(Template.Batching.CONTEXT).maxChars(2000).build(), t("echo {}"),
                items(many.toArray(String[]::new)));
        assertThat(r.out.lines().toList()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(2000));
        assertThat(r.out.split("\\s+")).hasSize(1000);
        Ran even = run(opts().jobs(2).batching(Template.Batching.MULTI).spread(true).keepOrder(true).build(), t("echo {}"),
                items("1", "2", "3", "4", "5"));
        assertThat(even.out).isEqualTo("1 2 3\n4 5\n");
    }

    @Test
    void contextBatchesOfAProgramAreSpawnedByTheJvmWithOneArgumentPerValue() throws IOException {
        Path script = tmp.resolve("argv.sh");
        Files.writeString(script, "#!/bin/sh\necho $PPID $#; printf '[%s]' \"$@\"; echo\n");
        script.toFile().setExecutable(true);
        Ran r = run(opts().jobs(1).batching(Template.Batching.CONTEXT).build(), t(script + " -x x{}y"),
                items("a b", "", "it's", "-n"));
        long jvm = ProcessHandle.current().pid();
        assertThat(r.out).isEqualTo(jvm + " 5\n[-x][xa by][xy][xit'sy][x-ny]\n");
        Ran p = run(opts().jobs(1).batching(Template.Batching.CONTEXT).build(), t(script + " {} | tr a-z A-Z"),
                items("a b", "c"));
        assertThat(p.out).isEqualTo(jvm + " 2\n[A B][C]\n");
    }

    @Test
    void aKilledPipelineWithABuiltinLeavesNoReportOfItsKillInItsOutput() {
        Ran t = run(opts().keepOrder(true).timeout(Duration.ofMillis(500)).build(), t("echo a | sleep {}"), items("3", "0.1"));
        String warning = "brisk: Warning: This job was killed because it timed out:\nbrisk: Warning: ";
        assertThat(t.err).isEqualTo(warning + "echo a | sleep 3\n");
        assertThat(t.out).isEmpty();
        assertThat(t.summary.failed()).isEqualTo(1);
        Ran k = run(opts().keepOrder(true).timeout(Duration.ofMillis(500)).termSeq(TermStep.parse("KILL,25")).build(),
                t("printf a | sleep {} | cat"), items("3"));
        assertThat(k.err).isEqualTo(warning + "printf a | sleep 3 | cat\n");
        assertThat(k.out).isEmpty();
        Ran h = run(opts().jobs(2).halt(Halt.parse("now,fail=1")).build(), t("{}"),
                items("echo a | sleep 3", "sleep 0.3; exit 1"));
        assertThat(h.err).doesNotContain("Terminated");
    }

    @Test
    void resultsDirectoryFollowsGnuLayout() throws IOException {
        Path res = tmp.resolve("res");
        Ran r = run(opts().results(res).build(), t("echo {}; echo e >&2"), items("a", "b/c"));
        assertThat(r.out).isEmpty();
        assertThat(Files.readString(res.resolve("1/a/stdout"))).isEqualTo("a\n");
        assertThat(Files.readString(res.resolve("1/b\\_c/stderr"))).isEqualTo("e\n");
        assertThat(Files.readString(res.resolve("1/b\\_c/seq")).trim()).isIn("1", "2");
    }

    @Test
    void bashSlotsWorkToo() {
        Ran r = run(opts().shell("bash").directExec(false).keepOrder(true).build(), t("echo $((1+{})); [[ -n x ]] && echo ok"),
                items("1", "2"));
        assertThat(r.out).isEqualTo("2\nok\n3\nok\n");
    }

    @Test
    void echoBehavesLikeBashUnderDash() {
        Ran r = run(opts().keepOrder(true).build(), t("echo {}"), items("a\\nb", "-n", "-e"));
        assertThat(r.out).isEqualTo("a\\nb\n\n");
    }

    @Test
    void termSeqEndsJobsThatIgnoreTerm() {
        JobOptions o = opts().timeout(Duration.ofMillis(300)).termSeq(TermStep.parse("TERM,200,KILL,25")).build();
        long start = System.nanoTime();
        Ran r = run(o, t("trap '' TERM; sleep 20; echo {}"), items("a"));
        assertThat(r.results.getFirst().exitCode()).isEqualTo(-1);
        assertThat(r.out).isEmpty();
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(10));
    }

    @Test
    void linesOfThousandsOfWordsPassWhole() {
        String line = "word ".repeat(5000).trim();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            lines.add(line + " " + i);
        }
        Ran r = run(opts().build(), t("printf '%s\\n' {} | wc -w"), items(lines.toArray(String[]::new)));
        assertThat(r.out.lines().map(String::trim).distinct().toList()).containsExactly("5001");
        assertThat(t("/bin/echo").shape()).isEqualTo(Template.Shape.EXTERNAL);
        Ran direct = run(opts().build(), t("/bin/echo"), items(lines.toArray(String[]::new)));
        assertThat(direct.out.lines().toList()).hasSize(20).allSatisfy(l -> assertThat(l).startsWith(line));
    }

    @Test
    void loadAndMemfreeLetJobsRunWhenThereIsRoom() {
        Ran r = run(opts().maxLoad(10_000).memFree(1).keepOrder(true).build(), t("echo {}"), items("a", "b"));
        assertThat(r.out).isEqualTo("a\nb\n");
    }

    @Test
    void verboseAndTagsKeepTheirPlaceInOrderedOutput() {
        Template tag = Template.parse(b("<{}>"), "{}", Template.Quoting.RAW);
        Ran r = run(opts().keepOrder(true).verbose(true).tag(tag).build(), t("echo x; echo y >&2; : {}"), items("1", "2"));
        // as GNU parallel: the -v line is the job's first line of output, tagged as the others
        assertThat(r.out).isEqualTo("<1>\techo x; echo y >&2; : 1\n<1>\tx\n<2>\techo x; echo y >&2; : 2\n<2>\tx\n");
        assertThat(r.err).isEqualTo("<1>\ty\n<2>\ty\n");
    }

    @Test
    void pipeGivesEachJobABlockOfWholeRecordsOnStdin() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            lines.add("line " + i);
        }
        Template t = Template.parse(b("cat; echo end {#}"), "{}", Template.Quoting.SHELL, false);
        PipeRecords blocks = new PipeRecords(1000, new byte[0], b("\n"), false, 0, 0);
        byte[] input = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        Ran r = run(opts().pipe(true).keepOrder(true).build(), t,
                ArgumentSource.of(List.of(List.of(blocks.blocks(new java.io.ByteArrayInputStream(input), w -> { })))));
        assertThat(r.out.lines().filter(l -> l.startsWith("line")).toList()).isEqualTo(lines);
        assertThat(r.out.lines().filter(l -> l.startsWith("end")).count()).isGreaterThan(5);
        assertThat(r.out.split("end \\d+\n")).allSatisfy(block -> assertThat(block.length()).isLessThanOrEqualTo(1000));
    }

    @Test
    void aJobQueuedBehindOneThatKillsItsShellStillRuns() {
        // short jobs get the next one queued behind them once three have run
        Ran r = run(opts().jobs(1).keepOrder(true).build(), t("if [ {} = 6 ]; then kill -9 $$; fi; echo {}"),
                items("1", "2", "3", "4", "5", "6", "7", "8"));
        assertThat(r.out).isEqualTo("1\n2\n3\n4\n5\n7\n8\n");
        assertThat(r.summary.failed()).isEqualTo(1);
        assertThat(r.results.get(5).signal()).isEqualTo(9);
    }

    @Test
    void pipelinesRunWithoutASubshellAndStillKeepEverythingApart() {
        Ran r = run(opts().keepOrder(true).build(), t("echo {} | tr a-z A-Z | cat"), items("ab", "it's", "x y"));
        assertThat(r.out).isEqualTo("AB\nIT'S\nX Y\n");
        Ran failing = run(opts().build(), t("echo {} | grep -q nomatch"), items("a", "b"));
        assertThat(failing.summary.exitStatus()).isEqualTo(2);
        Ran env = run(opts().jobs(1).keepOrder(true).build(), t("env | grep -c PARALLEL_SEQ={}"), items("1", "2"));
        assertThat(env.out).isEqualTo("1\n1\n");
    }

    @Test
    void pipelinesOfProgramsRunWithoutAShellAndKeepNamesExact() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("piped"));
        List<byte[]> names = new ArrayList<>();
        for (String n : List.of("My brother's 12\" *** record (costs $$$).jpg", "new\nline", "-leading", "$(touch pwned)")) {
            Files.writeString(dir.resolve(n), n);
            names.add(b(dir.resolve(n).toString()));
        }
        Template t = t("cat -- {} | tr a-z A-Z | wc -c");
        assertThat(t.isExternalPipeline()).isTrue();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new JobRunner(opts().keepOrder(true).build(), t, out, new ByteArrayOutputStream())
                .run(ArgumentSource.of(ItemSource.of(names)));
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("43\n8\n8\n14\n");
        assertThat(Files.exists(Path.of("pwned"))).isFalse();
    }

    @Test
    void aPipelineEndsWithItsLastCommandsStatusEvenWhenOneCannotStart() throws IOException {
        Ran first = run(opts().keepOrder(true).build(), t("no-such-command-brisk {} | wc -l"), items("a"));
        assertThat(first.out).isEqualTo("0\n");
        assertThat(first.err).contains("no-such-command-brisk");
        assertThat(first.summary.exitStatus()).isZero();
        Ran last = run(opts().build(), t("echo-no-such-brisk {} | no-such-command-brisk"), items("a"));
        assertThat(last.results.getFirst().exitCode()).isEqualTo(127);
        Ran failing = run(opts().build(), t("cat {} | false"), items("/dev/null", "/dev/null"));
        assertThat(failing.summary.exitStatus()).isEqualTo(2);
        Ran passing = run(opts().build(), t("false {} | true"), items("a"));
        assertThat(passing.summary.exitStatus()).isZero();
        // the last command killed by a signal: 128 + N as a shell reports it
        Path selfKill = tmp.resolve("self-kill");
        Files.writeString(selfKill, "#!/bin/sh\nkill -9 $$\n");
        assertThat(selfKill.toFile().setExecutable(true)).isTrue();
        Ran signalled = run(opts().build(), t("true {} | " + selfKill), items("a"));
        assertThat(signalled.results.getFirst().exitCode()).isEqualTo(137);
    }

    @Test
    void scriptsWithoutAHashBangLineRunWithShAsInAShell() throws IOException {
        Path script = tmp.resolve("no-hash-bang");
        Files.writeString(script, "echo \"script $1\"\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        Ran r = run(opts().keepOrder(true).build(), t(script + " {}"), items("a"));
        assertThat(r.out).isEqualTo("script a\n");
        Ran piped = run(opts().keepOrder(true).build(), t(script + " {} | tr a-z A-Z"), items("b"));
        assertThat(piped.out).isEqualTo("SCRIPT B\n");
    }

    @Test
    void largeOutputFlowsThroughTheDirectPipe() {
        // 20 MB through the pipe between the two commands, 10 MB out of the last one, per job
        Ran r = run(opts().keepOrder(true).build(), t("head -c {} /dev/zero | tr -c x x | head -c 10000000"),
                items("20000000", "15000000"));
        assertThat(r.out).hasSize(20_000_000);
        assertThat(r.out.chars().allMatch(c -> c == 'x')).isTrue();
        assertThat(r.summary.exitStatus()).isZero();
    }

    @Test
    void aTimeoutKillsEveryCommandOfADirectPipeline() throws Exception {
        String marker = "4" + ProcessHandle.current().pid();
        JobOptions o = opts().timeout(Duration.ofMillis(500)).build();
        Ran r = run(o, t("sleep 61.{} | sleep 62.{}"), items(marker));
        assertThat(r.results.getFirst().exitCode()).isEqualTo(-1);
        assertThat(r.results.getFirst().signal()).isEqualTo(15);
        assertThat(pgrep("sleep 6[12]." + marker)).isEmpty();
    }

    @Test
    void slowJobsAreNotQueuedBehindEachOther() {
        // three jobs, three slots: each runs in a slot of its own, none waits behind another
        Ran r = run(opts().jobs(3).keepOrder(true).build(), t("sleep 0.3; echo {%}; : {}"), items("a", "b", "c"));
        assertThat(r.out.lines().sorted().toList()).containsExactly("1", "2", "3");
    }

    /**
     * The processes whose command line matches {@code marker}, once none is left or after 5 s.
     * A job's status can reach the runner a moment before the last of its group has been
     * signalled and has exited: what matters is that nothing outlives the kill, not the order.
     */
    private static List<String> pgrep(String marker) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            Process p = new ProcessBuilder("pgrep", "-f", marker).start();
            p.waitFor(5, TimeUnit.SECONDS);
            List<String> pids = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            if (pids.isEmpty() || System.nanoTime() > deadline) {
                return pids;
            }
            Thread.sleep(50);
        }
    }
}
