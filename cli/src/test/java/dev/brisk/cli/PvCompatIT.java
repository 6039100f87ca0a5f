// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brisk pv} on the corners pv 1.11's own test suite checks (issue 35), each on real pipes
 * and processes, with pv's own criteria; against the installed pv (1.6) where it already behaves
 * as 1.11 does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PvCompatIT {
    @TempDir
    static Path dir;
    static Path data;
    static Path quarter;

    record Run(int status, byte[] stdout, String stderr) {}

    @BeforeAll
    static void fixtures() throws IOException {
        byte[] bytes = new byte[1_000_000];
        new Random(3).nextBytes(bytes);
        data = Files.write(dir.resolve("data"), bytes);
        quarter = Files.write(dir.resolve("quarter"), Arrays.copyOf(bytes, 400_000));
    }

    /** pv 1.11's "Modifiers - --size": the percentage is the true share, past 100 when there is more data. */
    @Test
    void aSizeSmallerThanTheDataGoesPastAHundredPercent() throws Exception {
        Run r = sh("head -c 100 /dev/zero | BRISK -s 50 -n -i 0.1 -L 100 >/dev/null");
        List<Long> values = r.stderr.lines().map(Long::parseLong).toList();
        assertThat(values).as(r.stderr).isNotEmpty().isSorted(); // never folds back from 100 (pv 1.6 does)
        assertThat(values.getLast()).isEqualTo(200);
    }

    /** pv 1.11's "Display - --numeric --bytes --line-mode": line counts, and -L in lines per second. */
    @Test
    void numericBytesInLineModeCountsLinesAndLimitsLines() throws Exception {
        String pipeline = "seq -w 3 1 100 | BRISK -bnl -i 0.2 -f -L 100";
        java.util.concurrent.CompletableFuture<Run> pvRun = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return sh(pipeline.replace("BRISK", "pv"));
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Run brisk = sh(pipeline);
        Run pv = pvRun.join();
        assertThat(new String(brisk.stdout, StandardCharsets.US_ASCII)).endsWith("\n100\n").isEqualTo(new String(pv.stdout));
        List<String> counts = brisk.stderr.lines().toList();
        assertThat(counts).allMatch(l -> l.matches("\\d+")).last().isEqualTo("98").isEqualTo(pv.stderr.lines().toList().getLast());
        // 98 lines at 100 lines/s take a second: about five updates (pv 1.11's test: 4-9);
        // 100 bytes/s would take four seconds, twenty updates
        assertThat(counts.size()).as(brisk.stderr).isLessThan(12);
    }

    /** pv 1.11's "Display - --buffer-percent": full while the output holds the copy up, then empty. */
    @Test
    void bufferPercentFollowsTheBuffer() throws Exception {
        String pipeline = "( head -c 1048576 /dev/zero; sleep 1.5 ) | BRISK -f -T -i 0.5 -B 1024 2>%s"
                + " | ( sleep 1; head -c 524288 >/dev/null; sleep 0.5; cat >/dev/null )";
        Process brisk = start(pipeline.formatted(dir.resolve("T-brisk")));
        Process pv = start(pipeline.replace("BRISK", "pv").formatted(dir.resolve("T-pv")));
        assertThat(brisk.waitFor(30, TimeUnit.SECONDS) && pv.waitFor(30, TimeUnit.SECONDS)).isTrue();
        List<String> shown = distinct(Files.readString(dir.resolve("T-brisk")));
        assertThat(shown).as("brisk").contains("{100%}", "{  0%}");
        assertThat(distinct(Files.readString(dir.resolve("T-pv")))).as("pv 1.6 too").contains("{100%}", "{  0%}");
    }

    /** pv 1.11's "Bug - Display length at magnitude boundary - Rate": one line length throughout. */
    @Test
    void theLineKeepsItsLengthAsTheRateCrossesMagnitudes() throws Exception {
        Run r = sh("( head -c 1022976 /dev/zero; sleep 0.6; head -c 1024 /dev/zero; sleep 0.6; head -c 3 /dev/zero;"
                + " sleep 0.6; head -c 512000 /dev/zero; sleep 0.6 ) | BRISK -rtIf -i 0.5 -s 1500k >/dev/null");
        List<String> shown = Arrays.stream(r.stderr.split("[\r\n]")).map(String::stripTrailing).filter(l -> !l.isEmpty()).toList();
        assertThat(shown).as("rates below 1 KiB/s and above").anyMatch(l -> l.contains("  B/s]")).anyMatch(l -> l.contains("KiB/s]"));
        assertThat(shown.stream().map(String::length).distinct().count()).as(String.join("\n", shown)).isEqualTo(1);
    }

    /**
     * pv 1.11's four watchfd cases, positions read from {@code /proc/PID/fdinfo}: one descriptor
     * (numeric, beside pv 1.6 on the same process), several descriptors, every file of a process,
     * and several processes.
     */
    @Test
    void watchesADescriptorSeveralDescriptorsAProcessAndSeveralProcesses() throws Exception {
        List<Process> holders = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                holders.add(new ProcessBuilder("bash", "-c", "exec 3<" + data + " 4<" + quarter
                        + "; head -c 500000 <&3 >/dev/null; head -c 100000 <&4 >/dev/null; sleep 1.5")
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start());
            }
            for (Process h : holders) {
                awaitPosition(h.pid(), 3, 500_000);
                awaitPosition(h.pid(), 4, 100_000);
            }
            long p1 = holders.get(0).pid();
            long p2 = holders.get(1).pid();
            List<Process> watchers = new ArrayList<>();
            String[] args = {"-d " + p1 + ":3 -n -i 0.3", "-f -i 0.3 -d " + p1 + ":3 " + p1 + ":4", "-f -w 200 -i 0.3 -d " + p1,
                    "-f -w 200 -i 0.3 -d " + p1 + " " + p2};
            for (int i = 0; i < args.length; i++) {
                watchers.add(start("BRISK " + args[i] + " 2>" + dir.resolve("w" + i)));
            }
            watchers.add(start("pv " + args[0] + " 2>" + dir.resolve("w-pv")));
            for (Process w : watchers) {
                assertThat(w.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(w.exitValue()).isZero();
            }
            List<String> single = Files.readAllLines(dir.resolve("w0"));
            assertThat(single).isNotEmpty().allMatch("50"::equals);
            assertThat(Files.readAllLines(dir.resolve("w-pv"))).isNotEmpty().allMatch("50"::equals);
            assertThat(segments(dir.resolve("w1"))).anyMatch(l -> l.startsWith(p1 + ":3:") && l.contains(" 50%"))
                    .anyMatch(l -> l.startsWith(p1 + ":4:") && l.contains(" 25%"));
            assertThat(segments(dir.resolve("w2"))).anyMatch(l -> l.startsWith("3:" + data + ":") && l.contains(" 50%"))
                    .anyMatch(l -> l.startsWith("4:" + quarter + ":") && l.contains(" 25%"));
            assertThat(segments(dir.resolve("w3")))
                    .anyMatch(l -> l.startsWith(p1 + ":   3:" + data + ":") && l.contains(" 50%"))
                    .anyMatch(l -> l.startsWith(p2 + ":   4:" + quarter + ":") && l.contains(" 25%"));
        } finally {
            holders.forEach(Process::destroyForcibly);
        }
    }

    /** The pieces of a drawn display between carriage returns, newlines and cursor moves, trimmed. */
    private static List<String> segments(Path drawn) throws IOException {
        return Arrays.stream(Files.readString(drawn).split("[\r\n]|\u001b\\[\\d*A")).map(String::strip)
                .filter(s -> !s.isEmpty()).toList();
    }

    private static List<String> distinct(String drawn) {
        return Arrays.stream(drawn.split("[\r\n]")).map(String::strip).filter(s -> !s.isEmpty()).distinct().toList();
    }

    private static void awaitPosition(long pid, int fd, long pos) throws Exception {
        Path info = Path.of("/proc/" + pid + "/fdinfo/" + fd);
        for (int i = 0; i < 500; i++) {
            if (Files.exists(info) && Files.readString(info).contains("pos:\t" + pos + "\n")) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("fd " + fd + " of " + pid + " never reached " + pos);
    }

    /** {@code brisk pv}'s command line, quoted for bash. */
    private static String briskPv() {
        return PvIT.shell(PvIT.brisk("").stream().filter(a -> !a.isEmpty()).toList());
    }

    private static Process start(String script) throws IOException {
        return new ProcessBuilder("bash", "-c", script.replace("BRISK", briskPv()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** Runs {@code script} under bash, BRISK standing for the {@code brisk pv} under test. */
    private static Run sh(String script) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "stdout", "");
        Path err = Files.createTempFile(dir, "stderr", "");
        Process p = new ProcessBuilder("bash", "-c", script.replace("BRISK", briskPv()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + script);
        }
        return new Run(p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
    }
}
