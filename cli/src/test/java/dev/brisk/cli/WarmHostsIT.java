// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code brisk par -S} through a warm server keeps its ssh logins for the next run
 * ({@code --ssh-persist}, docs/DAEMON.md): three real OpenSSH servers ({@link SshHosts}) count
 * their logins in their logs, and a server of this class's own ({@link TestDaemon#start}) runs
 * the calls. After each test every kept login is ended ({@code ssh -O exit} on its socket, then
 * its process killed by pid); after the class the server and the daemons are killed and reaped,
 * also when a test failed.
 */
@Isolated // counts the hosts' logins: alone
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class WarmHostsIT {
    static SshHosts hosts;
    static TestDaemon server;

    @BeforeAll
    static void start() throws Exception {
        hosts = new SshHosts(3);
        server = TestDaemon.start(null);
    }

    @AfterEach
    void endKeptLogins() throws Exception {
        if (server != null) {
            endLogins(server.directory());
        }
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                endLogins(server.directory());
                server.stop();
            }
        } finally {
            if (hosts != null) {
                hosts.close();
            }
        }
    }

    record Out(String stdout, String stderr, int status) {}

    /** Runs {@code brisk ARGS} through the class's server ({@code env} settings first, may be empty). */
    static Out brisk(List<String> env, String... args) throws IOException, InterruptedException {
        return brisk(server, env, args);
    }

    /** As {@link #brisk(List, String...)} through {@code server}. */
    static Out brisk(TestDaemon server, List<String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(server.command());
        cmd.addAll(cmd.size() - 1, env);
        cmd.addAll(List.of(args));
        Path o = Files.createTempFile("warm-o", "");
        Path e = Files.createTempFile("warm-e", "");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(o.toFile()).redirectError(e.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("did not finish: " + cmd);
            }
            return new Out(Files.readString(o, StandardCharsets.ISO_8859_1), Files.readString(e, StandardCharsets.ISO_8859_1),
                    p.exitValue());
        } finally {
            Files.deleteIfExists(o);
            Files.deleteIfExists(e);
        }
    }

    /** {@code par --ssh SSH -S h1,h2,h3 --onall} (every host runs the jobs: each logs in or shares) with {@code more}. */
    static Out onAll(List<String> env, String... more) throws IOException, InterruptedException {
        return onAllOver(hosts.ssh(), env, more);
    }

    /** As {@link #onAll(List, String...)} with {@code --ssh ssh}. */
    static Out onAllOver(String ssh, List<String> env, String... more) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("par", "--ssh", ssh, "-S", "h1,h2,h3"));
        args.addAll(List.of(more));
        args.addAll(List.of("--onall", "-k", "echo {}", ":::", "a", "b"));
        Out o = brisk(env, args.toArray(String[]::new));
        assertThat(o.stdout()).as("stderr: %s", o.stderr()).isEqualTo("a\nb\na\nb\na\nb\n");
        assertThat(o.status()).isZero();
        return o;
    }

    static int logins() throws IOException {
        return hosts.logins(1) + hosts.logins(2) + hosts.logins(3);
    }

    @Test
    void theNextRunToTheSameHostsLogsInNoMore() throws Exception {
        int before = logins();
        onAll(List.of());
        assertThat(logins() - before).as("the first run logs in to each host").isEqualTo(3);
        assertThat(sockets(server.directory())).hasSize(3);
        assertThat(masters(server.directory())).hasSize(3);

        int kept = logins();
        Out o = brisk(List.of(), "par", "--ssh", hosts.ssh(), "-S", "h1,h2,h3", "-k", "echo {}", ":::", "1", "2", "3", "4", "5", "6");
        assertThat(o.stdout()).as("stderr: %s", o.stderr()).isEqualTo("1\n2\n3\n4\n5\n6\n");
        onAll(List.of());
        assertThat(logins()).as("the runs after it share the kept logins").isEqualTo(kept);
        assertThat(masters(server.directory())).hasSize(3);
    }

    @Test
    void zeroKeepsNothingAndEveryRunLogsIn() throws Exception {
        for (List<String> off : List.of(List.of("--ssh-persist=0"), List.of("--ssh-persist", "0"))) {
            int before = logins();
            onAll(List.of(), off.toArray(String[]::new));
            onAll(List.of(), off.toArray(String[]::new));
            assertThat(logins() - before).as("%s", off).isEqualTo(6);
            assertThat(sockets(server.directory())).isEmpty();
            assertThat(masters(server.directory())).isEmpty();
        }
        int before = logins();
        onAll(List.of("BRISK_SSH_PERSIST=0"));
        onAll(List.of("BRISK_SSH_PERSIST=0"));
        assertThat(logins() - before).as("BRISK_SSH_PERSIST=0").isEqualTo(6);
        assertThat(masters(server.directory())).isEmpty();
    }

    @Test
    void aKeptLoginEndsAfterThePersistTime() throws Exception {
        int before = logins();
        onAll(List.of(), "--ssh-persist=2");
        // a host whose jobs ended first may be gone already
        assertThat(masters(server.directory())).isNotEmpty();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!masters(server.directory()).isEmpty() && System.nanoTime() < until) {
            Thread.sleep(100);
        }
        assertThat(masters(server.directory())).as("gone about 2 s after the run").isEmpty();
        assertThat(sockets(server.directory())).isEmpty();
        onAll(List.of(), "--ssh-persist=2");
        assertThat(logins() - before).as("and the next run logs in again").isEqualTo(6);
    }

    @Test
    void theUsersOwnSharingOptionsAreLeftAlone() throws Exception {
        int before = logins();
        onAllOver(hosts.ssh() + " -o ControlMaster=no", List.of());
        onAllOver(hosts.ssh() + " -o ControlMaster=no", List.of());
        assertThat(logins() - before).isEqualTo(6);
        assertThat(masters(server.directory())).isEmpty();
    }

    @Test
    void aDirectRunLeavesNothingBehind() throws Exception {
        int before = logins();
        for (int i = 0; i < 2; i++) {
            Out o = brisk(List.of(), "--no-daemon", "par", "--ssh", hosts.ssh(), "-S", "h1,h2,h3", "--onall", "-k", "echo {}", ":::", "a");
            assertThat(o.stdout()).as("stderr: %s", o.stderr()).isEqualTo("a\na\na\n");
        }
        assertThat(logins() - before).as("each direct run logs in").isEqualTo(6);
        assertThat(sockets(server.directory())).isEmpty();
        assertThat(masters(server.directory())).isEmpty();
    }

    @Test
    void aServerThatStopsEndsItsKeptLogins() throws Exception {
        TestDaemon other = TestDaemon.start(null);
        try {
            Out o = brisk(other, List.of(), "par", "--ssh", hosts.ssh(), "-S", "h1,h2,h3", "--onall", "echo {}", ":::", "a");
            assertThat(o.stdout()).as("stderr: %s", o.stderr()).isEqualTo("a\na\na\n");
            assertThat(masters(other.directory())).hasSize(3);
            other.stop(); // SIGTERM: its shutdown retires them (ssh -O stop), and idle they exit
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!masters(other.directory()).isEmpty() && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            assertThat(masters(other.directory())).isEmpty();
            assertThat(sockets(other.directory())).isEmpty();
        } finally {
            endLogins(other.directory());
            other.stop();
        }
    }

    /** The control sockets the server's runs left in {@code dir}. */
    static List<Path> sockets(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("ssh-")).toList();
        }
    }

    /** The pids of the ssh masters on sockets in {@code dir}: ssh names them {@code ssh: SOCKET [mux]}. */
    static List<Long> masters(Path dir) {
        String prefix = "ssh: " + dir + "/ssh-";
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(f -> f.getFileName().toString().matches("[0-9]+")).toList()) {
                try {
                    String cmd = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.ISO_8859_1);
                    if (cmd.startsWith(prefix)) {
                        pids.add(Long.parseLong(p.getFileName().toString()));
                    }
                } catch (IOException gone) {
                    // ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return pids;
    }

    /** Ends every kept login of {@code dir}: {@code ssh -O exit} on its socket, then its process by pid. */
    static void endLogins(Path dir) throws IOException, InterruptedException {
        for (Path s : sockets(dir)) {
            Process p = new ProcessBuilder("ssh", "-o", "ControlPath=" + s, "-O", "exit", "brisk")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!masters(dir).isEmpty() && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        for (long pid : masters(dir)) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        for (Path s : sockets(dir)) {
            Files.deleteIfExists(s);
        }
    }
}
