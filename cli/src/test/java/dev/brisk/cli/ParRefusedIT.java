// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * GNU parallel's options that brisk par refuses on purpose (README's differences): one line
 * naming the option and why, status 255 (GNU's usage status), no job run and no stack trace,
 * whatever the rest of the command line. GNU parallel 20221122 reads the same command line
 * ({@code --dry-run}) to show the option is its own (no "Unknown option" there).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParRefusedIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void launcher() throws Exception {
        brisk = BriskProcess.launcher(dir, "rwx------");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "--sqlmaster sqlite3:///%2Ftmp%2Fx/t | --sqlmaster | keeps no SQL table of jobs (GNU parallel's needs Perl's DBI and a database)",
        "--sql-worker csv:///%2Ftmp/t | --sqlworker | keeps no SQL table of jobs (GNU parallel's needs Perl's DBI and a database)",
        "--sqlandworker sqlite3:///%2Ftmp%2Fx/t | --sqlandworker | keeps no SQL table of jobs (GNU parallel's needs Perl's DBI and a database)",
        "--tmux-pane | --tmuxpane | does not run jobs in tmux panes",
        "--rsync-opts=-rlDzRp -S : | --rsync-opts | sends --transferfile, --return and --basefile files through its own agent on the ssh login, without rsync",
    })
    void refusedInOneLine(String options, String name, String why) throws Exception {
        // GNU's --dry-run runs nothing (its --tmux would still start a tmux server: not run)
        String gnu = name.startsWith("--tmux") ? "true" : "parallel --will-cite --dry-run " + options + " 'echo {} >> ran' ::: a";
        Out[] runs = GnuRuns.both(dir, brisk, gnu, "\"$B\" par " + options + " 'echo {} >> ran2' ::: a");
        assertThat(runs[0].stderr()).doesNotContain("Unknown option");
        assertThat(runs[1].stderr()).isEqualTo("brisk par: " + name + " is not supported: brisk par " + why + "\n");
        assertThat(runs[1].status()).isEqualTo(255);
        assertThat(runs[1].stdout()).isEmpty();
        assertThat(Files.exists(dir.resolve("ran2"))).isFalse();
    }
}
