// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The StumpWM module {@code clients/stumpwm/brisk-stumpwm} end to end: Debian's {@code stumpwm}
 * under {@code Xvfb} (a display number Xvfb picks free, {@code -displayfd}; no TCP), with the
 * module loaded by its rc file as a user loads it ({@code add-to-load-path}, {@code load-module}),
 * driven through StumpWM's own command interface (the root window's {@code STUMPWM_COMMAND}
 * property, which {@code stumpish} sets; here {@code xprop}): 1000 x {@code ls} through brisk
 * and 1000 x through StumpWM's own {@code run-shell-command} give the same output (both times
 * printed; bench/stumpwm.sh measures them, docs/PERFORMANCE.md); a mode line's
 * {@code (:eval (run-shell-command ...))} goes through brisk; with no server to reach, StumpWM's
 * own way answers. The brisk server, Xvfb and StumpWM are this test's children, ended by PID.
 */
// not @Isolated: nothing here is timed (its waits are deadlines of minutes, its printed times are
// for reading; bench/stumpwm.sh measures), and StumpWM's first compilation, a single core's work,
// runs beside another class instead of leaving the second core idle
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StumpwmIT {
    private static final Path ROOT = Path.of(System.getProperty("brisk.root", "..")).toAbsolutePath().normalize();
    /** StumpWM's compiled files: kept between runs (StumpWM compiles itself on its first start). */
    private static final Path CACHE = Path.of("target", "stumpwm-cache").toAbsolutePath();

    @Test
    void lsThroughBriskEqualsStumpwmsOwnRunShellCommand() throws Exception {
        Path dir = Files.createTempDirectory("brisk-stumpwm-it", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path listed = Files.createDirectory(dir.resolve("listed"));
        for (String name : List.of("a", "b c", "d.txt", "it's")) {
            Files.writeString(listed.resolve(name), name);
        }
        Path home = Files.createDirectory(dir.resolve("home"));
        Path ready = dir.resolve("ready");
        // as a user's rc file loads the module; the file "ready" says :READY, or the error
        Files.writeString(home.resolve(".stumpwmrc"), String.join("\n",
                "(in-package :stumpwm)",
                "(let ((outcome (handler-case",
                "                   (progn (add-to-load-path \"" + ROOT.resolve("clients/lisp") + "/\")",
                "                          (add-to-load-path \"" + ROOT.resolve("clients/stumpwm/brisk-stumpwm") + "/\")",
                "                          (load-module \"brisk-stumpwm\")",
                "                          (load \"" + ROOT.resolve("bench/stumpwm_bench.lisp") + "\")",
                "                          :ready)",
                "                 (error (e) (princ-to-string e)))))",
                "  (with-open-file (s \"" + ready + ".tmp\" :direction :output) (print outcome s))",
                "  (sb-posix:rename \"" + ready + ".tmp\" \"" + ready + "\"))", ""));
        Process xvfb = null;
        Process wm = null;
        try (ServeServer server = ServeServer.start()) {
            xvfb = new ProcessBuilder("Xvfb", "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1024x768x24")
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectError(dir.resolve("xvfb.log").toFile()).start();
            String display = ":" + displayNumber(xvfb);
            ProcessBuilder pb = new ProcessBuilder("sbcl", "--load", "/usr/lib/stumpwm/load.lisp") // what /usr/bin/stumpwm runs, without its shell between
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("stumpwm.log").toFile());
            pb.environment().put("HOME", home.toString());
            pb.environment().put("XDG_CONFIG_HOME", home.resolve(".config").toString());
            pb.environment().put("XDG_CACHE_HOME", CACHE.toString());
            pb.environment().put("DISPLAY", display);
            pb.environment().put("BRISK_SOCKET", server.socket.toString());
            pb.environment().put("BRISK_COMMAND", "/bin/false"); // the test's server, never the user's
            wm = pb.start();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
            while (!Files.exists(ready)) {
                assertThat(wm.isAlive() && System.nanoTime() < until).as("StumpWM ready; its log: %s", tail(dir.resolve("stumpwm.log"))).isTrue();
                Thread.sleep(100);
            }
            assertThat(Files.readString(ready)).as("the module loaded").contains(":READY");

            Path result = dir.resolve("result");
            command(display, "eval-line (brisk-stumpwm-bench:compare 1000 \"ls '" + listed + "'\" \"" + result + "\")", ":DONE", 150);
            String plist = Files.readString(result);
            assertThat(plist).contains(":OUTPUTS-EQUAL T", ":THROUGH-BRISK 1000",
                    ":BRISK-OUTPUT \"a\nb c\nd.txt\nit's\n\"", ":OWN-OUTPUT \"a\nb c\nd.txt\nit's\n\"");
            double brisk = number(plist, "BRISK-SECONDS");
            double own = number(plist, "OWN-SECONDS");
            System.out.printf("StumpWM, 1000 x ls: through brisk %.2f s, StumpWM's own run-shell-command %.2f s (%.1fx)%n",
                    brisk, own, own / brisk);

            // a mode line's (:eval (run-shell-command ...)): through brisk
            assertThat(command(display, "eval-line (brisk-stumpwm-bench:mode-line-text \"echo ml-$((6*7))\")", "text=", 30))
                    .containsPattern("text=ml:ml-42\\| brisk=[1-9]");
            // no server to reach: StumpWM's own way, with the screen's DISPLAY
            assertThat(command(display, "eval-line (brisk-stumpwm-bench:fallback \"echo fb; echo $DISPLAY\")", "output=", 30))
                    .contains("output=fb|" + display + ".0| brisk=0 own=1");
            // the server again: through brisk, with the same DISPLAY; StumpWM's own way ran once in all
            assertThat(command(display, "eval-line (brisk-stumpwm-bench:one-line (stumpwm:run-shell-command \"echo back; echo $DISPLAY\" t))",
                    "back", 30)).contains("back|" + display + ".0|");
            assertThat(command(display, "eval-line (format nil \"own=~d\" (nth-value 1 (brisk-stumpwm:calls)))", "own=", 30))
                    .contains("own=1001\\\""); // the 1000 of the comparison and the fallback
        } finally {
            end(wm);
            end(xvfb);
        }
    }

    /** The display number Xvfb chose and wrote on its stdout once it listens. */
    private static int displayNumber(Process xvfb) throws Exception {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return new BufferedReader(new InputStreamReader(xvfb.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        String n = line.get(30, TimeUnit.SECONDS);
        assertThat(n).as("Xvfb's display number").isNotNull().matches("[0-9]+");
        return Integer.parseInt(n);
    }

    /**
     * Runs one StumpWM command as stumpish does: clears {@code STUMPWM_COMMAND_RESULT}, sets
     * {@code STUMPWM_COMMAND} on the root window, waits for a result holding {@code marker}; returns
     * xprop's line (quotes as \", newlines as \n).
     */
    private static String command(String display, String text, String marker, int seconds) throws Exception {
        xprop(display, "-remove", "STUMPWM_COMMAND_RESULT");
        xprop(display, "-f", "STUMPWM_COMMAND", "8s", "-set", "STUMPWM_COMMAND", text);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String r = "";
        while (System.nanoTime() < until) {
            r = xprop(display, "STUMPWM_COMMAND_RESULT");
            if (r.contains("(STRING) = ") && r.contains(marker)) {
                return r;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no answer with " + marker + " from StumpWM in " + seconds + " s to " + text + "; last: " + r);
    }

    private static String xprop(String display, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("xprop", "-display", display, "-root"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        try {
            byte[] out = p.getInputStream().readAllBytes();
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("xprop ended").isTrue();
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    private static double number(String plist, String key) {
        Matcher m = Pattern.compile(":" + key + " ([0-9.]+)").matcher(plist);
        assertThat(m.find()).as(key + " in " + plist).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(none)";
        }
        String s = Files.readString(log, StandardCharsets.UTF_8);
        return s.substring(Math.max(0, s.length() - 3000));
    }

    /** TERM, then KILL after 10 s, to the process and what it started; reaped. */
    private static void end(Process p) throws InterruptedException {
        if (p == null) {
            return;
        }
        List<ProcessHandle> children = p.descendants().toList();
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        children.forEach(ProcessHandle::destroyForcibly);
    }
}
