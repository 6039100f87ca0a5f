// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.GnuRuns.Out;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The job engine's differences that GNU parallel's own test scripts showed (bench/parallel-suite.sh,
 * docs/PAR.md "GNU parallel's test scripts as a corpus"): each script run with {@code P} as GNU
 * parallel 20221122 and as {@code brisk par}, with the same stdout, stderr (GNU's
 * {@code parallel: Error:} read as {@code brisk par:}) and status.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ParCorpusEngineIT {
    @TempDir
    static Path dir;
    static Path brisk;

    @BeforeAll
    static void launcher() throws IOException {
        brisk = BriskProcess.launcher(dir, "rwx------");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // --tmux with a tmux that is not on PATH: GNU's error before any job (par_tmux_command_not_found)
        "PARALLEL_TMUX=not-existing P --tmux echo ::: 1",
        // --wd run here (par_wd_3dot_local, par_wd_dotdotdot): made if need be, $OLDPWD the caller's directory
        "P --wd sub 'pwd; echo $OLDPWD' ::: a",
        "P --wd ./sub2/ 'pwd; echo $OLDPWD' ::: a",
        "P --wd . 'pwd; echo $OLDPWD' ::: a",
        "P -k --wd 'in{}' pwd ::: a b",
        "P --wd / 'pwd; echo $OLDPWD; exit {}' ::: 3; echo $?",
        // ... is a directory of the job's own under ~/.parallel/tmp, removed when it ends
        "P --wd ... 'pwd; echo $OLDPWD; test {} = 0' ::: 2 | sed 's/[0-9]//g'; echo ${PIPESTATUS[0]}",
        "P --wd ... pwd ::: a | P ls 2>/dev/null; echo $?",
        // --halt now: the killed jobs are gone (reaped) when the run returns (par_basic_halt)
        "b=burn$$; printf '#!/usr/bin/perl\\neval{setpriority(0,0,9)}; while(1){}\\n' >$b; chmod 700 $b; "
                + "P -j4 --halt 2 ::: 'sleep 0.5' ./$b false; ps -eo comm | grep -cx $b; rm $b",
        "b=burn$$; printf '#!/usr/bin/perl\\neval{setpriority(0,0,9)}; while(1){}\\n' >$b; chmod 700 $b; "
                + "P -j4 --halt -2 ::: 'sleep 0.5' ./$b true; ps -eo comm | grep -cx $b; rm $b",
        // --halt now: a job that ended before the halt is printed, a running one is killed unprinted (tutorial 112)
        "P -j3 --halt now,fail=1 {} ::: 'echo a' 'sleep 0.3; echo b; exit 2' 'sleep 3; echo c'",
        // -k --line-buffer: the oldest job's lines as they come, a later job's held until it is the oldest
        "P -k --lb -j3 'echo start {}; sleep 0.{}; echo end {}' ::: 3 1 2 4 1",
        "P -k --lb -j2 'printf a{}; sleep 0.{}; echo c{}' ::: 2 1 3",
        // --_parset, the helper of GNU's parset shell function: shell code that sets variables (par_empty_command)
        "f() { eval \"$(P -k --_parset var,a,b,c :::: <(echo echo A; echo; echo echo C))\"; }; f; echo \"$?|$a|$b|$c\"",
        "f() { eval \"$(P -k --_parset var,arr echo ::: \"it's\" 'x  y' '')\"; }; f; echo $? ${#arr[@]}; printf '%s|' \"${arr[@]}\"",
        "f() { eval \"$(P -k --_parset 'var,a b' 'echo {}; exit {}' ::: 0 4)\"; }; f; echo \"$?|$a|$b\"",
        // sem --quote adds no empty argument; -v prints the command (par_sem_quote)
        "P --semaphore --id q$$ --fg --quote -v echo",
        "P --semaphore --id q$$ --fg -v echo a 'b  c'",
        "P --semaphore --id q$$ --fg -q -v printf '%s|' 'b  c'",
    })
    void matchesGnuParallel(String script) throws Exception {
        Out[] runs = GnuRuns.both(dir, brisk, script.replace("P ", "parallel --will-cite "), script.replace("P ", "\"$B\" par "));
        assertThat(runs[1].stdout()).as("stdout of %s (stderr: %s)", script, runs[1].stderr()).isEqualTo(runs[0].stdout());
        assertThat(runs[1].stderr()).as("stderr of %s", script)
                .isEqualTo(runs[0].stderr().replace("parallel: Error: ", "brisk par: ").replace("parallel: ", "brisk: "));
        assertThat(runs[1].status()).as("status of %s", script).isEqualTo(runs[0].status());
    }
}
