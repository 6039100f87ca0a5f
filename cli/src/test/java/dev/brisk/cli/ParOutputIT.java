// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GNU parallel's output options and their neighbours ({@code --color} and its aliases,
 * {@code --ctag}, {@code --ctag-string}, {@code --color-failed}, {@code --results} NAME.csv /
 * .tsv / .json / with replacement strings / long arguments, {@code --compress*}, {@code --env}
 * bytes, {@code --nice}, {@code --timeout}'s output, {@code --tty}, {@code -o}, {@code -p} on a
 * pseudo-terminal, {@code --template}, {@code --limit}, {@code --memsuspend}, {@code --noswap}):
 * each command line run by GNU parallel 20221122 ({@code parallel --will-cite}) and by
 * {@code brisk par}, in a session of its own (no controlling terminal, so GNU's {@code tput}
 * falls back as brisk does), with the same stdout, stderr and status, and the same files.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ParOutputIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void inputs() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        Files.writeString(dir.resolve("my.tmpl"), "Xval: {x}\nYval: {y}\nSeq: {#}\n");
        Files.writeString(dir.resolve("plain.tmpl"), "[{}] [{1}] {#}\n");
    }

    /** GNU's and brisk's run of {@code args} (after the program's name), each without a terminal. */
    private static Out[] run(String args) throws IOException, InterruptedException {
        return GnuRuns.both(dir, brisk, "setsid -w parallel --will-cite " + args, "setsid -w \"$B\" par " + args);
    }

    private static void assertSame(String args) throws IOException, InterruptedException {
        Out[] r = run(args);
        assertThat(r[1].stdout()).as("stdout of %s (stderr: %s)", args, r[1].stderr()).isEqualTo(r[0].stdout());
        assertThat(r[1].stderr()).as("stderr of %s", args).isEqualTo(r[0].stderr().replace("parallel: ", "brisk: "));
        assertThat(r[1].status()).as("status of %s", args).isEqualTo(r[0].status());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // each job's colour by its sequence number (GNU's table, 300 jobs go round it), \r and a last line without newline
        "-k --color 'echo {}; printf \"x\\ry\"; echo e >&2' ::: a b",
        "-k --colour echo ::: $(seq 300)",
        "-k -j1 --color 'printf \"{}\\n\\n\"' ::: a b",
        "-k --ctag echo ::: a b",
        "-k --ctag-string '<{}>' echo ::: a b",
        "-k --ctagstring '<{}>' echo ::: a",
        "-k --color --tag 'echo {}; echo {}' ::: a b",
        "-k --color --tagstring '{#}' echo ::: a",
        // failed jobs white on red, the others plain (a last line still gets its newline)
        "-k --color-failed 'printf {}; exit {}' ::: 0 1 2",
        "-k --colour-failed 'echo {}; exit {}' ::: 0 1",
        "-k --colorfailed 'echo {}; exit {}' ::: 0 1",
        "-k --colourfailed 'echo {}; exit {}' ::: 0 1",
        "-k --color-fail 'echo {}; exit {}' ::: 0 1",
        "-k --colour-fail 'echo {}; exit {}' ::: 0 1",
        "-k --colorfail 'echo {}; exit {}' ::: 0 1",
        "-k --colourfail 'echo {}; exit {}' ::: 0 1",
        "-k --cf --tag 'echo {}; exit {}' ::: 0 1",
        "-k --cf --color 'echo {}; exit {}' ::: 0 1 0",
        // --compress: held output passes through the compressor (GNU's choice, or the one given), unchanged
        "-k --compress 'seq {}' ::: 3 1000",
        "-k --compress-program gzip 'echo {}; echo e >&2' ::: a b",
        "-k --use-compress-program 'gzip' --decompress-program 'gzip -dc' echo ::: a",
        "-k --usecompressprogram gzip --use-decompress-program 'gzip -dc' echo ::: a",
        "-k --compressprogram gzip --usedecompressprogram 'gzip -dc' echo ::: a",
        "-k --compress-program gzip --decompressprogram 'gzip -dc' echo ::: a",
        "-j1 --compress --line-buffer echo ::: a b",
        // a timed-out job: what it printed before the kill is printed, after GNU's warning
        "-k -j1 --timeout 1 'echo start; printf part; echo err >&2; sleep 4; echo end' ::: 1 2",
        // the start gates: jobs start as ever while the machine has room
        "-k --memsuspend 1k echo ::: a b",
        "-k --noswap echo ::: a b",
        "-k --limit 'exit 0' echo ::: a b",
        "-k --limit 'mem 1k' echo ::: a b",
        "-k --limit 'load 1000' echo ::: a b",
        // --nice: jobs run at that niceness (19: above any caller's, so both set it)
        "-k --nice 19 'cut -d\" \" -f19 /proc/self/stat' ::: 1 2",
        // and so do the jobs of -u and --line-buffer, which run on a pool of warm shells
        "-u --nice 19 'cut -d\" \" -f19 /proc/self/stat; : {}' ::: 1",
        "-k --lb --nice 18 'cut -d\" \" -f19 /proc/self/stat' ::: 1 2",
    })
    void sameAsGnu(String args) throws IOException, InterruptedException {
        assertSame(args);
    }

    /** A results table on a full stdout says so in one line and fails (GNU parallel 20221122 exits 0, silent). */
    @Test
    void aResultsTableOnAFullDiskFails() throws Exception {
        Out ours = GnuRuns.both(dir, brisk, "true", "\"$B\" par --results -.csv echo ::: a >/dev/full")[1];
        assertThat(ours.stderr()).isEqualTo("brisk par: No space left on device\n");
        assertThat(ours.status()).isEqualTo(255);
    }

    /** Output that brisk streams as it comes ({@code -u}, {@code --lb}) on a full disk: one line and 255, as grouped output's. */
    @ParameterizedTest
    @ValueSource(strings = {"-u", "--lb", "-k --lb", "-u --tag", ""})
    void streamedOutputOnAFullDiskFails(String mode) throws Exception {
        Out ours = GnuRuns.both(dir, brisk, "true", "\"$B\" par " + mode + " echo ::: a b >/dev/full")[1];
        assertThat(ours.stderr()).isEqualTo("brisk par: No space left on device\n");
        assertThat(ours.status()).isEqualTo(255);
    }

    /** {@code --limit}: status 1 holds the start back until the command says 0; 2 kills the youngest running job. */
    @Test
    void limitHoldsAndKills() throws IOException, InterruptedException {
        // (one job at a time: GNU parallel runs the command once per running job, youngest first,
        // so with two a 2 can come at either's turn)
        String kill = "'if [ -e started ] && [ ! -e k ]; then touch k; exit 2; fi; exit 0'";
        for (String args : new String[] {
            "-j1 --limit " + kill + " 'touch started; sleep 3; echo {}' ::: a b",
            "-k --limit '[ -e go ]' echo ::: a b",
        }) {
            Out[] r = GnuRuns.both(dir, brisk, "mkdir -p lg; cd lg; rm -f started k go; (sleep 1; touch go) & parallel --will-cite " + args,
                    "mkdir -p lb; cd lb; rm -f started k go; (sleep 1; touch go) & \"$B\" par " + args);
            assertThat(r[1].stdout()).as("stdout of %s", args).isEqualTo(r[0].stdout());
            assertThat(r[1].status()).as("status of %s", args).isEqualTo(r[0].status());
        }
    }

    /**
     * {@code --results}: the same files, byte for byte, for a directory (arguments with
     * {@code / \ TAB}, one longer than a file name can be, two sources), a name with replacement
     * strings (a file and its {@code .err}, {@code .seq}; a directory when it ends with {@code /}),
     * {@code --compress} (the files compressed), and {@code --template}'s files.
     */
    @Test
    void sameFilesAsGnu() throws IOException, InterruptedException {
        String longArg = "x".repeat(300);
        String script = String.join("; ",
                "P --results r echo ::: a 'x\ty' 'p\\q' 'm/n' " + longArg + " ::: 1",
                "P --results 'o/{1}/x' 'echo {}; echo e{} >&2' ::: a b",
                "P --results 'd/{1}/' echo ::: a b",
                "P --res r2 --compress 'echo {}; echo E >&2' ::: a b",
                "P --result r3 --compress-program gzip 'echo {}' ::: a ''",
                "P --compress-program gzip --files echo ::: q > files; xargs cat < files > files.gz; xargs rm < files; rm files",
                "P -k --header : --tmpl ../my.tmpl={#}.t 'cat {#}.t' ::: x 1 2 ::: y 3 4 > tmpl.out",
                "P -k --cleanup --template ../plain.tmpl=c{#} 'cat c{#}' ::: a b > clean.out",
                "P -k --tmpl ../plain.tmpl='t/{}.txt' true ::: a");
        Out[] r = GnuRuns.both(dir, brisk, "rm -rf fg && mkdir -p fg/t && cd fg && P() { parallel --will-cite \"$@\"; }; " + script,
                "rm -rf fb && mkdir -p fb/t && cd fb && P() { \"$B\" par \"$@\"; }; " + script);
        assertThat(r[1].stderr()).isEqualTo(r[0].stderr());
        assertThat(r[1].status()).isEqualTo(r[0].status());
        assertThat(tree(dir.resolve("fb"))).isEqualTo(tree(dir.resolve("fg"))).containsKey("r/1/a/2/1/stdout")
                .containsKey("r/1/" + "x".repeat(255) + "/2/1/seq").containsKey("d/a/stdout").containsKey("o/b/x.err")
                .containsKey("3.t").doesNotContainKey("c1");
    }

    /** {@code --results NAME.csv}, {@code .tsv}, {@code .json} and {@code -.csv}: the same table but the times. */
    @Test
    void sameTablesAsGnu() throws IOException, InterruptedException {
        String script = String.join("; ",
                "P -k --results t.csv 'echo {}; echo e >&2' ::: a 'b,c' 'd\"e' 'f g' ::: 1",
                "P -k --results t.TSV echo ::: a 'b\tc'",
                "P -k --results t.json 'echo {}; echo err >&2; exit 2' ::: a 'b\"c' \"$(printf 'x\\001y')\" '\\'",
                "P -k --results -.csv 'echo {}; echo E >&2' ::: a b > stdout.csv 2> stderr.txt",
                "P -k --results -.json echo ::: a > stdout.json");
        Out[] r = GnuRuns.both(dir, brisk, "rm -rf tg && mkdir -p tg && cd tg && P() { parallel --will-cite \"$@\"; }; " + script,
                "rm -rf tb && mkdir -p tb && cd tb && P() { \"$B\" par \"$@\"; }; " + script);
        assertThat(r[1].status()).isEqualTo(r[0].status());
        Map<String, String> gnu = tree(dir.resolve("tg"));
        Map<String, String> ours = tree(dir.resolve("tb"));
        assertThat(ours.keySet()).isEqualTo(gnu.keySet());
        for (String f : gnu.keySet()) {
            assertThat(untimed(ours.get(f))).as(f).isEqualTo(untimed(gnu.get(f)));
        }
        assertThat(gnu.get("t.json")).contains("\"Exitval\": 2", "\\u0001");
    }

    /** Start times and run times, which differ from run to run, as T and R. */
    private static String untimed(String s) {
        return s.replaceAll("1[0-9]{9}(\\.[0-9]{1,3})?", "T").replaceAll("[0-9]+\\.[0-9]{3}", "R");
    }

    /** {@code --env} and the jobs' environment: a value with invalid UTF-8 reaches the job byte for byte, in any locale. */
    @ParameterizedTest
    @ValueSource(strings = {"C", "C.UTF-8", "en_US.UTF-8"})
    void environmentBytesUnchanged(String locale) throws IOException, InterruptedException {
        String set = "export V=$'a\\xff\\xfe\\xc3b\\xe2\\x82' LC_ALL=" + locale + "; ";
        for (String args : new String[] {"--env V 'printf %s \"$V\" | od -An -c; :' ::: 1", "'printf %s \"$V\" | od -An -c; :' ::: 1",
            "--env V 'printenv V | od -An -c; :' ::: 1", "-u 'printf %s \"$V\" | od -An -c; :' ::: 1",
            "--lb --env V 'printenv V | od -An -c; :' ::: 1"}) {
            Out[] r = GnuRuns.both(dir, brisk, set + "parallel --will-cite " + args, set + "\"$B\" par " + args);
            assertThat(r[1].stdout()).as(args).isEqualTo(r[0].stdout()).contains("377 376");
            assertThat(r[1].status()).as(args).isEqualTo(r[0].status());
        }
    }

    /** {@code --tty}, {@code -o}: without a terminal the jobs read nothing, as GNU parallel's. */
    @ParameterizedTest
    @ValueSource(strings = {"--tty 'echo {}; cat; tty <&0' ::: 1 2", "-o 'cat; echo {}' ::: 1", "--open-tty cat ::: 1",
        "--tty -j2 --group -k 'echo {}' ::: a b"})
    void terminalOptionsWithoutTerminal(String args) throws IOException, InterruptedException {
        Out[] r = run(args);
        assertThat(r[1].stdout()).as(args).isEqualTo(r[0].stdout());
        assertThat(r[1].status()).as(args).isEqualTo(r[0].status());
    }

    /**
     * {@code -p}/{@code --interactive} on a pseudo-terminal: the question on stderr, the answer
     * read from the terminal, a job answered no not run and counted as failed.
     */
    @ParameterizedTest
    @ValueSource(strings = {"y,n,Y#-k -p 'echo {}' ::: a b c", "n, y#--interactive 'echo {}' ::: a b", "yes,no#-k -p echo ::: 1 2"})
    void interactiveAsksOnTheTerminal(String spec) throws IOException, InterruptedException {
        String answers = spec.substring(0, spec.indexOf('#'));
        String args = spec.substring(spec.indexOf('#') + 1);
        Files.writeString(dir.resolve("ptyrun.py"), PTY_RUN);
        String[] out = new String[2];
        int[] status = new int[2];
        for (int i = 0; i < 2; i++) {
            String program = i == 0 ? "parallel --will-cite " : "\"$B\" par ";
            Out r = GnuRuns.both(dir, brisk, "true", "OUT=p" + i + ".out ERR=p" + i + ".err python3 ptyrun.py '" + answers + "' "
                    + "bash -c '" + (program + args).replace("'", "'\\''") + "'")[1];
            assertThat(r.stdout()).as("pty run of %s (stderr: %s)", args, r.stderr()).startsWith("status ");
            status[i] = Integer.parseInt(r.stdout().trim().substring(7));
            out[i] = Files.readString(dir.resolve("p" + i + ".out")) + "|" + Files.readString(dir.resolve("p" + i + ".err"));
        }
        assertThat(out[1]).as(args).isEqualTo(out[0]).contains("?...");
        assertThat(status[1]).as(args).isEqualTo(status[0]);
    }

    /**
     * Runs a command with a pseudo-terminal as its controlling terminal (stdin /dev/null, stdout
     * and stderr the files $OUT and $ERR, the terminal on descriptor 10), answering each question ({@code ?...} on stderr) with
     * the next of the comma-separated answers; prints {@code status N}.
     */
    private static final String PTY_RUN = """
            import os, pty, sys, select, time
            answers = sys.argv[1].split(',')
            pid, fd = pty.fork()
            if pid == 0:
                out = os.open(os.environ['OUT'], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                err = os.open(os.environ['ERR'], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                nul = os.open('/dev/null', os.O_RDONLY)
                os.dup2(0, 10)  # the terminal stays open: answers written before the question is read wait in it
                os.dup2(nul, 0); os.dup2(out, 1); os.dup2(err, 2)
                os.execvp(sys.argv[2], sys.argv[2:])
            answered = 0
            deadline = time.time() + 25
            while time.time() < deadline:
                r, _, _ = select.select([fd], [], [], 0.05)
                if fd in r:
                    try:
                        os.read(fd, 1024)
                    except OSError:
                        pass
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    print('status', os.waitstatus_to_exitcode(status))
                    sys.exit(0)
                try:
                    with open(os.environ['ERR'], 'rb') as f:
                        asked = f.read().count(b'?...')
                except FileNotFoundError:
                    asked = 0  # the child has not made it yet
                if asked > answered and answered < len(answers):
                    os.write(fd, answers[answered].encode() + b'\\n')
                    answered += 1
            print('timeout')
            """;

    /** Every regular file under {@code root}: its path relative to it, and its bytes read as ISO-8859-1. */
    private static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                m.put(root.relativize(p).toString(), Files.readString(p, StandardCharsets.ISO_8859_1));
            }
        }
        return m;
    }
}
