// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brisk par --tmux} against GNU parallel 20221122's: each job runs in a tmux window (its
 * files show it ran), nothing on stdout, the socket told on stderr, GNU's exit status; each
 * script then stops its tmux server ({@code kill-server} on the socket it was told; GNU's may
 * have ended already).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParTmuxIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void launcher() throws Exception {
        brisk = BriskProcess.launcher(dir, "rwx------");
    }

    @Test
    void eachJobInAWindowOfItsOwn() throws Exception {
        String script = "mkdir -p %s && cd %s && export TMPDIR=$PWD && %s --tmux -j2 'echo {} > out-{}; exit {}'"
                + " ::: 0 3 > o 2> e; echo st=$?; cat o; sed \"s|$PWD/tms[A-Za-z0-9]*|SOCKET|\" e >&2;"
                + " tmux -S \"$(sed -n 's/^See output with: tmux -S \\(.*\\) attach$/\\1/p' e)\" kill-server 2>/dev/null; cat out-0 out-3";
        Out[] runs = GnuRuns.both(dir, brisk, script.formatted("g", "g", "parallel --will-cite"), script.formatted("b", "b", "\"$B\" par"));
        assertThat(runs[1].stdout()).as(runs[1].stderr()).isEqualTo(runs[0].stdout()).isEqualTo("st=1\n0\n3\n");
        assertThat(runs[1].stderr()).isEqualTo(runs[0].stderr()).isEqualTo("See output with: tmux -S SOCKET attach\n");
        assertThat(runs[1].status()).isEqualTo(runs[0].status());
    }
}
