// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.internal.shell.ShellQuote;
import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.remote.CallerProcess;
import dev.brisk.internal.shell.ShellSpec;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code brisk par --slurm-submit 'SBATCH OPTIONS'}: runs a command line (brisk's own, with
 * {@code --slurm}) as one Slurm batch job and waits for it here, printing its output as it comes.
 *
 * <p>The job's files live in a directory {@code .brisk-slurm.XXXXXX} made in the working
 * directory, which the compute nodes must share with this machine (as they share brisk itself):
 * the batch script ({@code job.sh}: {@code cd} back here, run the command with the saved input,
 * write its exit status to {@code status}), the input copied from our stdin when the run reads
 * it, and the job's stdout and stderr ({@code sbatch --output/--error}). brisk submits with
 * {@code sbatch --parsable --no-kill --job-name=brisk} and the user's options after those (a
 * shell parses them, so they may carry quotes), then polls: the status file every 50 ms, the
 * job's state ({@code squeue -j ID -t all}) every second, copying new output to our stdout and
 * stderr on each turn. No {@code sbatch --wait} (its back-off takes ~10 s to notice a job that
 * ended) and no {@code sacct} (clusters without accounting have none): the exit status is the one
 * the script wrote. The job log ({@code --joblog}) is written by the job itself into the shared
 * directory, at the path given. Ctrl-C or SIGTERM here cancels the job ({@code scancel}).
 *
 * <p>Exit status: the command's own, or 255 with a one-line message when sbatch refuses the job
 * or the job ends without one (cancelled, time limit, node failure).
 */
public final class SlurmSubmit {
    private static final long STATUS_POLL_MILLIS = 50;
    private static final long STATE_POLL_MILLIS = 1000;
    /**
     * How long a job that Slurm says has ended may take to show its status file (a shared file
     * system's caches); the system property {@code brisk.slurm.statusGraceMillis} sets it (tests).
     */
    private static final long STATUS_GRACE_MILLIS = Long.getLong("brisk.slurm.statusGraceMillis", 5000);

    /**
     * One submission.
     *
     * @param command the argument vector the batch job runs (brisk's own command line, with {@code --slurm})
     * @param sbatchOptions the user's sbatch options, shell words
     * @param workdir the directory the job runs in and keeps its files in (shared with the nodes)
     * @param input whether the command reads its stdin: our stdin is copied for it first
     */
    public record Request(List<byte[]> command, String sbatchOptions, Path workdir, boolean input) {
        public Request {
            command = List.copyOf(command);
            Objects.requireNonNull(sbatchOptions, "sbatchOptions");
            Objects.requireNonNull(workdir, "workdir");
            if (command.isEmpty()) {
                throw new IllegalArgumentException("no command to submit");
            }
        }
    }

    private final Request request;
    private final OutputStream out;
    private final OutputStream err;
    /** How long sbatch, squeue and scancel may take to answer. */
    private static final int ANSWER_SECONDS = 60;

    private volatile String jobId;
    private volatile boolean finished;
    /**
     * Counted down once sbatch has answered (and {@link #jobId} is set, if it took the job): a
     * Ctrl-C that comes while sbatch runs or its answer is being read must still cancel the job,
     * which may already be running by then.
     */
    private final CountDownLatch submitted = new CountDownLatch(1);

    private SlurmSubmit(Request request, OutputStream out, OutputStream err) {
        this.request = request;
        this.out = out;
        this.err = err;
    }

    /** Submits the job, waits for it while printing its output, and returns its exit status. */
    public static int run(Request request, InputStream stdin, OutputStream out, OutputStream err) throws IOException {
        return new SlurmSubmit(request, out, err).submitAndWait(stdin);
    }

    private int submitAndWait(InputStream stdin) throws IOException {
        Path dir;
        try {
            dir = Files.createTempDirectory(request.workdir(), ".brisk-slurm.");
        } catch (IOException e) {
            return fail("--slurm-submit: cannot make the job's directory in " + request.workdir() + ": " + e.getMessage());
        }
        Path input = dir.resolve("input");
        if (request.input()) {
            try (OutputStream o = Files.newOutputStream(input)) {
                stdin.transferTo(o);
            }
        } else {
            Files.write(input, new byte[0]);
        }
        Path status = dir.resolve("status");
        Files.write(dir.resolve("job.sh"), script(dir));
        Thread cancel = new Thread(this::cancel, "brisk-slurm-cancel");
        Caller caller = Caller.current();
        caller.addExitHook(cancel);
        try {
            String id;
            try {
                id = sbatch(dir);
                jobId = id;
            } finally {
                submitted.countDown();
            }
            if (id == null) {
                return 255;
            }
            err.write(("brisk par: submitted batch job " + jobId + "\n").getBytes(StandardCharsets.UTF_8));
            err.flush();
            int code = await(dir, status);
            finished = true;
            return code;
        } finally {
            caller.removeExitHook(cancel); // false: it is running, and cancels the job
            if (finished) {
                removeAll(dir);
            }
        }
    }

