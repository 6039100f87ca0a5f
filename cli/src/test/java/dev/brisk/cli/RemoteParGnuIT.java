// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.SshHosts.Out;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code brisk par -S} and GNU parallel {@code -S} on the same command lines over three real
 * OpenSSH servers ({@link SshHosts}): the same output, order, exit status, host groups, files
 * both ways and job-log columns. Nothing here is timed, so it runs beside other classes (holding
 * only the hosts); what kills hosts, counts logins or times them is {@link RemoteParIT}'s.
 */
@ResourceLock(SshHosts.LOCK)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RemoteParGnuIT {
    @TempDir
    static Path dir;
    static Path brisk;
    static SshHosts hosts;

    @BeforeAll
    static void start() throws Exception {
        brisk = BriskProcess.launcher(dir, "rwx------");
        hosts = new SshHosts(3);
    }

    @AfterAll
    static void stop() {
        if (hosts != null) {
            hosts.close();
        }
    }

    /** Same stdout and exit status as GNU parallel -S over the same hosts. */
    @ParameterizedTest
    @ValueSource(strings = {
        "-k echo ::: a b c d e f",
        "-k 'echo {}; echo err {} >&2; exit {}' ::: 0 1 2 3",
        "-k --tag echo ::: a 'b c'",
        "-k 'cd /; pwd; echo {} | tr a-z A-Z' ::: x y",
        "-k echo {} {.} {/} ::: \"it's\" 'x$y' 'a \"b\" c' \"$(printf 'bad\\351')\"",
        "-k -n2 echo ::: 1 2 3 4 5",
        "-k -S : echo ::: local and remote",
        "-k --nonall 'echo hi; exit 3'",
        "-k --tag --onall 'echo {}; exit {}' ::: 0 1 2",
        "-k basename /a/{} ::: x y",
        "-k ls /nonexistent/{} ::: 1 2",
        "-k 'echo {} | tr a-z A-Z' ::: x y",
        "-k --ssh-delay 0.2 echo ::: a b c d",
        "-k --sshdelay=0.1 --tag --nonall echo hi",
    })
    void sameAsGnuParallel(String args) throws Exception {
        String hs = "-S h1,h2,h3";
        Out[] runs = hosts.both(dir, brisk, "parallel --will-cite --ssh \"$SSH\" " + hs + " " + args, "$B par --ssh \"$SSH\" " + hs + " " + args);
        Out gnu = runs[0];
        Out ours = runs[1];
        assertThat(ours.stderr()).doesNotContain("Exception");
        assertThat(ours.stdout()).as("stdout; stderr: %s / GNU: %s", ours.stderr(), gnu.stderr()).isEqualTo(gnu.stdout());
        assertThat(ours.status()).isEqualTo(gnu.status());
    }

    /**
     * {@code -M}/{@code --controlmaster} is ssh connection sharing, which brisk's one login per
     * host has already: the output and status are GNU parallel's without it (GNU parallel
     * 20221122's own {@code -M} prints nothing over these hosts' {@code ssh -F CONFIG} command).
     */
    @ParameterizedTest
    @ValueSource(strings = {"-M", "--controlmaster", "-kM"})
    void controlMasterChangesNothing(String option) throws Exception {
        String hs = "--ssh \"$SSH\" -S h1,h2,h3 ";
        Out[] runs = hosts.both(dir, brisk, "parallel --will-cite " + hs + "-k --tag 'echo {}; exit {}' ::: 0 1 2",
                "$B par " + hs + option + " -k --tag 'echo {}; exit {}' ::: 0 1 2");
        assertThat(runs[1].stdout()).as(runs[1].stderr()).isEqualTo(runs[0].stdout()).isEqualTo("0\t0\n1\t1\n2\t2\n");
        assertThat(runs[1].status()).isEqualTo(runs[0].status()).isEqualTo(2);
    }

    /**
     * Host groups: {@code -S @G/HOST} puts a host in group G, {@code --hgrp} sends ARG@G to G's
     * hosts (without --hgrp the value stays whole), {@code -S @G} keeps only G's hosts: the same
     * output and the same host for each job in the job log as GNU parallel.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "--hgrp -S @a/h1,@b/h2 -S @c/h3 -k 'echo {}' ::: p@a q@b r@c s@a t@b+x u@c",
        "--hostgroups -S @a+b/h1,@c/h2 -k --tag echo ::: p@b q@a r@c",
        "-S @a/h1,@b/h2,@a+c/h3 -S @c -k echo ::: x@a y z",
        "--hgrp -S @a/h1,@b/2/h2 -k -j1 echo {1} {2} ::: p@b q@a ::: 1@a 2",
    })
    void hostGroupsLikeGnuParallel(String args) throws Exception {
        String log = " --joblog $L " + args + "; tail -n +2 $L | cut -f1,2 | sort -n";
        Out[] runs = hosts.both(dir, brisk, "L=hg-gnu.log; rm -f $L; parallel --will-cite --ssh \"$SSH\"" + log,
                "L=hg-brisk.log; rm -f $L; $B par --ssh \"$SSH\"" + log);
        assertThat(runs[1].stdout()).as("stdout; stderr: %s / GNU: %s", runs[1].stderr(), runs[0].stderr()).isEqualTo(runs[0].stdout());
        assertThat(runs[1].status()).isEqualTo(runs[0].status());
    }

    /** Transferred and returned files, and the job log's columns, as GNU parallel -S has them (plain names: GNU parallel's rsync quoting fails on odd ones). */
    @Test
    void filesAndJobLogLikeGnuParallel() throws Exception {
        for (String who : List.of("gnu", "ours")) {
            Path d = Files.createDirectories(dir.resolve("like-" + who));
            for (String n : List.of("a.txt", "b.txt", "c.txt")) {
                Files.writeString(d.resolve(n), n.repeat(3) + "\n");
            }
        }
        String args = " --ssh \"$SSH\" -S 1/h1,1/h2 -k --joblog ../jl-%s.txt --trc {}.out 'wc -c < {} > {}.out; echo {}; exit 1' ::: a.txt b.txt c.txt";
        Out[] runs = hosts.both(dir, brisk, "cd like-gnu && parallel --will-cite" + args.formatted("gnu"), "cd like-ours && $B par" + args.formatted("ours"));
        Out gnu = runs[0];
        Out ours = runs[1];
        assertThat(ours.stdout()).isEqualTo(gnu.stdout());
        assertThat(ours.status()).isEqualTo(gnu.status()).isEqualTo(3);
        for (String n : List.of("a.txt", "b.txt", "c.txt")) {
            assertThat(dir.resolve("like-ours/" + n + ".out")).hasContent(Files.readString(dir.resolve("like-gnu/" + n + ".out")));
        }
        List<String> g = Files.readAllLines(dir.resolve("jl-gnu.txt"));
        List<String> o = Files.readAllLines(dir.resolve("jl-ours.txt"));
        assertThat(o).hasSameSizeAs(g);
        assertThat(o.getFirst()).isEqualTo(g.getFirst());
        for (int i = 1; i < g.size(); i++) {
            String[] gf = g.get(i).split("\t");
            String[] of = o.get(i).split("\t");
            // Receive (5) and Send (4): GNU parallel -S counts transfer bytes its own way (twice the stdout here)
            for (int c : new int[] {0, 6, 7, 8}) {
                assertThat(of[c]).as("column %d of line %d", c, i).isEqualTo(gf[c]);
            }
            assertThat(of[1]).isIn("h1", "h2");
        }
    }
}
