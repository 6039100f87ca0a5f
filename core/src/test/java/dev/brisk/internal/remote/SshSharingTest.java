// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When brisk adds ssh's connection sharing and when it leaves the user's own; the shared logins
 * themselves run for real in the CLI's {@code WarmHostsIT}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SshSharingTest {
    @Test
    void theUsersOwnSharingOptionsWin() {
        for (String ssh : List.of("ssh -o ControlMaster=no", "ssh -oControlPath=none", "ssh -o controlpersist=5",
                "ssh -S /tmp/sock", "ssh -S/tmp/sock", "ssh -M", "ssh -TM", "ssh -4 -S none")) {
            assertThat(SshSharing.setsSharing(List.of(ssh.split(" ")))).as(ssh).isTrue();
        }
        for (String ssh : List.of("ssh", "ssh -F /tmp/x/ssh_config -o ConnectTimeout=3", "ssh -oStrictHostKeyChecking=no",
                "ssh -i /k/Secret -l Mary", "ssh -p 2222")) {
            assertThat(SshSharing.setsSharing(List.of(ssh.split(" ")))).as(ssh).isFalse();
        }
    }

    @Test
    void theUsersSshConfigurationSharingWins() {
        assertThat(SshSharing.leavesSharing("user me\ncontrolmaster false\nport 22\ncontrolpersist no\n")).isTrue();
        assertThat(SshSharing.leavesSharing("controlmaster auto\ncontrolpersist no\n")).isFalse();
        assertThat(SshSharing.leavesSharing("controlmaster false\ncontrolpersist 600\n")).isFalse();
        assertThat(SshSharing.leavesSharing("controlmaster false\ncontrolpath /home/me/.ssh/cm-abc\ncontrolpersist no\n"))
                .isFalse();
        assertThat(SshSharing.leavesSharing("")).as("no report: nothing known").isFalse();
    }

    @Test
    void aDirectRunNeverShares() {
        SshSharing.enable(Path.of("/tmp/brisk-test-sharing"));
        assertThat(SshSharing.options(List.of("ssh"), List.of("h1"), Duration.ofSeconds(60))).isEmpty();
        assertThat(SshTransport.of("ssh", "h1", Duration.ofSeconds(60)).command())
                .isEqualTo(SshTransport.of("ssh", "h1").command());
    }
}