    private byte[] script(Path dir) {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.writeBytes("#!/bin/sh\n# brisk par --slurm-submit: the batch job\ncd ".getBytes(StandardCharsets.US_ASCII));
        s.writeBytes(ShellQuote.quote(request.workdir().toString().getBytes(StandardCharsets.UTF_8)));
        s.writeBytes(" || exit 255\n".getBytes(StandardCharsets.US_ASCII));
        for (byte[] a : request.command()) {
            s.writeBytes(ShellQuote.quote(a));
            s.write(' ');
        }
        s.writeBytes("<".getBytes(StandardCharsets.US_ASCII));
        s.writeBytes(ShellQuote.quote(dir.resolve("input").toString().getBytes(StandardCharsets.UTF_8)));
        s.writeBytes("""

                __brisk_status=$?
                echo $__brisk_status >""".getBytes(StandardCharsets.US_ASCII));
        s.writeBytes(ShellQuote.quote(dir.resolve("status.tmp").toString().getBytes(StandardCharsets.UTF_8)));
        s.writeBytes(" && mv ".getBytes(StandardCharsets.US_ASCII));
        s.writeBytes(ShellQuote.quote(dir.resolve("status.tmp").toString().getBytes(StandardCharsets.UTF_8)));
        s.write(' ');
        s.writeBytes(ShellQuote.quote(dir.resolve("status").toString().getBytes(StandardCharsets.UTF_8)));
        s.writeBytes("\nexit $__brisk_status\n".getBytes(StandardCharsets.US_ASCII));
        return s.toByteArray();
    }

