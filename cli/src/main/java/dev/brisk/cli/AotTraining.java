// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.find.Find;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run for the launcher's AOT cache (JEPs 483/514/515): {@code brisk --help}, each
 * {@code brisk pv} path once, then a few {@code brisk find}s and {@code brisk par}s over a small
 * temporary tree, so the cache holds the classes and profiles of the CLI, the meter, the walker
 * and the job runner, local and remote ({@code -S} through a stand-in for ssh): without it the FFM
 * linker and the meter load cold on every {@code brisk pv}, which costs more than the cache
 * saves. Writes nothing; exits 0. Not part of the CLI.
 */
final class AotTraining {
    private AotTraining() {}

    public static void main(String[] args) throws IOException {
        PrintWriter sink = new PrintWriter(OutputStream.nullOutputStream());
        Main.run(new String[] {"--help"}, sink, sink);
        // brisk pv: the sendfile path, the read/write path, the status line and numeric output
        Main.run(new String[] {"pv", "-f", "-S", "-s", "4M", "-o", "/dev/null", "/dev/zero"}, sink, sink);
        Main.run(new String[] {"pv", "-q", "-C", "-0", "-S", "-s", "100000", "-o", "/dev/null", "/dev/zero"}, sink, sink);
        Main.run(new String[] {"pv", "-n", "-b", "-S", "-s", "1M", "-X", "/dev/zero"}, sink, sink);
        Find.prepare();
        Path tree = Files.createTempDirectory("brisk-aot-");
        try {
            for (int d = 0; d < 20; d++) {
                Path dir = Files.createDirectories(tree.resolve("d" + d).resolve("sub"));
                for (int f = 0; f < 50; f++) {
                    Files.write(dir.resolve("f" + f + ".txt"), new byte[f]);
                }
            }
            PrintStream nullErr = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
            String root = tree.toString();
            for (int round = 0; round < 20; round++) {
                run(nullErr, root, "-type", "f");
                run(nullErr, root, "-name", "*.txt", "-print0");
                run(nullErr, root, "-type", "d", "-o", "-size", "+1", "-printf", "%p %s %m\\n");
            }
            par(sink, tree);
        } finally {
            try (Stream<Path> s = Files.walk(tree)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /**
     * {@code brisk par}'s paths, each over the tree's files, with commands that print nothing:
     * the direct spawn, a direct pipeline, a builtin and shell code on warm shells, {@code -X};
     * input from {@code ::::} with {@code -0}, as from {@code find -print0}.
     */
    private static void par(PrintWriter sink, Path tree) throws IOException {
        Path list = tree.resolve("list0");
        try (Stream<Path> s = Files.walk(tree)) {
            StringBuilder b = new StringBuilder();
            s.filter(p -> p.toString().endsWith(".txt")).limit(200).forEach(p -> b.append(p).append('\0'));
            Files.writeString(list, b);
        }
        String l = list.toString();
        for (int round = 0; round < 3; round++) {
            Main.run(new String[] {"par", "-0", "cmp", "-s", "{}", "{}", "::::", l}, sink, sink);
            Main.run(new String[] {"par", "-0", "cat {} | cmp -s - {}", "::::", l}, sink, sink);
            Main.run(new String[] {"par", "-0", "-j2", ":", "::::", l}, sink, sink);
            Main.run(new String[] {"par", "-0", "-k", "test -e {} || echo {}", "::::", l}, sink, sink);
            Main.run(new String[] {"par", "-0", "-X", "/bin/true", "::::", l}, sink, sink);
        }
        // brisk par -S: a stand-in for ssh that runs the remote command here, so that the cache
        // holds the remote path (host links, the agent's boot, remote slots): a first remote job
        // otherwise waits for those classes to load cold before its host's login even starts
        // (setsid: the agent ends by signalling its process group, which sshd makes its own)
        Path ssh = tree.resolve("ssh");
        Files.writeString(ssh, "#!/bin/sh\nfor a; do last=$a; done\nexec setsid /bin/sh -c \"$last\"\n");
        if (ssh.toFile().setExecutable(true)) {
            for (int round = 0; round < 3; round++) {
                Main.run(new String[] {"par", "--ssh", ssh.toString(), "-S", "2/train", "-0", "cmp", "-s", "{}", "{}",
                        "::::", l}, sink, sink);
                Main.run(new String[] {"par", "--ssh", ssh.toString(), "-S", "1/train", "-k", "echo", "{}", ":::", "a", "b"},
                        sink, sink);
            }
        }
        // what System.exit loads (it asks for the java.lang.Runtime logger)
        System.getLogger("java.lang.Runtime").isLoggable(System.Logger.Level.DEBUG);
    }

    private static void run(PrintStream err, String... args) {
        List<byte[]> bytes = new ArrayList<>();
        for (String a : args) {
            bytes.add(a.getBytes(StandardCharsets.UTF_8));
        }
        Find.run(bytes, OutputStream.nullOutputStream(), err);
    }
}
