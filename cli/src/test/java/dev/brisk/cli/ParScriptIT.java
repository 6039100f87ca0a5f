// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code brisk par} as a script's interpreter ({@code --shebang}, {@code --hashbang},
 * {@code --shebang-wrap}): the same script run by the kernel once with
 * {@code #!/usr/bin/parallel ...} (GNU parallel 20221122) and once with
 * {@code #!/path/to/brisk par ...}, with the same stdout, stderr and status.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParScriptIT {
    @TempDir
    static Path dir;
    static Path brisk;
    private static final AtomicInteger RUN = new AtomicInteger();

    @BeforeAll
    static void launcher() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
        Files.writeString(dir.resolve("f1"), "l1\nl2\n");
    }

    /**
     * Writes {@code script} into {@code gNUM/s} with GNU parallel's {@code #!} line and into
     * {@code bNUM/s} with brisk's ({@code TAIL} after the interpreter), runs {@code run} (a bash
     * line calling {@code ./s}) in each and asserts the same output and status.
     */
    private static void same(String tail, String body, String run) throws IOException, InterruptedException {
        int n = RUN.incrementAndGet();
        for (String side : new String[] {"g", "b"}) {
            Path d = Files.createDirectories(dir.resolve(side + n));
            String interpreter = side.equals("g") ? "/usr/bin/parallel" : brisk + " par";
            Path s = d.resolve("s");
            Files.writeString(s, "#!" + interpreter + " " + tail + "\n" + body);
            Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwx------"));
        }
        Out[] runs = GnuRuns.both(dir, brisk, "cd g" + n + " && " + run, "cd b" + n + " && " + run);
        assertThat(runs[1].stdout()).as("stdout of %s | %s (stderr: %s)", tail, run, runs[1].stderr()).isEqualTo(runs[0].stdout());
        assertThat(runs[1].stderr()).as("stderr of %s | %s", tail, run).isEqualTo(runs[0].stderr());
        assertThat(runs[1].status()).as("status of %s | %s", tail, run).isEqualTo(runs[0].status());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "--shebang -k -r echo x | a\\nb c\\n\\nd\\n | ./s",
        "--hashbang -k echo | 1\\n2\\n | ./s",
        "--shebang -k -j2 --tag echo 'a  b' \"c d\" | x\\ny\\n | ./s",
        "--shebang -k -0 echo | | ./s",
        "--shebang --will-cite -k 'echo {}; exit 2' | 1\\n2\\n3\\n | ./s; echo status $?",
    })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shebangReadsTheScriptsLines(String tail, String body, String run) throws Exception {
        same(tail, body == null ? "" : body.replace("\\n", "\n"), run);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "--shebang-wrap -k /bin/sh | echo \"got $1\"\\n | ./s a \"b c\" d",
        "--shebang-wrap -k -j2 /usr/bin/perl -w | print \"perl: $ARGV[0]\\n\"; exit $ARGV[0]\\n | ./s 0 3 0; echo status $?",
        "--shebang-wrap /bin/echo | | ./s; echo status $?",
        "--shebang-wrap -k --pipe /bin/sh | tr a-z A-Z\\n | printf 'hi\\nho\\n' | ./s ../f1",
        "--shebangwrap -k --tag /bin/sh | echo $# \"$@\"\\n | ./s x y",
    })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shebangWrapRunsTheScriptForEachArgument(String tail, String body, String run) throws Exception {
        same(tail, body == null ? "" : body.replace("\\n", "\n"), run);
    }

    /** Not first, --shebang/--hashbang are taken and do nothing, as GNU parallel's (first, they read a script). */
    @ParameterizedTest
    @ValueSource(strings = {"-k --shebang echo ::: a b", "-k --hashbang echo ::: c"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void notFirstTheyDoNothing(String args) throws Exception {
        GnuRuns.assertSame(dir, brisk, args);
    }

    /** Called by hand without a script: one line and 255, no stack trace. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void withoutAScriptOneLine() throws Exception {
        Out[] runs = GnuRuns.both(dir, brisk, "true", "\"$B\" par '--shebang-wrap /bin/sh'");
        assertThat(runs[1].stderr()).isEqualTo("brisk par: --shebang-wrap: no script named (use it on a script's #! line)\n");
        assertThat(runs[1].status()).isEqualTo(255);
    }
}
