// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ssh command line brisk spawns for a sshlogin: ssh itself when {@code --ssh} is plain words,
 * else through {@code /bin/sh -c}, which then parses the user's quotes; both run for real here,
 * with a stand-in for ssh that runs the remote command locally.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SshTransportTest {
    private static final List<String> OPTIONS = List.of("-T", "-o", "BatchMode=yes", "-o", "ServerAliveInterval=5",
            "-o", "ServerAliveCountMax=3");

    @Test
    void plainWordsAreSpawnedWithoutAShell() {
        assertThat(SshTransport.of("ssh", "user@h1:2222").command())
                .isEqualTo(concat(List.of("ssh"), OPTIONS, List.of("-p", "2222", "user@h1", "exec /bin/sh -s")));
        assertThat(SshTransport.of("ssh -F /tmp/x/ssh_config -o ConnectTimeout=3", "h1").command())
                .isEqualTo(concat(List.of("ssh", "-F", "/tmp/x/ssh_config", "-o", "ConnectTimeout=3"), OPTIONS,
                        List.of("h1", "exec /bin/sh -s")));
        // GNU parallel's whole-command sshlogin: our options go before its last word, the host
        assertThat(SshTransport.of("ssh", "ssh -p 2222 user@h1").command())
                .isEqualTo(concat(List.of("ssh", "-p", "2222"), OPTIONS, List.of("user@h1", "exec /bin/sh -s")));
    }

    @Test
    void anythingAShellWouldInterpretGoesThroughOne() {
        for (String ssh : List.of("ssh -o 'ProxyCommand=none'", "ssh -i ~/.ssh/k", "ssh -F $HOME/c", "A=1 ssh", "exec ssh", "time ssh -v", "command ssh",
                "ssh -o X=\"y z\"", "ssh\t-v", "ssh; true")) {
            List<String> argv = SshTransport.of(ssh, "h1").command();
            assertThat(argv.subList(0, 2)).as(ssh).containsExactly("/bin/sh", "-c");
            assertThat(argv.get(2)).as(ssh).isEqualTo(ssh + " " + String.join(" ", OPTIONS) + " \"$@\"");
            assertThat(argv.subList(3, argv.size())).as(ssh).containsExactly("ssh", "h1", "exec /bin/sh -s");
        }
        assertThat(SshTransport.plainWords("")).isNull();
        assertThat(SshTransport.plainWords("  ssh   -v ")).containsExactly("ssh", "-v");
    }

    /**
     * Both forms reach a working agent: the stand-in "ssh" (a script) checks it got brisk's
     * options and runs the remote command's words as the login shell would.
     */
    @Test
    void bothFormsOpenAWorkingChannel(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path fake = dir.resolve("fake-ssh");
        java.nio.file.Files.writeString(fake, """
                #!/bin/sh
                # the last word is the remote command, the one before it the host; a session of its
                # own, as sshd gives: the agent signals its whole process group when it ends
                for a; do prev=$last; last=$a; done
                case " $* " in *" -T -o BatchMode=yes "*) ;; *) echo "fake-ssh: no -T: $*" >&2; exit 255 ;; esac
                [ "$prev" = h1 ] || { echo "fake-ssh: host $prev" >&2; exit 255; }
                exec setsid /bin/sh -c "$last"
                """);
        fake.toFile().setExecutable(true);
        for (String ssh : List.of(fake.toString(), "'" + fake + "'")) {
            SshTransport t = SshTransport.of(ssh, "h1");
            assertThat(t.command().getFirst()).isEqualTo(ssh.startsWith("'") ? "/bin/sh" : fake.toString());
            try (RemoteShell s = RemoteShell.open(t, "", Map.of(), Duration.ofSeconds(10))) {
                RemoteShell.Result r = s.run(1, 1, "echo hi from $0".getBytes(StandardCharsets.UTF_8), false);
                assertThat(new String(r.out().bytes(-1), StandardCharsets.UTF_8)).startsWith("hi from ");
            }
        }
    }

    @Test
    void anSshThatIsNotThereIsOneLine() {
        SshTransport t = SshTransport.of("/nonexistent/ssh", "h1");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RemoteShell.open(t, "", Map.of(), Duration.ofSeconds(10)))
                .isInstanceOf(IOException.class)
                .hasMessage("h1: cannot run /nonexistent/ssh: No such file or directory");
    }

    private static List<String> concat(List<String> a, List<String> b, List<String> c) {
        return java.util.stream.Stream.of(a, b, c).flatMap(List::stream).toList();
    }
}
