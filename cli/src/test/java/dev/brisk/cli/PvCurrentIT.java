// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code brisk pv} on what pv 1.9-1.10 added over Debian's pv 1.6 (which cannot be run side by
 * side for these): each checked against pv's manual text, on real files, pipes and processes,
 * with the data always compared byte for byte.
 */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PvCurrentIT {
    @TempDir
    static Path dir;
    static Path data;

    record Run(int status, byte[] stdout, String stderr) {}

    @BeforeAll
    static void fixtures() throws IOException {
        byte[] bytes = new byte[1_000_000];
        new Random(2).nextBytes(bytes);
        data = Files.write(dir.resolve("data"), bytes);
    }

    @Test
    void barStylesDrawAsTheManualDescribes() throws Exception {
        String args = "-f -w 40 -s 2000000 -p " + data;
        Map<String, String> utf8 = Map.of("LANG", "C.UTF-8");
        String plain = lastLine(run(brisk(args), utf8).stderr);
        assertThat(plain).as("pv 1.6's plain bar").isEqualTo(lastLine(run(PvIT.pv(args), Map.of()).stderr));
        assertThat(lastLine(run(brisk("-u block " + args), utf8).stderr))
                .isEqualTo("[" + "█".repeat(16) + " ".repeat(17) + "]  50%");
        assertThat(lastLine(run(brisk("-u shaded " + args), utf8).stderr))
                .isEqualTo("[" + "█".repeat(16) + "▒" + "░".repeat(16) + "]  50%");
        assertThat(lastLine(run(brisk("-u block " + args), Map.of("LANG", "C", "LC_ALL", "C")).stderr))
                .as("no UTF-8: plain").isEqualTo(plain);
        // pv 1.10 silently draws plain; the issue asks for a message and pv's status for a bad value
        Run unknown = run(brisk("-u nonsense " + args), utf8);
        assertThat(unknown.status).isEqualTo(run(PvIT.pv("-u nonsense " + args), Map.of()).status).isEqualTo(64);
        assertThat(unknown.stderr).isEqualTo("brisk pv: -u: nonsense: unknown bar style (plain, block, granular, shaded)\n");
        assertThat(unknown.stdout).isEmpty();
        String seqs = lastLine(run(brisk("-f -w 60 -s 4000000 -F %{bar-granular}|%{progress-amount-only}|%{bytes}|%{timer}|%10{bar-plain}| "
                + data), utf8).stderr);
        assertThat(seqs).isEqualTo("█".repeat(6) + "▊" + " ".repeat(20) + "| 25%| 976KiB|0:00:00|=>        |");
        Run colour = run(brisk("-f -F %{sgr:red,bold}%b%{sgr:reset} " + data), utf8);
        assertThat(lastLine(colour.stderr)).as("not a terminal: no SGR codes").isEqualTo(" 976KiB");
    }

    @Test
    void previousLineShowsTheLastLineWrittenAsTheManualSays() throws Exception {
        Path text = Files.writeString(dir.resolve("lines"), "first line\nsecond\tline\nthird line, the last whole one\nno newline yet");
        // the manual's example: a file through a pipe (which would splice without %L)
        Path out = dir.resolve("lines-out");
        Process p = new ProcessBuilder("bash", "-c", String.join(" ", brisk("-f -w 40 -F %b_[%16L]_[%{previous-line}] " + text))
                + " | cat > " + out).redirectError(ProcessBuilder.Redirect.PIPE).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(text));
        assertThat(lastLine(err)).isEqualTo("68.0  B_[third line, the ]_[third line,]"); // %{previous-line} fills what the rest leaves of 40
        Run fromFile = run(brisk("-f -F [%6L] " + text), Map.of());
        assertThat(lastLine(fromFile.stderr)).isEqualTo("[third ]");
    }

    @Test
    void numericWithFormatPrintsJsonAndRates() throws Exception {
        Run json = run(brisk("-n -i 0.2 -L 2m -F {\"bytes\":%b,\"elapsed\":%t,\"rate\":%r,\"percentage\":%{progress-amount-only}} "
                + data), Map.of());
        List<String> lines = json.stderr.lines().toList();
        assertThat(lines).hasSizeGreaterThan(1).allMatch(
                l -> l.matches("\\{\"bytes\":\\d+,\"elapsed\":\\d+\\.\\d{4},\"rate\":\\d+\\.\\d{4},\"percentage\":\\d+}"));
        assertThat(lines.getLast()).startsWith("{\"bytes\":1000000,").endsWith("\"percentage\":100}");
        Run bytesRate = run(brisk("-n -b -r " + data), Map.of());
        assertThat(bytesRate.stderr).matches("1000000 \\d+\\.\\d{4}\\n");
    }

    @Test
    void gaugeShowsTheRateAgainstTheHighestSeen() throws Exception {
        Run r = run(List.of("bash", "-c", "cat " + data + " | " + PvIT.shell(brisk("-f -g -p -w 50"))), Map.of());
        assertThat(lastLine(r.stderr)).matches("\\[[=> ]{38}\\]/ *[0-9.]+[kMG]?i?B/s *");
        Run moving = run(List.of("bash", "-c", "cat " + data + " | " + PvIT.shell(brisk("-f -p -w 50"))), Map.of());
        assertThat(lastLine(moving.stderr)).contains("<=>");
    }

    @Test
    void statsLineEndsTheTransfer() throws Exception {
        Run r = run(brisk("-q -v -i 0.1 -L 4m " + data), Map.of());
        assertThat(r.stdout).isEqualTo(Files.readAllBytes(data));
        assertThat(r.stderr).matches("rate min/avg/max/mdev = (\\d+\\.\\d{3}/){3}\\d+\\.\\d{3} B/s\\n");
        String[] v = r.stderr.replaceAll("[^=]*= ([^ ]*) .*\\n", "$1").split("/");
        assertThat(Double.parseDouble(v[0])).isLessThanOrEqualTo(Double.parseDouble(v[1]));
        assertThat(Double.parseDouble(v[1])).isLessThanOrEqualTo(Double.parseDouble(v[2]));
        assertThat(run(brisk("-q -v -8 -i 0.1 -L 4m " + data), Map.of()).stderr).endsWith(" b/s\n");
        assertThat(run(brisk("-q -v -i 5 " + data), Map.of()).stderr).isEqualTo("rate not measured\n");
    }

    @Test
    void sizeFromAFileOrADirectoryTree() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree/sub"));
        Files.write(tree.resolve("a"), new byte[1500]);
        Files.write(tree.getParent().resolve("b"), new byte[2500]);
        Files.createSymbolicLink(tree.resolve("link"), data); // not followed
        String half = "head -c 2000 /dev/zero | ";
        String quarter = "head -c 375 /dev/zero | ";
        Run fromTree = run(List.of("bash", "-c", half + PvIT.shell(brisk("-n -s @" + tree.getParent()))), Map.of());
        assertThat(lastLine(fromTree.stderr)).isEqualTo("50");
        Run fromFile = run(List.of("bash", "-c", quarter + PvIT.shell(brisk("-n -s @" + tree.resolve("a")))), Map.of());
        assertThat(lastLine(fromFile.stderr)).isEqualTo("25");
        Run missing = run(brisk("-s @/nonexistent " + data), Map.of());
        assertThat(missing.status).isEqualTo(64);
        assertThat(missing.stdout).isEmpty();
        assertThat(missing.stderr).isEqualTo("brisk pv: /nonexistent: failed to stat file: No such file or directory\n");
    }

    @Test
    void stopAtSizeNeverReadsPastTheSize() throws Exception {
        for (String flags : List.of("-q", "-q -C")) {
            for (String size : List.of("4", "0")) {
                String cmd = "printf 0123456789 | (%s; echo; cat)".formatted(PvIT.shell(brisk(flags + " -S -s " + size)));
                Run r = run(List.of("bash", "-c", cmd), Map.of());
                assertThat(new String(r.stdout)).as("%s -s %s", flags, size)
                        .isEqualTo("0123456789".substring(0, Integer.parseInt(size)) + "\n"
                                + "0123456789".substring(Integer.parseInt(size)));
            }
        }
        Run lines = run(List.of("bash", "-c", "printf '1\\n2\\n3\\n' | (" + PvIT.shell(brisk("-q -l -S -s 0")) + "; cat)"), Map.of());
        assertThat(new String(lines.stdout)).isEqualTo("1\n2\n3\n");
    }

    @Test
    void sparseOutputHasTheSameBytesInFewerBlocks() throws Exception {
        Path in = dir.resolve("sparse-in");
        try (RandomAccessFile f = new RandomAccessFile(in.toFile(), "rw")) {
            byte[] some = new byte[10_000];
            new Random(3).nextBytes(some);
            f.write(some);
            f.seek(8 << 20);
            f.write(some);
            f.setLength(12 << 20); // ends in a hole: the output's length is set at the end
        }
        Path dense = dir.resolve("dense");
        Path sparse = dir.resolve("sparse");
        Path fromPipe = dir.resolve("sparse-pipe");
        assertThat(run(List.of("bash", "-c", PvIT.shell(brisk("-q")) + " " + in + " > " + dense), Map.of()).status).isZero();
        assertThat(run(List.of("bash", "-c", PvIT.shell(brisk("-q -O")) + " " + in + " > " + sparse), Map.of()).status).isZero();
        assertThat(run(List.of("bash", "-c", "cat " + in + " | " + PvIT.shell(brisk("-q -O -o " + fromPipe))), Map.of()).status).isZero();
        byte[] want = Files.readAllBytes(in);
        for (Path out : List.of(dense, sparse, fromPipe)) {
            assertThat(Arrays.equals(Files.readAllBytes(out), want)).as("%s identical", out).isTrue();
        }
        long denseBlocks = blocks(dense);
        assertThat(blocks(sparse)).isLessThan(denseBlocks / 10);
        assertThat(blocks(fromPipe)).isLessThan(denseBlocks / 10);
    }

    @Test
    void directIoOnFilesAndAClearRefusal() throws Exception {
        Path out = dir.resolve("direct-out");
        Path big = dir.resolve("direct-in");
        byte[] bytes = new byte[3 * (1 << 20) + 1234]; // a partial last block
        new Random(4).nextBytes(bytes);
        Files.write(big, bytes);
        Process p = new ProcessBuilder(brisk("-q -K -L 2m -o " + out + " " + big)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            boolean direct = false;
            for (int i = 0; i < 40 && !direct; i++) {
                Thread.sleep(50);
                // the files are open in the process that copies: the warm server, or brisk's own JVM
                long copier = TestDaemon.enabled() ? TestDaemon.get().process().pid() : p.pid();
                direct = hasDirectFlag(copier, big) && hasDirectFlag(copier, out);
            }
            assertThat(direct).as("O_DIRECT on the input and the output").isTrue();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
        } finally {
            p.destroyForcibly();
        }
        assertThat(Arrays.equals(Files.readAllBytes(out), bytes)).isTrue();
        Run refused = run(brisk("-K /proc/version"), Map.of());
        assertThat(refused.status).isEqualTo(10); // as for any input that cannot be opened
        assertThat(refused.stderr).isEqualTo("brisk pv: /proc/version: Invalid argument (its file system refuses O_DIRECT, -K)\n");
    }

    @Test
    void storeAndForwardSendsEverythingAfterStoringIt() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmpdir"));
        Run r = run(List.of("bash", "-c", "cat " + data + " | " + PvIT.shell(brisk("-f -U - -b"))), Map.of("TMPDIR", tmp.toString()));
        assertThat(r.status).isZero();
        assertThat(Arrays.equals(r.stdout, Files.readAllBytes(data))).isTrue();
        assertThat(r.stderr.split("976KiB\r\n", -1)).as("two stages, each ending its line").hasSize(3);
        try (var left = Files.list(tmp)) {
            assertThat(left).as("the temporary file is removed").isEmpty();
        }
        Path store = dir.resolve("store");
        Run kept = run(List.of("bash", "-c", "cat " + data + " | " + PvIT.shell(brisk("-q -U " + store))), Map.of());
        assertThat(Arrays.equals(kept.stdout, Files.readAllBytes(data))).isTrue();
        assertThat(Files.readAllBytes(store)).isEqualTo(Files.readAllBytes(data));
    }

    @Test
    void pidFileLivesAsLongAsTheProcess() throws Exception {
        Path pidFile = Files.writeString(dir.resolve("pid"), "stale\n");
        Process p = new ProcessBuilder(brisk("-q -L 1m -P " + pidFile + " " + data))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String want = p.pid() + "\n";
            String seen = "";
            for (int i = 0; i < 40 && !seen.equals(want); i++) {
                Thread.sleep(50);
                seen = Files.readString(pidFile);
            }
            assertThat(seen).isEqualTo(want);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(pidFile).doesNotExist();
        } finally {
            p.destroyForcibly();
        }
        Run bad = run(brisk("-P /nonexistent/pid " + data), Map.of());
        assertThat(bad.status).isEqualTo(1);
        assertThat(bad.stdout).isEmpty();
        assertThat(bad.stderr).isEqualTo("brisk pv: /nonexistent/pid: No such file or directory\n");
    }

    @Test
    void extraDisplayWritesTheWindowAndProcessTitles() throws Exception {
        Run window = run(brisk("-f -x window:%b " + data), Map.of());
        assertThat(window.stderr).contains("\033]2;976KiB\007");
        Process p = new ProcessBuilder(brisk("-i 0.1 -L 1m -x proc:%b " + data))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String comm = "";
            for (int i = 0; i < 40 && !comm.matches("\\d.*B"); i++) {
                Thread.sleep(50);
                comm = Files.readString(Path.of("/proc/" + p.pid() + "/comm")).strip();
            }
            assertThat(comm).matches("\\d.*B");
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void errorSkipBlockSetsTheSkipSize() throws Exception {
        Path unreadable = Files.createDirectories(dir.resolve("dir-as-data"));
        long size = Files.size(unreadable);
        Run r = run(brisk("-q -Z 1024 " + unreadable), Map.of()); // -Z alone acts as -E
        assertThat(r.stdout).hasSize((int) size).containsOnly((byte) 0);
        assertThat(r.stderr.lines().filter(l -> l.endsWith("skipped 1024 bytes")).count()).isEqualTo(size / 1024);
    }

    @Test
    void watchesSeveralTargetsByPidNameAndListFile() throws Exception {
        Path sleeper = dir.resolve("bsleepx");
        Files.copy(Path.of("/bin/sleep"), sleeper);
        sleeper.toFile().setExecutable(true);
        List<Process> holders = new ArrayList<>();
        // the three watches at once (each lasts as long as its target); the late opener's first,
        // so that it begins before the file is opened
        try (ExecutorService watches = Executors.newFixedThreadPool(3)) {
            Process late = new ProcessBuilder("bash", "-c", "sleep 0.8; exec 5<" + data + "; sleep 1")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            holders.add(late);
            Future<Run> opened = watches.submit(() -> run(brisk("-f -i 0.3 -d " + late.pid()), Map.of()));
            Process holder = hold("exec 3<" + data + " 4<" + data + "; sleep 1.5", holders);
            Path list = Files.writeString(dir.resolve("list"), "# targets\n\n  " + holder.pid() + ":4\n");
            Future<Run> byPid = watches.submit(() -> run(brisk("-f -i 0.3 -d " + holder.pid() + ":3 @" + list), Map.of()));
            hold("exec 3<" + data + " 4<" + data + "; exec " + sleeper + " 1.5", holders);
            Future<Run> byName = watches.submit(() -> run(brisk("-f -i 0.3 -d =bsleepx"), Map.of()));
            Run r = byPid.get();
            assertThat(r.status).as(r.stderr).isZero();
            assertThat(r.stderr).contains(holder.pid() + ":3:").contains(holder.pid() + ":4:");
            Run named = byName.get();
            assertThat(named.status).as(named.stderr).isZero();
            assertThat(named.stderr).contains("   3:" + data).contains("   4:" + data);
            assertThat(opened.get().stderr).as("a file opened after the watch began").contains("   5:" + data);
        } finally {
            holders.forEach(Process::destroyForcibly);
        }
        Path nested = Files.writeString(dir.resolve("nested"), "@other\n");
        for (String[] bad : new String[][] {{"-d @", "-d @: missing filename"},
                {"-d @/nonexistent", "-d @: /nonexistent: No such file or directory"},
                {"-d =", "-d =: missing process name"},
                {"-d @" + nested, "-d @: " + nested + ":1: list files may not contain @ lines"},
                {"-d 12 notapid", "-d: process ID or pid:fd pair expected"}}) {
            Run r = run(brisk(bad[0]), Map.of());
            assertThat(r.status).as(bad[0]).isEqualTo(64);
            assertThat(r.stderr).as(bad[0]).isEqualTo("brisk pv: " + bad[1] + "\n");
        }
    }

    @Test
    void queryShowsAnotherBriskPvsTransferAndNeverAnotherUsers() throws Exception {
        Process target = new ProcessBuilder(brisk("-q -i 0.2 -L 400k " + data)).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Thread.sleep(700);
            Run q = run(brisk("-Q " + target.pid() + " -f -i 0.3 -b"), Map.of());
            assertThat(q.status).as(q.stderr).isZero();
            List<String> shown = Arrays.stream(q.stderr.split("[\r\n]+")).map(String::strip).filter(l -> !l.isEmpty()).toList();
            assertThat(shown).hasSizeGreaterThan(1).allMatch(l -> l.matches("[0-9.]+ ?[KM]?i?B"));
            assertThat(shown.getLast()).isEqualTo("976KiB"); // the target's final count
            assertThat(target.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            target.destroyForcibly();
        }
        Run none = run(brisk("-Q 999999999"), Map.of());
        assertThat(none.status).isEqualTo(1);
        assertThat(none.stderr).isEqualTo("brisk pv: 999999999: No such process\n");
        // another user's brisk pv is never queried, in either direction
        org.junit.jupiter.api.Assumptions.assumeTrue(ProcessHandle.current().info().user().orElse("").equals("root"));
        List<String> asNobody = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        Process mine = new ProcessBuilder(brisk("-q -L 200k " + data)).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        List<String> theirsCmd = new ArrayList<>(asNobody);
        theirsCmd.addAll(PvIT.briskJvm("-q -L 200k /dev/zero")); // another user: a JVM of its own
        Process theirs = new ProcessBuilder(theirsCmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Thread.sleep(500);
            List<String> query = new ArrayList<>(asNobody);
            query.addAll(PvIT.briskJvm("-Q " + mine.pid()));
            Run byNobody = run(query, Map.of());
            assertThat(byNobody.status).isEqualTo(1);
            assertThat(byNobody.stderr).isEqualTo("brisk pv: " + mine.pid() + ": Operation not permitted (another user's process)\n");
            Run byRoot = run(brisk("-Q " + theirs.pid()), Map.of());
            assertThat(byRoot.status).isEqualTo(1);
            assertThat(byRoot.stderr).contains("Operation not permitted");
        } finally {
            mine.destroyForcibly();
            theirs.destroyForcibly();
        }
    }

    @Test
    void remoteReachesACopyAsSoonAsItsPidfileNamesIt() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home-early"));
        Map<String, String> env = Map.of("HOME", home.toString());
        byte[] bytes = new byte[2_000_000];
        new Random(4).nextBytes(bytes);
        Path big = Files.write(dir.resolve("early-data"), bytes);
        Path pidfile = dir.resolve("early.pid");
        Path out = dir.resolve("early-out");
        // a 3 s interval: its first update comes long after the request below (pv's own
        // Transfer_-_--remote test sends one a second after the start, reading the pidfile)
        ProcessBuilder pb = new ProcessBuilder(brisk("-f -i 3 -L 16k -P " + pidfile + " " + big))
                .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        Process target = pb.start();
        try {
            String pid = "";
            for (int i = 0; i < 400 && pid.isEmpty(); i++) {
                Thread.sleep(25);
                pid = Files.exists(pidfile) ? Files.readString(pidfile).strip() : "";
            }
            assertThat(pid).isNotEmpty();
            Run sent = run(brisk("-R " + pid + " -L 1G"), env);
            assertThat(sent.stderr).isEmpty();
            assertThat(sent.status).isZero();
            assertThat(target.waitFor(40, TimeUnit.SECONDS)).as("the new rate limit took effect").isTrue();
            assertThat(Files.readAllBytes(out)).isEqualTo(bytes);
        } finally {
            target.destroyForcibly();
        }
    }

    @Test
    void remoteChangesARunningBriskPvAndRefusesOthers() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home-remote"));
        Map<String, String> env = Map.of("HOME", home.toString());
        byte[] bytes = new byte[4_000_000];
        new Random(3).nextBytes(bytes);
        Path big = Files.write(dir.resolve("remote-data"), bytes);
        Path out = dir.resolve("remote-out");
        Path err = dir.resolve("remote-err");
        // at 64 KiB/s this copy would take a minute: only the new -L lets it end within the wait below
        ProcessBuilder pb = new ProcessBuilder(brisk("-f -i 0.2 -L 64k -N before -F %N_%b " + big))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process target = pb.start();
        try {
            // where pv looks: /run/user/UID when it is there, else $HOME/.pv
            Path run = Path.of("/run/user", Files.getAttribute(Path.of("/proc/self"), "unix:uid").toString());
            Path exchange = Files.isDirectory(run) && Files.isWritable(run) ? run : home.resolve(".pv");
            Path marker = exchange.resolve("brisk-pv." + target.pid() + ".listen");
            for (int i = 0; i < 200 && !Files.exists(marker); i++) {
                Thread.sleep(100);
            }
            assertThat(marker).exists();
            Run sent = run(brisk("-R " + target.pid() + " -N after -F %N_%b -L 1G"), env);
            assertThat(sent.stderr).isEmpty();
            assertThat(sent.status).isZero();
            assertThat(target.waitFor(40, TimeUnit.SECONDS)).as("the new rate limit took effect").isTrue();
            assertThat(target.exitValue()).isZero();
            assertThat(Files.readAllBytes(out)).isEqualTo(bytes);
            String shown = Files.readString(err);
            assertThat(shown).contains("   before:_").contains("    after:_");
            assertThat(shown.lastIndexOf("before:")).isLessThan(shown.indexOf("after:"));
            assertThat(marker).doesNotExist(); // removed at exit: a later -R finds no listener
        } finally {
            target.destroyForcibly();
        }
        // a process that is no brisk pv is never touched (pv itself would send it SIGUSR2)
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            Run refused = run(brisk("-R " + sleeper.pid() + " -L 1k"), env);
            assertThat(refused.status).isEqualTo(1);
            assertThat(refused.stderr).isEqualTo("brisk pv: " + sleeper.pid() + ": message not received (not a running brisk pv)\n");
            assertThat(sleeper.isAlive()).isTrue();
        } finally {
            sleeper.destroyForcibly();
        }
        // the messages and statuses pv gives (1.6's for a missing process are 1.10's too)
        Run gone = run(brisk("-R 999999999 -L 1k"), env);
        Run pvGone = run(List.of("pv", "-R", "999999999", "-L", "1k"), env);
        assertThat(gone.status).isEqualTo(pvGone.status).isEqualTo(1);
        assertThat(gone.stderr).isEqualTo("brisk " + pvGone.stderr).isEqualTo("brisk pv: 999999999: No such process\n");
        Run notNumber = run(brisk("-R abc"), env);
        assertThat(notNumber.status).isEqualTo(run(List.of("pv", "-R", "abc"), env).status).isEqualTo(64);
        assertThat(notNumber.stderr).isEqualTo("brisk pv: -R: abc: integer argument expected\n"); // pv 1.10's words
        assertThat(run(brisk("-R 1 -Q 1"), env).stderr).isEqualTo("brisk pv: cannot use remote control and remote query together\n");
        assertThat(run(brisk("-R 1 file"), env).stderr).isEqualTo("brisk pv: -R: files cannot be specified with this option\n");
        // another user's brisk pv is never changed, in either direction
        org.junit.jupiter.api.Assumptions.assumeTrue(ProcessHandle.current().info().user().orElse("").equals("root"));
        List<String> asNobody = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups");
        List<String> theirsCmd = new ArrayList<>(asNobody);
        theirsCmd.addAll(PvIT.briskJvm("-q -L 200k /dev/zero")); // another user: a JVM of its own
        Process theirs = new ProcessBuilder(theirsCmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        ProcessBuilder minePb = new ProcessBuilder(brisk("-q -i 0.2 -L 200k /dev/zero")).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        minePb.environment().putAll(env);
        Process mine = minePb.start();
        try {
            Thread.sleep(800);
            Run byRoot = run(brisk("-R " + theirs.pid() + " -L 1k"), env);
            assertThat(byRoot.status).isEqualTo(1);
            assertThat(byRoot.stderr).isEqualTo("brisk pv: " + theirs.pid() + ": Operation not permitted\n");
            List<String> send = new ArrayList<>(asNobody);
            send.addAll(PvIT.briskJvm("-R " + mine.pid() + " -L 1k"));
            Run byNobody = run(send, env);
            assertThat(byNobody.status).isEqualTo(1);
            assertThat(byNobody.stderr).isEqualTo("brisk pv: " + mine.pid() + ": Operation not permitted\n");
            assertThat(theirs.isAlive()).isTrue();
            assertThat(mine.isAlive()).isTrue();
        } finally {
            mine.destroyForcibly();
            theirs.destroyForcibly();
        }
    }

    /** A bash running {@code script}, started a moment ago (its descriptors open). */
    private static Process hold(String script, List<Process> holders) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", script).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        holders.add(p);
        Thread.sleep(200);
        return p;
    }

    private static boolean hasDirectFlag(long pid, Path file) throws IOException {
        try (var fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).equals(file)) {
                        String info = Files.readString(Path.of("/proc/" + pid + "/fdinfo/" + fd.getFileName()));
                        String flags = info.lines().filter(l -> l.startsWith("flags:")).findFirst().orElse("flags: 0");
                        return (Integer.parseInt(flags.substring(6).strip(), 8) & 040000) != 0;
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException e) {
            return false; // exited
        }
        return false;
    }

    private static long blocks(Path f) throws Exception {
        return Long.parseLong(new String(run(List.of("stat", "-c", "%b", f.toString()), Map.of()).stdout).strip());
    }

    private static String lastLine(String stderr) {
        String[] parts = stderr.split("[\r\n]+");
        return parts.length == 0 ? "" : parts[parts.length - 1];
    }

    private static List<String> brisk(String args) {
        List<String> cmd = new ArrayList<>(PvIT.brisk(""));
        cmd.removeLast();
        cmd.addAll(List.of(args.split(" ")));
        return cmd;
    }

    private static Run run(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "stdout", "");
        Path err = Files.createTempFile(dir, "stderr", "");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        return new Run(p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
    }
}
