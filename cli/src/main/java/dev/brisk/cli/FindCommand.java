// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.find.Find;
import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorOutput;
import dev.brisk.internal.posix.DescriptorStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code brisk find}: a drop-in for find(1). {@link Main#main} hands it the command line before
 * picocli sees it (find's syntax is not getopt's, and picocli's start-up would cost time); the
 * arguments are re-read as bytes from {@code /proc/self/cmdline}, so names that are not valid
 * in the locale's charset reach the walker intact.
 */
@Command(name = "find", description = {"Find files like find(1), faster.",
        "A drop-in for GNU find 4.9 on brisk's parallel tree walker; its words are listed below and by brisk find --help."},
        footer = {"", "Exit status: 0 ok, 1 an error (bad expression, unreadable directory, failed -exec ... +, failed write)."})
final class FindCommand implements Callable<Integer> {
    private static final byte[] HELP = "--help".getBytes(StandardCharsets.US_ASCII),
            SHORT_HELP = "-help".getBytes(StandardCharsets.US_ASCII);
    private static final Charset JNU = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"),
            Charset.defaultCharset());

    @Parameters(arity = "0..*", paramLabel = "ARG", description = "Roots, then the find expression.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
        List<byte[]> bytes = new ArrayList<>();
        for (String a : args) {
            bytes.add(a.getBytes(JNU));
        }
        System.out.flush();
        Caller caller = Caller.current();
        return Find.run(bytes, DescriptorStream.output(caller.stdout()), DescriptorStream.print(caller.stderr()));
    }

    /**
     * Runs a find call of {@link Caller#current()} ({@code find} first, then its arguments, as
     * the bytes the caller passed) and returns its exit status: for a warm server's call thread,
     * which has taken the caller's working directory and umask and set the caller. Never exits
     * the JVM; writes only to the caller's standard output and error (never {@code System.out}
     * or {@code System.err}), reads only its standard input. When the caller's call ends early
     * ({@link Caller#signalled} and its exit hooks run) the walk and any {@code -exec} command
     * stop soon and the status is 128 + the signal. Safe to run on several threads at once, each
     * with its own caller.
     */
    static int call(List<byte[]> rawArgs) {
        Caller caller = Caller.current();
        OutputStream out = DescriptorStream.output(caller.stdout());
        List<byte[]> args = rawArgs.isEmpty() ? rawArgs : rawArgs.subList(1, rawArgs.size()); // without the word find
        if (args.size() == 1 && (Arrays.equals(args.getFirst(), HELP) || Arrays.equals(args.getFirst(), SHORT_HELP))) {
            return help(out, DescriptorStream.print(caller.stderr()));
        }
        return Find.run(args, out, DescriptorStream.print(caller.stderr()));
    }

    /** Runs {@code args} ({@code find} first) as brisk's whole command line; returns the exit status. */
    static int main(String[] args) {
        Find.prepare();
        if (args.length == 2 && (args[1].equals("--help") || args[1].equals("-help"))) {
            return help(DescriptorOutput.of(1, Caller.current()), System.err);
        }
        List<byte[]> raw = rawArgs(args);
        // the caller's own descriptor 1, as a server's call writes to its client's: a failed write's errno tells a
        // closed pipe (find's status 141) from a full disk (GNU's message and status 1)
        return Find.run(raw.subList(1, raw.size()), DescriptorOutput.of(1, Caller.current()), System.err);
    }

    /** Writes the usage text; a failed write is GNU's {@code write error} and status 1 (a closed pipe 141). */
    private static int help(OutputStream out, java.io.PrintStream err) {
        try {
            out.write(FindHelp.usage().getBytes(StandardCharsets.UTF_8));
            return 0;
        } catch (IOException e) {
            return Find.writeFailed(e, err);
        }
    }

    /** {@code args} as the bytes the kernel passed, when /proc agrees with them; else re-encoded. */
    static List<byte[]> rawArgs(String[] args) {
        List<byte[]> out = new ArrayList<>(args.length);
        try {
            byte[] all = Files.readAllBytes(Path.of("/proc/self/cmdline"));
            List<byte[]> parts = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < all.length; i++) {
                if (all[i] == 0) {
                    parts.add(java.util.Arrays.copyOfRange(all, start, i));
                    start = i + 1;
                }
            }
            if (parts.size() >= args.length) {
                List<byte[]> tail = parts.subList(parts.size() - args.length, parts.size());
                boolean same = true;
                for (int i = 0; i < args.length && same; i++) {
                    same = new String(tail.get(i), JNU).equals(args[i]);
                }
                if (same) {
                    out.addAll(tail);
                    return out;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // no /proc: fall back to the JVM's decoding
        }
        for (String a : args) {
            out.add(a.getBytes(JNU));
        }
        return out;
    }
}
