// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorStream;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.Syscall;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FindCommand#call} as a warm server runs it: on a thread of its own that took a working
 * directory with {@code unshare(CLONE_FS)} and {@code fchdir}, with a {@link Caller} whose
 * standard descriptors are pipes this test made and whose environment is its own. Several calls
 * at once must each see only their own directory, output, locale and time zone, and give what
 * GNU find gives for the same command in the same directory and environment; a call the client
 * ends (a relayed signal) stops its walk and its {@code -exec} command.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FindCallTest {
    private static final int CLONE_FS = 0x200, SIGINT = 2;

    @TempDir
    Path tmp;

    /** One call's result: status, standard output and standard error. */
    record Result(int status, String out, String err) {}

    /** A call's caller and the pipes that stand for the client's standard descriptors. */
    static final class Client implements AutoCloseable {
        final int[] in = pipe(), out = pipe(), err = pipe();
        final Caller caller;
        final CompletableFuture<byte[]> stdout, stderr;
        /** Done once the call wrote its first bytes to standard output, or to standard error. */
        final CompletableFuture<Void> started = new CompletableFuture<>(), errStarted = new CompletableFuture<>();

        Client(Map<String, String> env) {
            this(env, true);
        }

        /** A client; one that does not {@code read} leaves its standard output's pipe to fill. */
        Client(Map<String, String> env, boolean read) {
            List<byte[]> vars = new ArrayList<>();
            env.forEach((k, v) -> vars.add((k + "=" + v).getBytes(StandardCharsets.UTF_8)));
            caller = new Caller(-1, in[0], out[1], err[1], vars, null, -1, 0, 0, 0);
            stdout = read ? drain(out[0], started) : CompletableFuture.completedFuture(new byte[0]);
            stderr = drain(err[0], errStarted);
        }

        /** Runs {@code args} (after {@code find}) as a call in {@code dir}, on a new thread as the server's; returns once the call did. */
        CompletableFuture<Integer> start(Path dir, List<String> args) {
            CompletableFuture<Integer> status = new CompletableFuture<>();
            Thread.ofPlatform().name("find-call").start(() -> {
                try {
                    status.complete(callIn(dir, caller, args));
                } catch (Throwable t) {
                    status.completeExceptionally(t);
                } finally {
                    Libc.close(out[1]); // the server's copies: the client's reader then sees the end
                    Libc.close(err[1]);
                }
            });
            return status;
        }

        Result run(Path dir, List<String> args) throws Exception {
            int s = start(dir, args).get();
            return result(s);
        }

        Result result(int status) throws Exception {
            return new Result(status, new String(stdout.get(), StandardCharsets.UTF_8),
                    new String(stderr.get(), StandardCharsets.UTF_8));
        }

        @Override
        public void close() {
            Libc.close(in[0]);
            Libc.close(in[1]);
            Libc.close(out[0]);
            Libc.close(err[0]);
        }
    }

    /** What a server's call thread does before it runs the command: the caller's directory, then the caller. */
    static int callIn(Path dir, Caller caller, List<String> args) throws PosixException {
        long r = Syscall.call(Syscall.UNSHARE, CLONE_FS, 0, 0, 0);
        assertThat(r).as("unshare(CLONE_FS)").isZero();
        int fd = Libc.open(dir.toString().getBytes(StandardCharsets.UTF_8), Flags.O_RDONLY | Flags.O_DIRECTORY | Flags.O_CLOEXEC, 0);
        try {
            assertThat(Syscall.call(Syscall.FCHDIR, fd, 0, 0, 0)).as("fchdir").isZero();
        } finally {
            Libc.close(fd);
        }
        Caller.set(caller);
        List<byte[]> raw = new ArrayList<>();
        raw.add("find".getBytes(StandardCharsets.UTF_8));
        for (String a : args) {
            raw.add(a.getBytes(StandardCharsets.UTF_8));
        }
        return FindCommand.call(raw);
    }

    static int[] pipe() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fds = a.allocate(8, 4);
            assertThat(Libc.pipe2(fds, Flags.O_CLOEXEC)).isZero();
            return new int[] {fds.get(ValueLayout.JAVA_INT, 0), fds.get(ValueLayout.JAVA_INT, 4)};
        }
    }

    /** Everything read from {@code fd} until its end, on a thread of its own; completes {@code first} at the first bytes. */
    static CompletableFuture<byte[]> drain(int fd, CompletableFuture<Void> first) {
        CompletableFuture<byte[]> all = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("drain-" + fd).start(() -> {
            try {
                java.io.InputStream in = DescriptorStream.input(fd);
                java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
                byte[] buf = new byte[65536];
                for (int n; (n = in.read(buf)) > 0; ) {
                    got.write(buf, 0, n);
                    first.complete(null);
                }
                first.complete(null);
                all.complete(got.toByteArray());
            } catch (IOException e) {
                first.complete(null);
                all.completeExceptionally(e);
            }
        });
        return all;
    }

    static Map<String, String> env(String... kv) {
        Map<String, String> m = new HashMap<>();
        m.put("PATH", System.getenv("PATH"));
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** GNU find's result for {@code args} in {@code dir} with exactly {@code env}. */
    static Result gnu(Path dir, Map<String, String> env, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("find"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> {
            try {
                return p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out, new String(err.get(), StandardCharsets.UTF_8));
    }

    static List<String> sortedLines(String s) {
        return s.lines().sorted().toList();
    }

    /** A tree of {@code n} files in a few directories, named after {@code tag}, each modified at 12:00 UTC on 2024-01-15 plus its number in hours. */
    static Path tree(Path at, String tag, int n) throws IOException {
        Path root = Files.createDirectories(at.resolve(tag));
        for (int i = 0; i < n; i++) {
            Path d = Files.createDirectories(root.resolve("sub" + i % 3).resolve("deep" + i % 2));
            Path f = Files.writeString(d.resolve(tag + "-" + i + ".txt"), tag + i);
            Files.setLastModifiedTime(f, FileTime.from(Instant.parse("2024-01-15T12:00:00Z").plusSeconds(3600L * i)));
        }
        return root;
    }

    @Test
    void concurrentCallsEachSeeTheirOwnDirectoryOutputLocaleAndTimeZone() throws Exception {
        Path a = tree(tmp, "alpha", 40), b = tree(tmp, "beta", 30);
        record Case(Path dir, Map<String, String> env, List<String> args) {}
        List<Case> cases = List.of(
                new Case(a, env("TZ", "Asia/Tokyo", "LANG", "C.UTF-8"),
                        List.of("--threads=4", ".", "-name", "*.txt", "-printf", "A %p %TH %TZ\\n")),
                new Case(b, env("TZ", "America/New_York", "LANG", "C.UTF-8"),
                        List.of("--threads=4", "sub0", "sub1", "-printf", "B %P %TY-%Tm-%Td %TH:%TM %Tz\\n")),
                new Case(a, env("TZ", "UTC0", "LANG", "C"),
                        List.of("--threads=4", "sub2", "nowhere", "-type", "f", "-printf", "C %f %T@ %TH\\n")),
                new Case(b, env("TZ", ":Europe/Paris", "LANG", "C.UTF-8"),
                        List.of("--threads=4", "nowhere", ".", "-newermt", "2024-01-16 00:00", "-name", "beta-2*", "-print")),
                new Case(a, env("TZ", "JST-9", "LANG", "C"),
                        List.of(".", "-daystart", "-name", "alpha-1*", "-printf", "E %p %TH %Tk\\n")));
        for (int round = 0; round < 3; round++) {
            List<Client> clients = new ArrayList<>();
            List<CompletableFuture<Integer>> running = new ArrayList<>();
            for (Case c : cases) {
                Client client = new Client(c.env());
                clients.add(client);
                running.add(client.start(c.dir(), c.args()));
            }
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                try (Client client = clients.get(i)) {
                    Result got = client.result(running.get(i).get());
                    Result want = gnu(c.dir(), c.env(), c.args().stream().filter(x -> !x.startsWith("--threads")).toList());
                    assertThat(got.status()).as("status of %s", c.args()).isEqualTo(want.status());
                    assertThat(sortedLines(got.out())).as("output of %s", c.args()).isEqualTo(sortedLines(want.out()))
                            .isNotEmpty();
                    assertThat(got.err()).as("errors of %s", c.args()).isEqualTo(want.err());
                }
            }
        }
    }

    @Test
    void execRunsInTheCallersDirectoryAndOkReadsItsStandardInput() throws Exception {
        Path a = tree(tmp, "alpha", 9), b = tree(tmp, "beta", 9);
        try (Client one = new Client(env()); Client two = new Client(env("LANG", "C.UTF-8"))) {
            byte[] answers = "y\nn\nyes\n".getBytes(StandardCharsets.US_ASCII);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment buf = arena.allocateFrom(ValueLayout.JAVA_BYTE, answers);
                assertThat(Libc.write(two.in[1], buf, answers.length)).isEqualTo(answers.length);
            }
            Libc.close(two.in[1]);
            two.in[1] = -1;
            CompletableFuture<Integer> first = one.start(a, List.of("sub0", "-name", "*.txt", "-exec", "sh", "-c",
                    "echo \"$1\" >> ran.log", "sh", "{}", ";"));
            CompletableFuture<Integer> second = two.start(b, List.of("sub1", "-name", "*.txt", "-ok", "touch", "{}.yes", ";"));
            Result r1 = one.result(first.get()), r2 = two.result(second.get());
            assertThat(r1.status()).isZero();
            assertThat(r1.err()).isEmpty();
            assertThat(Files.readAllLines(a.resolve("ran.log"))).hasSize(3).allMatch(l -> l.startsWith("sub0/"));
            assertThat(b.resolve("ran.log")).doesNotExist();
            assertThat(r2.status()).isZero();
            List<String> prompts = List.of(r2.err().split("(?<=\\? )"));
            assertThat(prompts).hasSize(3).allMatch(p -> p.startsWith("< touch ... sub1/") && p.endsWith(" > ? "));
            List<Path> made;
            try (var s = Files.walk(b)) {
                made = s.filter(p -> p.toString().endsWith(".yes")).toList();
            }
            // find walks a directory in the order it reads it: the first and third asked were the ones answered yes
            String firstAsked = prompts.get(0).substring("< touch ... ".length(), prompts.get(0).length() - " > ? ".length());
            String thirdAsked = prompts.get(2).substring("< touch ... ".length(), prompts.get(2).length() - " > ? ".length());
            assertThat(made).containsExactlyInAnyOrder(b.resolve(firstAsked + ".yes"), b.resolve(thirdAsked + ".yes"));
        }
    }

    /**
     * A tree whose walk with {@code -L} is long ({@code 2^depth} paths to the bottom) yet takes no
     * time to make: each level's two links lead to the next level.
     */
    static Path longWalk(Path at, int depth) throws IOException {
        Path root = Files.createDirectories(at.resolve("doubling"));
        for (int i = 0; i < depth; i++) {
            Path level = Files.createDirectories(root.resolve("l" + i));
            Files.writeString(level.resolve("file"), "x");
            if (i + 1 < depth) {
                Files.createSymbolicLink(level.resolve("a"), Path.of("../l" + (i + 1)));
                Files.createSymbolicLink(level.resolve("b"), Path.of("../l" + (i + 1)));
            }
        }
        return root;
    }

    @Test
    void aSignalledCallStopsItsWalk() throws Exception {
        Path root = longWalk(tmp, 40);
        try (Client c = new Client(env())) {
            CompletableFuture<Integer> status = c.start(root, List.of("-L", "--threads=2", "l0", "-name", "file"));
            c.started.get();
            c.caller.signalled(SIGINT);
            c.caller.runExitHooks(5000);
            assertThat(status.get()).isEqualTo(128 + SIGINT);
        }
    }

    @Test
    void aSignalledCallStopsItsExecCommand() throws Exception {
        Path a = tree(tmp, "alpha", 6);
        try (Client c = new Client(env())) {
            CompletableFuture<Integer> status = c.start(a, List.of(".", "-name", "*.txt", "-exec", "sh", "-c",
                    "echo \"$1\" >> ran.log; exec sleep 300", "sh", "{}", ";"));
            while (!Files.exists(a.resolve("ran.log"))) {
                Thread.sleep(10);
            }
            c.caller.signalled(SIGINT);
            c.caller.runExitHooks(5000);
            assertThat(status.get()).isEqualTo(128 + SIGINT);
            assertThat(Files.readAllLines(a.resolve("ran.log"))).hasSize(1);
        }
    }

    @Test
    void aSignalledCallStopsWaitingForAnOkAnswer() throws Exception {
        Path a = tree(tmp, "alpha", 3);
        try (Client c = new Client(env())) {
            CompletableFuture<Integer> status = c.start(a, List.of(".", "-name", "*.txt", "-ok", "touch", "{}.yes", ";"));
            c.errStarted.get(); // the first question was asked
            c.caller.signalled(SIGINT); // the client's standard input stays open: nobody answers
            c.caller.runExitHooks(5000);
            assertThat(status.get()).isEqualTo(128 + SIGINT);
            try (var s = Files.walk(a)) {
                assertThat(s.filter(p -> p.toString().endsWith(".yes"))).isEmpty();
            }
        }
    }

    @Test
    void aClosedStandardOutputEndsTheCallAsItEndsADirectRun() throws Exception {
        Path root = longWalk(tmp, 40);
        try (Client c = new Client(env(), false)) {
            CompletableFuture<Integer> status = c.start(root, List.of("-L", "l0"));
            waitForUnreadOutput(c);
            Libc.close(c.out[0]); // the reader is gone: `brisk find / | head -1`
            c.out[0] = -1;
            assertThat(status.get()).isEqualTo(141);
        }
    }

    @Test
    void helpGoesToTheCallersOutput() throws Exception {
        try (Client c = new Client(env())) {
            Result r = c.run(tmp, List.of("--help"));
            assertThat(r.status()).isZero();
            assertThat(r.out()).isEqualTo(FindHelp.usage());
            assertThat(r.err()).isEmpty();
        }
    }

    /** Waits until the call wrote to a standard output nobody reads. */
    private static void waitForUnreadOutput(Client c) throws PosixException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(8, 4);
            do {
                Libc.pollfd(p, 0, c.out[0], (short) 1);
            } while (Libc.poll(p, 1, 1000) == 0);
        }
    }
}
