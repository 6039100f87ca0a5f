// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test fixture: real OpenSSH servers on loopback addresses, started as this test's own children
 * ({@code sshd -D -e -f CONFIG} on 127.0.0.2, .3, .4, port 2222), with host and client keys
 * made per run and an unprivileged login user ({@value #USER}, locked password, bash). An
 * {@code ssh -F CONFIG} client configuration names them h1, h2, h3. {@link #close} kills every
 * daemon and every process it started (the sessions) and reaps them, also when a test failed.
 * The addresses, port and login user are the machine's: the classes that start hosts hold
 * {@link #LOCK} (or run alone), so one at a time.
 */
final class SshHosts implements AutoCloseable {
    static final String USER = "briskssh";
    static final int PORT = 2222;
    /** The JUnit resource lock of the classes that start hosts. */
    static final String LOCK = "brisk-ssh-hosts";

    private final Path dir;
    private final List<Process> daemons = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();

    /** Keys and configurations go to a directory of their own under /tmp that the login user can traverse. */
    SshHosts(int count) throws IOException, InterruptedException {
        this.dir = Files.createTempDirectory(Path.of("/tmp"), "brisk-sshd-");
        Files.createDirectories(Path.of("/run/sshd"));
        ensureUser();
        Path hostKey = dir.resolve("host_ed25519");
        Path clientKey = dir.resolve("client_ed25519");
        exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", hostKey.toString());
        exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", clientKey.toString());
        Path auth = dir.resolve("authorized_keys");
        Files.copy(dir.resolve("client_ed25519.pub"), auth);
        Files.setPosixFilePermissions(auth, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        // the login's TMPDIR, where the agents keep their files: gone with this directory, even
        // after the tests that kill an agent before it can clean up
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        StringBuilder client = new StringBuilder();
        try {
            for (int i = 1; i <= count; i++) {
                String addr = "127.0.0." + (i + 1);
                addresses.add(addr);
                Path conf = dir.resolve("sshd_config_h" + i);
                Files.writeString(conf, String.join("\n",
                        "ListenAddress " + addr, "Port " + PORT, "HostKey " + hostKey, "PidFile " + dir.resolve("sshd_h" + i + ".pid"),
                        "AuthorizedKeysFile " + auth, "UsePAM no", "StrictModes no", "PasswordAuthentication no",
                        "KbdInteractiveAuthentication no", "PermitRootLogin no", "AllowUsers " + USER,
                        "KexAlgorithms curve25519-sha256", "LogLevel VERBOSE", "SetEnv TMPDIR=" + tmp, "") );
                start(i);
                client.append("Host h").append(i).append("\n  HostName ").append(addr).append("\n  Port ").append(PORT)
                        .append("\n  User ").append(USER).append("\n  IdentityFile ").append(clientKey)
                        .append("\n  IdentitiesOnly yes\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n")
                        .append("  LogLevel ERROR\n  KexAlgorithms curve25519-sha256\n  BatchMode yes\n");
            }
            Files.writeString(config(), client.toString());
        } catch (IOException | RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
    }

    /** The client configuration that names the hosts h1, h2, ... */
    Path config() {
        return dir.resolve("ssh_config");
    }

    /** The {@code --ssh} command for brisk and GNU parallel. */
    String ssh() {
        return "ssh -F " + config();
    }

    /** Starts host {@code i}'s daemon and waits until it accepts connections. */
    void start(int i) throws IOException, InterruptedException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(addresses.get(i - 1), PORT), 200);
            throw new IOException(addresses.get(i - 1) + ":" + PORT + " is taken by another server: stop it first");
        } catch (java.net.ConnectException free) {
            // nobody listens: ours can
        }
        Process p = new ProcessBuilder("/usr/sbin/sshd", "-D", "-e", "-f", dir.resolve("sshd_config_h" + i).toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("sshd_h" + i + ".log").toFile()).start();
        while (daemons.size() < i) {
            daemons.add(null);
        }
        daemons.set(i - 1, p);
        long until = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(addresses.get(i - 1), PORT), 200);
                return;
            } catch (IOException e) {
                if (!p.isAlive() || System.nanoTime() > until) {
                    throw new IOException("sshd h" + i + " did not start: " + Files.readString(dir.resolve("sshd_h" + i + ".log")));
                }
                Thread.sleep(20);
            }
        }
    }

    /**
     * Whether host {@code i} serves a login now: a process other than sshd's own runs under its
     * daemon (the remote side of a connection, past authentication).
     */
    boolean serving(int i) {
        Process p = daemons.get(i - 1);
        return p != null && p.descendants().anyMatch(h -> h.info().command()
                .map(c -> !Path.of(c).getFileName().toString().startsWith("sshd")).orElse(false));
    }

    /**
     * How many logins host {@code i}'s daemon has accepted so far (its log's {@code Accepted
     * publickey} lines: one per ssh connection, none for a session over a shared one).
     */
    int logins(int i) throws IOException {
        try (var lines = Files.lines(dir.resolve("sshd_h" + i + ".log"), StandardCharsets.ISO_8859_1)) {
            return (int) lines.filter(l -> l.contains("Accepted publickey for " + USER)).count();
        }
    }

    /** Kills host {@code i} as a machine dies: its daemon and every session under it, at once. */
    void kill(int i) {
        Process p = daemons.get(i - 1);
        if (p != null) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            daemons.set(i - 1, null);
        }
    }

    /** One run's output, text as ISO-8859-1 (so any byte survives), and exit status. */
    record Out(String stdout, String stderr, int status) {}

    /**
     * Runs {@code script} under bash in {@code dir}, with {@code $B} the brisk command {@code
     * brisk} and {@code $SSH} this fixture's ssh command, stdin from /dev/null; fails after 150 s.
     */
    Out sh(Path dir, Path brisk, String script) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.toFile());
        pb.environment().put("B", brisk.toString());
        pb.environment().put("SSH", ssh());
        Path o = Files.createTempFile(dir, "o", "");
        Path e = Files.createTempFile(dir, "e", "");
        pb.redirectOutput(o.toFile()).redirectError(e.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("did not finish: " + script);
        }
        return new Out(Files.readString(o, StandardCharsets.ISO_8859_1), Files.readString(e, StandardCharsets.ISO_8859_1), p.exitValue());
    }

    /**
     * GNU parallel's run and brisk's at once (GNU parallel's mostly waits for its logins, one per
     * job), each by {@link #sh}: the reference first, then brisk's.
     */
    Out[] both(Path dir, Path brisk, String gnu, String ours) throws IOException, InterruptedException {
        java.util.concurrent.CompletableFuture<Out> gnuRun = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return sh(dir, brisk, gnu);
            } catch (IOException | InterruptedException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        Out o = sh(dir, brisk, ours);
        return new Out[] {gnuRun.join(), o};
    }

    /** The processes the login user runs on the (shared) machine: none once jobs and agents are gone. */
    static List<String> userProcesses() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ps", "-u", USER, "-o", "pid=,args=").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.contains("sshd")).toList();
    }

    /** The login user's home directory. */
    static Path userHome() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("getent", "passwd", USER).start();
        String line = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return Path.of(line.split(":")[5]);
    }

    @Override
    public void close() {
        for (int i = 1; i <= daemons.size(); i++) {
            kill(i);
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // best effort: it is under /tmp
        }
    }

    private static void ensureUser() throws IOException, InterruptedException {
        if (new ProcessBuilder("id", "-u", USER).start().waitFor() != 0) {
            exec("useradd", "-m", "-s", "/bin/bash", USER);
        }
        exec("usermod", "-p", "*", USER);
    }

    private static void exec(String... argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new UncheckedIOException(new IOException(String.join(" ", argv) + " failed: " + out));
        }
    }
}
