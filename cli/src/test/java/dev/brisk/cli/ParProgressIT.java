// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code brisk par --progress}, {@code --eta} and {@code --bar} against GNU parallel's real
 * displays: each pattern is checked on GNU parallel's stderr of the same command in the same
 * test, then on brisk's; stderr into a file (80 columns) and on a terminal ({@code script}, 100
 * columns). Stdout carries only the jobs' output.
 */
@Isolated // timing, shared hosts or system-wide state: alone (failsafe runs other classes two at a time)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ParProgressIT {
    private static final String JOBS = " -k -j2 'sleep 0.1; echo {}' ::: 1 2 3 4 5";
    private static final String HEADER = "\nComputers / CPU cores / Max jobs to run\n1:local / \\d+ / 2\n"
            + "\nComputer:jobs running/jobs completed/%of started jobs/Average seconds to complete\n";
    // GNU parallel asks tput for the width on /dev/tty, which a test has not: it says so on stderr
    private static final String TPUT_NOISE = "sh: 1: cannot open /dev/tty: No such device or address\n";

    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void wrapper() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
    }

    record Out(String stdout, String stderr, int status) {}

    /** Runs a bash script with stdout and stderr into files; stderr without tput's complaint. */
    static Out sh(String script) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("setsid", "bash", "-c", script).directory(dir.toFile());
        pb.environment().put("B", brisk.toString());
        Path o = Files.createTempFile(dir, "o", "");
        Path e = Files.createTempFile(dir, "e", "");
        pb.redirectOutput(o.toFile()).redirectError(e.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        assertThat(p.waitFor(100, TimeUnit.SECONDS)).as("finished: %s", script).isTrue();
        return new Out(Files.readString(o, StandardCharsets.ISO_8859_1),
                Files.readString(e, StandardCharsets.ISO_8859_1).replace(TPUT_NOISE, ""), p.exitValue());
    }

    private static void bothMatch(String flag, Pattern whole) throws Exception {
        Out gnu = sh("parallel --will-cite " + flag + JOBS);
        Out ours = sh("\"$B\" par " + flag + JOBS);
        assertThat(gnu.stderr).as("GNU parallel %s", flag).matches(whole);
        assertThat(ours.stderr).as("brisk par %s", flag).matches(whole);
        assertThat(ours.stdout).isEqualTo(gnu.stdout).isEqualTo("1\n2\n3\n4\n5\n");
        assertThat(ours.status).isEqualTo(gnu.status).isZero();
    }

    @Test
    void progressPrintsComputersHeaderThenLocalLineAndFinalSummary() throws Exception {
        bothMatch("--progress", Pattern.compile(HEADER + "(\rlocal:[0-2]/[0-5]/100%/\\d+\\.\\ds )*"
                + "\rlocal:0/5/100%/\\d+\\.\\ds \n"));
    }

    @Test
    void etaAddsEtaLeftAndAverage() throws Exception {
        bothMatch("--eta", Pattern.compile(HEADER + "(\rETA: \\d+s Left: [0-5] AVG: \\d+\\.\\d\\ds  local:[0-2]/[0-5]/100%/\\d+\\.\\ds )*"
                + "\rETA: 0s Left: 0 AVG: \\d+\\.\\d\\ds  local:0/5/100%/\\d+\\.\\ds \n"));
    }

    @Test
    void barDrawsZenityLinePercentAndReverseVideoBarIn80ColumnsIntoAFile() throws Exception {
        bothMatch("--bar", Pattern.compile("(\r\r#   \\d+ sec [^\r]*\r\\d+(\\.\\d+)?\r\033\\[7m[^\r]*\033\\[0m)*"
                + "\r\r#   0 sec 5 {69}\r100\r\033\\[7m100% 5:0=0s 5 {67}\033\\[0m\033\\[0m\n"));
        Out ours = sh("\"$B\" par --bar" + JOBS);
        // every frame: the bar's text is 80 columns, reversed up to the done fraction
        Matcher m = Pattern.compile("\r\r(#[^\r]*)\r([\\d.]+)\r\033\\[7m([^\033]*)\033\\[0m([^\033]*)\033\\[0m").matcher(ours.stderr);
        int frames = 0;
        while (m.find()) {
            frames++;
            assertThat(m.group(1)).hasSize(80).matches("#   \\d+ sec [1-5]? *");
            double pct = Double.parseDouble(m.group(2));
            assertThat(m.group(3).length() + m.group(4).length()).isEqualTo(80);
            assertThat(m.group(3).length()).isEqualTo((int) (80 * pct / 100));
            assertThat(m.group(3) + m.group(4)).matches("\\d+% [0-5]:[0-5]=\\d+s [1-5]? *");
        }
        assertThat(frames).isPositive();
    }

    @Test
    void noJobsPrintsZero() throws Exception {
        Out gnu = sh("parallel --will-cite --progress true < /dev/null");
        Out ours = sh("\"$B\" par --progress true < /dev/null");
        assertThat(ours.stderr).isEqualTo(gnu.stderr).isEqualTo("\nComputers / CPU cores / Max jobs to run\n1:local / "
                + Runtime.getRuntime().availableProcessors() + " / " + Runtime.getRuntime().availableProcessors() + "\n\r0\n");
    }

    @Test
    void onATerminalTheBarIsAsWideAsTheTerminalAndStdoutStaysClean() throws Exception {
        String gnu = terminal("parallel --will-cite --bar");
        String ours = terminal("\"$B\" par --bar");
        // on the terminal, \n is shown as \r\n; stdout went to a file
        Pattern last = Pattern.compile("(?s).*\r\r#   0 sec 3 {89}\r100\r\033\\[7m100% 3:0=0s 3 {87}\033\\[0m\033\\[0m\r\n"
                + "out=1 2 3\r\n");
        assertThat(gnu).matches(last);
        assertThat(ours).matches(last);
    }

    @Test
    void onATerminalEtaDrawsTheSameLines() throws Exception {
        Pattern eta = Pattern.compile(HEADER.replace("\n", "\r\n")
                + "(\rETA: \\d+s Left: [0-3] AVG: \\d+\\.\\d\\ds  local:[0-2]/[0-3]/100%/\\d+\\.\\ds )*"
                + "\rETA: 0s Left: 0 AVG: \\d+\\.\\d\\ds  local:0/3/100%/\\d+\\.\\ds \r\nout=1 2 3\r\n");
        assertThat(terminal("parallel --will-cite --eta")).matches(eta);
        assertThat(terminal("\"$B\" par --eta")).matches(eta);
    }

    /** What a 100-column terminal shows of {@code par} with stderr on it and stdout into a file. */
    private static String terminal(String par) throws Exception {
        Path ts = Files.createTempFile(dir, "ts", "");
        Path out = Files.createTempFile(dir, "out", "");
        Out o = sh("script -qfc \"stty cols 100; " + par.replace("\"", "\\\"") + " -j2 'sleep 0.1; echo {}' ::: 1 2 3 > " + out
                + "; echo out=\\$(sort " + out + ")\" " + ts + " > /dev/null");
        assertThat(o.status).as(o.stderr).isZero();
        String s = Files.readString(ts, StandardCharsets.ISO_8859_1);
        // script frames the session with "Script started ..." and "Script done ..." lines
        return s.substring(s.indexOf('\n') + 1, s.lastIndexOf("\nScript done"));
    }
}
