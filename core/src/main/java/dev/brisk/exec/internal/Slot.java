// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.JobArgs;
import dev.brisk.exec.RemoteHost;
import dev.brisk.exec.Template;
import dev.brisk.exec.TermStep;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Where one job slot runs its jobs, one at a time: a {@link SpawnSlot} (output captured whole,
 * for {@code --group}) or a {@link StreamSlot} (output streamed, for {@code --line-buffer} and
 * {@code -u}). Used by its slot's thread; {@link #terminate} may come from any thread.
 */
interface Slot extends AutoCloseable {
    /** A job to queue behind the one being run, so it starts the moment that one ends (or behind it, for several). */
    record Next(byte[] script, long seq, Template.Shape shape) {}

    /** How one attempt ended. {@code killed}: by a timeout or a halt, through the kill sequence. */
    record Attempt(int exit, int signal, boolean killed, long startMillis, long nanos) {}

    /**
     * Whether the slot delivers output while a job runs ({@code --line-buffer}, {@code -u}): the
     * runner then prints a job's {@code --verbose} line before it starts, and gives the slot the
     * job's {@code --tag} prefix ({@link #tag}).
     */
    default boolean streamsOutput() {
        return false;
    }

    /** The prefix of each output line of the next job ({@code --tag}), or null; for {@link #streamsOutput} slots. */
    default void tag(byte[] prefix) {}

    /**
     * Whether the slot enforces {@code --timeout} itself (the pool's own deadline), so a killed
     * attempt is a timed-out one even when the runner's timer did not fire.
     */
    default boolean enforcesTimeout() {
        return false;
    }

    /**
     * How many jobs {@link #run} may be given to queue behind the one it runs ({@link Next}); 0:
     * none. The runner queues only where it is worth it (every slot busy, short jobs).
     */
    default int queueDepth() {
        return 1;
    }

    /** Kills the running job and its worker at once (Ctrl-C); a slot on the pool is killed by closing the pool. */
    default void kill() {}

    /** The host the slot runs on, as the job log's Host column shows it: {@code :} for this machine. */
    default String host() {
        return RemoteHost.LOCAL;
    }

    /**
     * Waits until the slot can take a job (a remote slot: its host's channel is up); false when
     * it never will ({@code finished} says the run is over, or the host was removed).
     */
    default boolean awaitReady(java.util.function.BooleanSupplier finished) {
        return true;
    }

    /** Tells the slot the arguments of the job it runs next (a remote slot renders its files from them). */
    default void prepareJob(JobArgs args) {}

    /** Starts the slot's shell if its jobs need one (it comes up while the run goes on). */
    default void prepare() throws IOException {}

    /**
     * Runs {@code script} (given {@code seq} and this slot's number) and waits for it. When
     * {@code commands} is not null (the argument vectors of a simple command or of the elements
     * of a pipeline) the slot may run them directly instead, without a shell;
     * {@code shape} says what kind of command the script is. {@code stdin}: the job's standard
     * input ({@code --pipe}), or null for end of file at once. {@code ahead} (at most
     * {@link #queueDepth} jobs, often none) are the jobs this slot runs after this one, in order:
     * a slot may queue them now; the caller then runs them next, with the same scripts, and no
     * other job.
     */
    Attempt run(byte[] script, List<List<byte[]>> commands, long seq, Template.Shape shape, byte[] stdin, List<Next> ahead)
            throws IOException;

    /** Bytes of standard output of the last attempt. */
    long stdoutSize() throws IOException;

    /** Writes the last attempt's output (stdout to {@code out}, then stderr to {@code err}); no-op when streamed. */
    void writeOutput(OutputStream out, OutputStream err) throws IOException;

    /** Takes the last attempt's output away to print later: {stdout, stderr}. */
    HeldOutput[] holdOutput() throws IOException;

    /** Forgets the last attempt's output. */
    void discardOutput() throws IOException;

    /** Kills the running job, if any, by {@code steps}; blocks until done or the steps run out. */
    void terminate(List<TermStep> steps);

    /**
     * {@code --halt now}: as {@link #terminate}, and a job the slot starts from now on (one taken
     * before the run stopped its feed) is killed by {@code steps} too.
     */
    default void halt(List<TermStep> steps) {
        terminate(steps);
    }

    @Override
    void close();
}
