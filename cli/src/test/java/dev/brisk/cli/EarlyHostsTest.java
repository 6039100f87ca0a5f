// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which hosts {@code brisk par} starts logging into as soon as its command line is parsed,
 * before its input is read and its runner built ({@link ParCommand#earlyHosts}).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EarlyHostsTest {
    private static final String SSH = System.getenv().getOrDefault("PARALLEL_SSH", "ssh");

    private static ParCommand.EarlyHosts read(String... args) {
        ParCommand c = new ParCommand();
        assertThat(GetoptParser.parse(ParCommand.OPTIONS, c, args)).as(String.join(" ", args)).isTrue();
        return c.earlyHosts();
    }

    @Test
    void readsTheHostsAndTheSshCommand() {
        assertThat(read("-S", "2/h1,h2", "-k", "echo", "::: a")).isEqualTo(new ParCommand.EarlyHosts(List.of("2/h1,h2"), SSH, null, false));
        assertThat(read("--ssh", "ssh -F cfg", "-j4", "--sshlogin=h1", "-Sh2", "--joblog", "jl", "--trc", "{}.out",
                "--ssh-persist=5", "md5sum", "{}"))
                .isEqualTo(new ParCommand.EarlyHosts(List.of("h1", "h2"), "ssh -F cfg", "5", false));
        assertThat(read("-S", "h1", "-kv", "--ssh", "ssh -J bastion", "--link", "echo").ssh())
                .as("clusters and any option: the whole command line is read").isEqualTo("ssh -J bastion");
        assertThat(read("--slurm", "-k", "hostname")).isEqualTo(new ParCommand.EarlyHosts(List.of(), SSH, null, true));
    }

    @Test
    void startsNothingForARunThatLogsInNowhere() {
        assertThat(read("-S", "h1", "--dry-run", "echo")).as("--dry-run connects nowhere").isNull();
        assertThat(read("--shellquote", "-S", "h1", "echo")).isNull();
        assertThat(read("-S", "h1", "--slurm-submit", "-N3", "echo")).isNull();
        assertThat(read("-S", "h1", "--number-of-cores")).isNull();
        assertThat(read("-S", "h1", "-g", "echo")).as("a retired option").isNull();
        assertThat(read("-S", "h1", "--pipe", "cat")).as("refused with hosts").isNull();
        assertThat(read("-k", "echo", "-S", "h1")).as("-S after the command is the command's").isNull();
        assertThat(read("-k", "echo")).as("no host").isNull();
    }

    @Test
    void anOptionsValueIsNeverTakenForAnOption() {
        assertThat(read("--tagstring", "-S", "echo")).isNull();
        assertThat(read("-S", "h1", "--trc", "--ssh", "echo").ssh()).isEqualTo(SSH);
        assertThat(read("--env", "-S", "-S", "h1", "echo").logins()).containsExactly("h1");
    }
}
