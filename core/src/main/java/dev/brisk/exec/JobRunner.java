// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import dev.brisk.exec.internal.JobRun;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.Spawn;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * Runs a command template over argument tuples, several jobs at once, each on a warm shell:
 * the engine of {@code brisk par}, with GNU parallel's semantics (see {@link JobOptions}).
 *
 * <p>Every job runs isolated in its own subshell of a warm shell, with standard input at end of
 * file; its output is captured whole and printed in one piece ({@link OutputMode#GROUP}), so
 * the output of parallel jobs never mixes, and output beyond memory goes to anonymous temporary
 * files. When the command is stopped (Ctrl-C; a warm server's client's signal), its exit hook
 * ({@code Caller.addExitHook}: a shutdown hook in a direct run) kills every running job. A run
 * belongs to the {@code Caller} of the thread that starts it: its environment reaches the jobs,
 * and the threads it starts (created by that thread, never pooled across runs) share its
 * working directory. Print to {@code posix.DescriptorStream} for the caller's standard output.
 *
 * <p>A runner runs once at a time: {@link #run} blocks until every job has ended. It does not
 * close the output streams. With {@code out == null} it captures each job's output into its
 * {@link JobResult} instead of printing it.
 *
 * <pre>{@code
 * Template t = Template.parse("gzip -9 {}".getBytes(), "{}", Template.Quoting.SHELL);
 * JobRunner r = new JobRunner(JobOptions.builder().jobs(4).build(), t, System.out, System.err);
 * RunSummary s = r.run(ArgumentSource.of(TreeItems.files(Path.of("logs"), List.of(), System.err)));
 * System.exit(s.exitStatus());
 * }</pre>
 *
 * <p>A facade: each run's state and engine is {@code exec.internal.JobRun}.
 */
public final class JobRunner {
    /** With -k, finished jobs beyond this many waiting for their turn are spilled to a file. */
    static final int HELD_IN_MEMORY = JobRun.HELD_IN_MEMORY;

    private final JobOptions options;
    private final Template template;
    private final OutputStream out;
    private final OutputStream err;
    private JobListener listener = JobListener.NONE;
    private int heldInMemory = HELD_IN_MEMORY;
    /** The run in progress, for {@link #stop}. */
    private volatile JobRun running;
    private volatile boolean stopRequested;

    /**
     * Starts binding the native calls local jobs need (the FFM linker's code for {@code syscall}
     * and {@code posix_spawn}: ~50 ms on a cold JVM) on a background thread, so that a command-line
     * caller overlaps that cost with reading its options and building its runner instead of paying
     * it before the first job. Optional; safe to call any number of times.
     */
    public static void prepare() {
        Thread.ofPlatform().daemon().name("brisk-par-prepare").start(() -> {
            try {
                Spawn.bind();
                Libc.getpid();
            } catch (Throwable t) {
                // no stack trace from here: the first job's own call reports what is wrong
            }
        });
    }

    /**
     * A runner printing to {@code out} and {@code err} (FileOutputStreams get output by
     * {@code sendfile}); {@code out == null} captures output into the results instead.
     */
    public JobRunner(JobOptions options, Template template, OutputStream out, OutputStream err) {
        this.options = Objects.requireNonNull(options, "options");
        this.template = Objects.requireNonNull(template, "template");
        this.out = out;
        this.err = Objects.requireNonNull(err, "err");
    }

    /** Hears about every job of later runs. */
    public JobRunner listener(JobListener l) {
        this.listener = Objects.requireNonNull(l, "listener");
        return this;
    }

    /** With -k, how many finished jobs wait for their turn in memory before the rest spill (tests). */
    JobRunner heldInMemory(int jobs) {
        this.heldInMemory = jobs;
        return this;
    }

    /**
     * Runs a job for each tuple (or batch of tuples) of {@code source}, closes the source, and
     * returns what happened. Blocks until every job has ended.
     *
     * @throws ExecException for bad input or setup (exit status 255 in GNU parallel's terms)
     */
    public RunSummary run(ArgumentSource source) {
        try (source) {
            JobRun r = new JobRun(options, template, out, err, listener, heldInMemory, source);
            running = r;
            if (stopRequested) {
                r.stop();
            }
            return r.go();
        } catch (IOException e) {
            throw new ExecException(e.getMessage(), e);
        } catch (UncheckedIOException e) {
            throw new ExecException(e.getCause().getMessage(), e);
        } finally {
            running = null;
            template.close();
            if (options.tag() != null) {
                options.tag().close();
            }
        }
    }

    /**
     * Stops this runner from another thread, as a signal does: no job starts any more, the
     * running ones are killed, and {@link #run} returns once they have ended; a later run stops
     * as soon as it starts.
     */
    public void stop() {
        stopRequested = true;
        template.interrupt(); // an expression that never ends would hold a slot forever
        JobRun r = running;
        if (r != null) {
            r.stop();
        }
    }
}
