// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.exec.JobListener;
import dev.brisk.exec.JobResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code --results NAME.csv}, {@code NAME.tsv}, {@code NAME.json} (any case; {@code -.csv} and
 * the like: on stdout): one row per finished job, as GNU parallel 20221122 writes them: the
 * joblog's columns, the job's values ({@code V1}...) and its whole stdout and stderr; CSV quoted
 * as GNU's {@code combine_ref} quotes (a field with {@code "}, white space, the separator or NUL in
 * double quotes, {@code "} doubled), JSON escaped as its {@code jsonquote} (control bytes as
 * JSON's six-character escapes, other bytes as they are). Rows are written as jobs are reported, under one lock.
 */
final class ParResults implements JobListener {
    /** The format a {@code --results} name asks for, or null for GNU's directory layout. */
    enum Format { CSV, TSV, JSON }

    private final Format format;
    private final OutputStream out;
    private boolean headerWritten;

    ParResults(Format format, OutputStream out) {
        this.format = format;
        this.out = out;
    }

    /** The format of {@code --results NAME}: by its ending, in any case; null for a directory. */
    static Format formatOf(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.endsWith(".csv") ? Format.CSV : n.endsWith(".tsv") ? Format.TSV : n.endsWith(".json") ? Format.JSON : null;
    }

    /** Whether the rows go to stdout ({@code -.csv}, {@code -.tsv}, {@code -.json}), the jobs' own output nowhere. */
    static boolean toStdout(String name) {
        return name.equals("-.csv") || name.equals("-.tsv") || name.equals("-.json");
    }

    @Override
    public synchronized void finished(JobResult r) {
        List<byte[]> values = new ArrayList<>();
        r.args().tuples().forEach(values::addAll);
        ByteArrayOutputStream row = new ByteArrayOutputStream();
        String start = String.format(Locale.ROOT, "%.3f", r.startSeconds()); // GNU parallel's starttime(), as in the job log
        String runtime = String.format(Locale.ROOT, "%.3f", r.runtimeNanos() / 1e9);
        byte[] stdout = r.stdout() == null ? new byte[0] : r.stdout();
        byte[] stderr = r.stderr() == null ? new byte[0] : r.stderr();
        if (format == Format.JSON) {
            row.writeBytes(("{ \"Seq\": " + r.sequence() + ", \"Host\": \"" + r.host() + "\", \"Starttime\": " + start
                    + ", \"JobRuntime\": " + runtime + ", \"Send\": 0, \"Receive\": " + r.stdoutBytes() + ", \"Exitval\": "
                    + r.exitCode() + ", \"Signal\": " + r.signal() + ", \"Command\": \"").getBytes(StandardCharsets.UTF_8));
            json(row, r.command());
            row.writeBytes("\", \"V\": [ ".getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < values.size(); i++) {
                row.writeBytes((i == 0 ? "\"" : ",\"").getBytes(StandardCharsets.US_ASCII));
                json(row, values.get(i));
                row.write('"');
            }
            row.writeBytes(" ], \"Stdout\": \"".getBytes(StandardCharsets.US_ASCII));
            json(row, stdout);
            row.writeBytes("\", \"Stderr\": \"".getBytes(StandardCharsets.US_ASCII));
            json(row, stderr);
            row.writeBytes("\" }\n".getBytes(StandardCharsets.US_ASCII));
        } else {
            byte sep = (byte) (format == Format.CSV ? ',' : '\t');
            if (!headerWritten) {
                List<byte[]> h = new ArrayList<>();
                for (String c : List.of("Seq", "Host", "Starttime", "JobRuntime", "Send", "Receive", "Exitval", "Signal", "Command")) {
                    h.add(c.getBytes(StandardCharsets.US_ASCII));
                }
                for (int i = 1; i <= values.size(); i++) {
                    h.add(("V" + i).getBytes(StandardCharsets.US_ASCII));
                }
                h.add("Stdout".getBytes(StandardCharsets.US_ASCII));
                h.add("Stderr".getBytes(StandardCharsets.US_ASCII));
                csvRow(row, h, sep);
                headerWritten = true;
            }
            List<byte[]> f = new ArrayList<>();
            for (String c : List.of(Long.toString(r.sequence()), r.host(), start, runtime, "0", Long.toString(r.stdoutBytes()),
                    Integer.toString(r.exitCode()), Integer.toString(r.signal()))) {
                f.add(c.getBytes(StandardCharsets.UTF_8));
            }
            f.add(r.command());
            f.addAll(values);
            f.add(stdout);
            f.add(stderr);
            csvRow(row, f, sep);
        }
        try {
            row.writeTo(out);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void csvRow(ByteArrayOutputStream row, List<byte[]> fields, byte sep) {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                row.write(sep);
            }
            byte[] v = fields.get(i);
            boolean quote = false;
            for (byte b : v) {
                if (b == '"' || b == sep || b == 0 || b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0x0b) {
                    quote = true;
                    break;
                }
            }
            if (!quote) {
                row.writeBytes(v);
                continue;
            }
            row.write('"');
            for (byte b : v) {
                if (b == '"') {
                    row.write('"');
                }
                row.write(b);
            }
            row.write('"');
        }
        row.write('\n');
    }

    private static void json(ByteArrayOutputStream o, byte[] v) {
        for (byte b : v) {
            if (b == '\\' || b == '"') {
                o.write('\\');
                o.write(b);
            } else if (b >= 0 && b < 32) {
                o.writeBytes(String.format(Locale.ROOT, "\\u%04x", b).getBytes(StandardCharsets.US_ASCII));
            } else {
                o.write(b);
            }
        }
    }
}