    /** Submits; returns the job id, or null after saying why sbatch refused. */
    private String sbatch(Path dir) throws IOException {
        // a session of its own: a Ctrl-C at the terminal reaches brisk, whose hook waits for
        // sbatch's answer to cancel the job, and not sbatch, which would die without printing the
        // id of a job slurmctld has already taken
        ProcessBuilder pb = CallerProcess.builder(ShellSpec.setsid(), "-w", "/bin/sh", "-c",
                "exec sbatch --parsable --no-kill --job-name=brisk --output=\"$1\" --error=\"$2\" " + request.sbatchOptions() + " \"$3\"",
                "sh", dir.resolve("out").toString(), dir.resolve("err").toString(), dir.resolve("job.sh").toString());
        pb.directory(request.workdir().toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Run r = run(pb);
        String answer = r.out.strip();
        String id = answer.contains(";") ? answer.substring(0, answer.indexOf(';')) : answer;
        if (r.status != 0 || !id.matches("[0-9]+(_[0-9]+)?")) {
            String why = r.err.strip();
            why = why.isEmpty() ? "exit status " + r.status : why.lines().filter(l -> !l.isBlank()).findFirst().orElse(why);
            removeAll(dir);
            fail("--slurm-submit: sbatch refused the job: " + why.replaceFirst("^sbatch: (error: )?", ""));
            return null;
        }
        return id;
    }

    private int await(Path dir, Path status) throws IOException {
        Tail stdout = new Tail(dir.resolve("out"), out);
        Tail stderr = new Tail(dir.resolve("err"), err);
        long nextState = 0;
        long endedAt = -1;
        String state = "";
        try {
            while (true) {
                stdout.copy();
                stderr.copy();
                if (Files.exists(status)) {
                    // the script wrote the status after the command ended: its output is complete
                    stdout.copy();
                    stderr.copy();
                    String s = Files.readString(status, StandardCharsets.US_ASCII).strip();
                    try {
                        return Integer.parseInt(s);
                    } catch (NumberFormatException e) {
                        return fail("--slurm-submit: batch job " + jobId + " wrote a bad status '" + s + "'");
                    }
                }
                long now = System.nanoTime() / 1_000_000;
                if (endedAt < 0 && now >= nextState) {
                    nextState = now + STATE_POLL_MILLIS;
                    state = state();
                    if (!state.isEmpty() && !state.equals("PENDING") && !state.equals("RUNNING") && !state.equals("CONFIGURING")
                            && !state.equals("COMPLETING") && !state.equals("SUSPENDED") && !state.equals("REQUEUED")
                            && !state.equals("RESIZING") && !state.equals("SIGNALING") && !state.equals("STAGE_OUT")) {
                        endedAt = now;
                    }
                } else if (endedAt >= 0 && now - endedAt > STATUS_GRACE_MILLIS) {
                    stdout.copy();
                    stderr.copy();
                    return fail("--slurm-submit: batch job " + jobId + " ended " + state + " without an exit status"
                            + " (a --joblog lets --resume go on)");
                }
                Thread.sleep(STATUS_POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            return 130;
        }
    }

    /** The job's state as squeue shows it ({@code -t all}: ended jobs too, for MinJobAge), or {@code GONE}. */
    private String state() throws IOException {
        ProcessBuilder pb = CallerProcess.builder("squeue", "-h", "-j", jobId, "-t", "all", "-o", "%T");
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Run r = run(pb);
        String s = r.out.strip();
        if (r.status != 0) {
            // an id slurmctld has forgotten: "Invalid job id specified"
            return r.err.contains("Invalid job id") ? "GONE" : "";
        }
        return s.isEmpty() ? "GONE" : s.lines().findFirst().orElse("").strip();
    }

    /** Ctrl-C, SIGTERM: cancel the job if it has not ended. */
    private void cancel() {
        try {
            if (!submitted.await(ANSWER_SECONDS + 5, TimeUnit.SECONDS)) {
                err.write("brisk par: sbatch did not answer: a job may have been submitted\n".getBytes(StandardCharsets.UTF_8));
                err.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // nothing more to do while exiting
        }
        String id = jobId;
        if (id == null || finished) {
            return;
        }
        try {
            ProcessBuilder pb = CallerProcess.builder("scancel", id);
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Process p = pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            p.waitFor(10, TimeUnit.SECONDS);
            err.write(("brisk par: cancelled batch job " + id + "\n").getBytes(StandardCharsets.UTF_8));
            err.flush();
        } catch (IOException e) {
            // nothing more to do while exiting
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private int fail(String message) throws IOException {
        err.write(("brisk par: " + message + "\n").getBytes(StandardCharsets.UTF_8));
        err.flush();
        return 255;
    }

    private record Run(int status, String out, String err) {}

    /** The program {@code pb} runs, for messages: sbatch behind setsid and sh. */
    private static String name(ProcessBuilder pb) {
        return pb.command().getFirst().equals(ShellSpec.setsid()) ? "sbatch" : pb.command().getFirst();
    }

    private static Run run(ProcessBuilder pb) throws IOException {
        Path e = Files.createTempFile("brisk-slurm", ".err");
        try {
            pb.redirectError(e.toFile());
            Process p = pb.start();
            byte[] o = p.getInputStream().readAllBytes();
            try {
                if (!p.waitFor(ANSWER_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    return new Run(124, "", name(pb) + " did not answer in " + ANSWER_SECONDS + " s");
                }
            } catch (InterruptedException x) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                return new Run(130, "", "interrupted");
            }
            return new Run(p.exitValue(), new String(o, StandardCharsets.UTF_8), Files.readString(e, StandardCharsets.UTF_8));
        } catch (IOException x) {
            return new Run(127, "", "cannot run " + name(pb) + ": " + x.getMessage());
        } finally {
            Files.deleteIfExists(e);
        }
    }

    /** Copies what a growing file gained since the last call. */
    private static final class Tail {
        private final Path file;
        private final OutputStream to;
        private long offset;
        private final byte[] buf = new byte[1 << 16];

        Tail(Path file, OutputStream to) {
            this.file = file;
            this.to = to;
        }

        void copy() throws IOException {
            if (!Files.exists(file)) {
                return;
            }
            try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
                f.seek(offset);
                boolean any = false;
                for (int n; (n = f.read(buf)) > 0; ) {
                    to.write(buf, 0, n);
                    offset += n;
                    any = true;
                }
                if (any) {
                    to.flush();
                }
            }
        }
    }

    private static void removeAll(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover directory is harmless
        }
    }
}
