// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * GNU parallel's job log: a header, then one tab-separated line per finished job
 * ({@code Seq Host Starttime JobRuntime Send Receive Exitval Signal Command}), written as each job
 * ends and flushed, so an interrupted run can be resumed. Thread-safe (synchronized).
 */
public final class JobLogFile implements AutoCloseable {
    static final String HEADER = "Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n";

    /** A logged job: its exit value, signal and command. */
    public record Entry(long seq, int exitval, int signal, byte[] command) {
        public boolean succeeded() {
            return exitval == 0 && signal == 0;
        }
    }

    private final OutputStream out;
    private final boolean ownsStream;

    private JobLogFile(OutputStream out, boolean ownsStream) {
        this.out = out;
        this.ownsStream = ownsStream;
    }

    /**
     * Opens {@code path} ({@code -} for {@code stdout}): appends when {@code append} and the file
     * has content, else writes it afresh with the header; a path starting with {@code +} (GNU
     * parallel's {@code --joblog +FILE}) is the file after it, appended to without a header.
     */
    public static JobLogFile open(Path path, boolean append, OutputStream stdout) throws IOException {
        boolean plus = path.toString().startsWith("+"); // GNU parallel's --joblog +FILE: append, no header
        path = file(path);
        if (path.toString().equals("-")) {
            stdout.write(HEADER.getBytes(StandardCharsets.US_ASCII));
            stdout.flush(); // out before the first job ends (stdout may gather writes)
            return new JobLogFile(stdout, false);
        }
        boolean fresh = !plus && (!append || !Files.exists(path) || Files.size(path) == 0);
        OutputStream o = fresh
                ? Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)
                : Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (fresh) {
            o.write(HEADER.getBytes(StandardCharsets.US_ASCII));
            o.flush();
        }
        return new JobLogFile(o, true);
    }

    /** The log's file: {@code path} without the {@code +} of GNU parallel's {@code --joblog +FILE} (append). */
    static Path file(Path path) {
        String name = path.toString();
        return name.startsWith("+") ? Path.of(name.substring(1)) : path;
    }

    /** Reads the entries of an existing log (later lines for the same seq win); empty if none. */
    public static Map<Long, Entry> read(Path path) throws IOException {
        path = file(path);
        Map<Long, Entry> entries = new HashMap<>();
        if (!Files.exists(path)) {
            return entries;
        }
        byte[] all = Files.readAllBytes(path);
        int start = 0;
        for (int i = 0; i <= all.length; i++) {
            if (i == all.length || all[i] == '\n') {
                if (i > start) {
                    parse(all, start, i, path).ifPresent(e -> entries.put(e.seq(), e));
                }
                start = i + 1;
            }
        }
        return entries;
    }

    private static java.util.Optional<Entry> parse(byte[] all, int from, int to, Path path) throws IOException {
        int[] tabs = new int[8];
        int n = 0;
        for (int i = from; i < to && n < 8; i++) {
            if (all[i] == '\t') {
                tabs[n++] = i;
            }
        }
        String first = new String(all, from, n > 0 ? tabs[0] - from : to - from, StandardCharsets.UTF_8);
        if (first.equals("Seq")) {
            return java.util.Optional.empty();
        }
        if (n < 8) {
            throw new IOException("the job log " + path + " is not in GNU parallel's format: a line has "
                    + (n + 1) + " fields, not 9");
        }
        try {
            long seq = Long.parseLong(first);
            int exit = Integer.parseInt(field(all, tabs[5] + 1, tabs[6]));
            int sig = Integer.parseInt(field(all, tabs[6] + 1, tabs[7]));
            byte[] cmd = java.util.Arrays.copyOfRange(all, tabs[7] + 1, to);
            for (int i = 0; i < cmd.length; i++) {
                if (cmd[i] == 0) {
                    cmd[i] = '\n'; // written as GNU parallel writes a command's newlines (below)
                }
            }
            return java.util.Optional.of(new Entry(seq, exit, sig, cmd));
        } catch (NumberFormatException e) {
            throw new IOException("the job log " + path + " is not in GNU parallel's format: " + e.getMessage());
        }
    }

    private static String field(byte[] all, int from, int to) {
        return new String(all, from, to - from, StandardCharsets.US_ASCII).trim();
    }

    /** Appends one finished job (the newlines of its command written as NUL bytes, as GNU parallel writes them). */
    public synchronized void write(long seq, String host, double startSeconds, double runtimeSeconds, long received,
                                   int exitval, int signal, byte[] command) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64 + command.length);
        line.writeBytes(String.format(Locale.ROOT, "%d\t%s\t%.3f\t%10.3f\t0\t%d\t%d\t%d\t", seq, host, startSeconds,
                runtimeSeconds, received, exitval, signal).getBytes(StandardCharsets.US_ASCII));
        for (byte b : command) {
            line.write(b == '\n' ? 0 : b); // as GNU parallel: a command's newlines as NUL, one line per job
        }
        line.write('\n');
        line.writeTo(out);
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        if (ownsStream) {
            out.close();
        } else {
            out.flush();
        }
    }
}
