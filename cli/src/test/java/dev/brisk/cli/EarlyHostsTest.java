// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@code brisk par} reads of its command line before parsing it, to start its hosts'
 * logins early ({@link ParCommand#earlyHosts}): everything up to the command, or nothing.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EarlyHostsTest {
    private static ParCommand.EarlyHosts read(String... args) {
        return ParCommand.earlyHosts(args);
    }

    @Test
    void readsTheHostsAndTheSshCommandUpToTheCommand() {
        assertThat(read("-S", "2/h1,h2", "-k", "echo", "::: a")).isEqualTo(new ParCommand.EarlyHosts(List.of("2/h1,h2"),
                System.getenv().getOrDefault("PARALLEL_SSH", "ssh"), null, false));
        assertThat(read("--ssh", "ssh -F cfg", "-j4", "--sshlogin=h1", "-Sh2", "--joblog", "jl", "--trc", "{}.out",
                "--ssh-persist=5", "md5sum", "{}"))
                .isEqualTo(new ParCommand.EarlyHosts(List.of("h1", "h2"), "ssh -F cfg", "5", false));
        assertThat(read("-S", "h1")).isNotNull(); // the hosts, then nothing: still read to the end
        assertThat(read("-S", "h1", ":::", "a")).isNotNull();
        assertThat(read("-S", "h1", "--", "echo")).isNotNull();
        assertThat(read("--slurm", "-k", "hostname")).isEqualTo(new ParCommand.EarlyHosts(List.of(),
                System.getenv().getOrDefault("PARALLEL_SSH", "ssh"), null, true));
    }

    @Test
    void startsNothingWhenItCannotReadTheOptionsToTheirEnd() {
        assertThat(read("-S", "h1", "--dry-run", "echo")).as("--dry-run connects nowhere").isNull();
        assertThat(read("--dry-run", "-S", "h1", "echo")).isNull();
        // an option it does not know, however harmless: what follows it might be --ssh or --dry-run
        assertThat(read("-S", "h1", "--link", "--dry-run", "echo")).isNull();
        assertThat(read("-S", "h1", "-kv", "--ssh", "ssh -J bastion", "echo")).as("clustered flags").isNull();
        assertThat(read("-S", "h1", "--slurm-submit", "-N3", "echo")).isNull();
        assertThat(read("-S", "h1", "--no-such-option", "echo")).isNull();
        assertThat(read("-S")).as("a missing value").isNull();
        assertThat(read("-k", "echo", "-S", "h1")).as("-S after the command is the command's").isNull();
        assertThat(read("-k", "echo")).as("no host").isNull();
    }

    @Test
    void anOptionsValueIsNeverTakenForAnOption() {
        // --trc and --tagstring take a value: a value that looks like -S or --ssh is that value
        assertThat(read("--tagstring", "-S", "echo")).isNull();
        assertThat(read("-S", "h1", "--trc", "--ssh", "echo").ssh()).isEqualTo(System.getenv().getOrDefault("PARALLEL_SSH", "ssh"));
        assertThat(read("--env", "-S", "-S", "h1", "echo").logins()).containsExactly("h1");
    }

    /**
     * The early reading's own lists of options say what the options really are: each is one of
     * brisk par's, a value-taking one in the list of those, a flag in the other (a flag listed
     * as taking a value, or the reverse, would read a command line wrongly).
     */
    @Test
    void itsListsOfOptionsMatchTheOptionsThemselves() throws Exception {
        java.util.Map<String, Class<?>> types = new java.util.HashMap<>();
        for (String[] row : new ParCommand().fastOptions()) {
            Class<?> type = ParCommand.class.getDeclaredField(row[0]).getType();
            for (int i = 1; i < row.length; i++) {
                types.put(row[i], type);
            }
        }
        for (String name : ParCommand.EARLY_VALUED) {
            assertThat(types.get(name)).as(name).isNotNull().isNotEqualTo(boolean.class);
        }
        for (String name : ParCommand.EARLY_FLAGS) {
            assertThat(types.get(name)).as(name).isIn(boolean.class, boolean[].class);
        }
    }
}
