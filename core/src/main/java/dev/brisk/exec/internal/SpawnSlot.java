// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.Template;
import dev.brisk.exec.TermStep;
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.Syscall;
import dev.brisk.internal.posix.Signals;
import dev.brisk.internal.posix.WaitStatus;
import dev.brisk.internal.shell.ProcessSweep;
import dev.brisk.internal.shell.ShellSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A slot whose jobs' output is captured whole in anonymous files: simple external commands and
 * pipelines of them are spawned directly ({@link Spawner}, when enabled), everything else runs
 * on a {@link JobShell}, replaced when it dies. See {@link Slot}.
 */
final class SpawnSlot implements Slot {
    private final ShellSpec spec;
    private final Path tmpdir;
    private final int number;
    private final AtomicLong budget;
    private final Spawner spawner;
    private final Spawner oneShell;
    /** The variable a job gets its slot number less one in ({@code --process-slot-var}). */
    private final String slotVariable;
    private volatile JobShell worker;
    private AnonymousFile directOut;
    private AnonymousFile directErr;
    private int directOutFd = -1;
    private int directErrFd = -1;
    private boolean lastDirect;
    /** The last job's output, read once per job ({@code captured} false: not yet read). */
    private final CapturedStream capturedOut = new CapturedStream();
    private final CapturedStream capturedErr = new CapturedStream();
    private boolean captured;
    /** The output pair of the job last run on the worker. */
    private int pair;
    /** The job queued behind the running one, or -1. */
    private long queuedSeq = -1;
    private int queuedPair;
    private volatile int childPid;
    private volatile boolean running;
    private volatile boolean killed;
    /** Whether the running direct job is a pipeline (several processes): written before {@code running}. */
    private boolean pipelined;

    /**
     * {@code spawner}: starts a simple job's command itself (no shell), or null. {@code
     * oneShell}: for a run of one job whose text needs a shell, the spawner that starts that
     * shell on the job's text ({@code sh -c}, as GNU parallel runs its jobs), instead of a warm
     * shell started, fed and ended for a single job; null otherwise.
     */
    SpawnSlot(ShellSpec spec, Path tmpdir, int number, AtomicLong budget, Spawner spawner, Spawner oneShell,
              String slotVariable) {
        this.slotVariable = slotVariable;
        this.spec = spec;
        this.tmpdir = tmpdir;
        this.number = number;
        this.budget = budget;
        this.spawner = spawner;
        this.oneShell = oneShell;
    }

    /** None where this slot starts the job's command itself ({@code spawner}): it has no worker to queue on. */
    @Override
    public int queueDepth() {
        return spawner != null ? 0 : 1;
    }

    @Override
    public void prepare() throws IOException {
        if (spawner != null || oneShell != null) {
            return;
        }
        ensureWorker();
    }

    private void ensureWorker() throws IOException {
        JobShell w = worker;
        if (w == null || !w.alive()) {
            if (w != null) {
                w.close();
            }
            queuedSeq = -1;
            worker = JobShell.start(spec, tmpdir, slotVariable);
            if (nice != null) {
                // its jobs are its children: they inherit it; as GNU parallel's setpriority, a
                // niceness below this process's own is refused (EACCES) and the jobs keep that
                Syscall.call(Syscall.SETPRIORITY, 0 /* PRIO_PROCESS */, worker.pid(), nice, 0);
            }
        }
    }

    /** The niceness of this slot's warm shell and so of its jobs ({@code --nice}), or null to leave it. */
    void nice(Integer n) {
        nice = n;
    }

    private Integer nice;

    @Override
    public Attempt run(byte[] script, List<List<byte[]>> commands, long seq, Template.Shape shape, byte[] stdin,
                       List<Next> ahead) throws IOException {
        begun++;
        Next next = ahead.isEmpty() ? null : ahead.getFirst();
        captured = false;
        // --pipe's jobs (stdin) start by themselves too, a simple command or else its shell:
        // no warm shell and its four output files for them, which a low `ulimit -n` cannot spare
        if (spawner != null && commands != null && runnable(commands) && (stdin == null || commands.size() == 1)) {
            return direct(spawner, commands, seq, stdin);
        }
        if (oneShell != null) {
            byte[] text = spec.bash() ? script : Bytes.concat(JobShell.BASH_ECHO.getBytes(StandardCharsets.US_ASCII), script);
            List<byte[]> argv = List.of(spec.executable().toString().getBytes(StandardCharsets.UTF_8), DASH_C, text);
            return direct(oneShell, List.of(argv), seq, stdin);
        }
        if (queuedSeq >= 0) {
            JobShell q = worker;
            if (queuedSeq == seq && (q == null || !q.alive())) {
                // the worker died after the previous job ended, so while this queued job ran:
                // report it as the job that ended its shell rather than run it again
                queuedSeq = -1;
                worker = null;
                long now = System.currentTimeMillis();
                int status = q == null ? 137 : q.exitStatus();
                if (q != null) {
                    q.close();
                }
                lastDirect = false;
                return new Attempt(status > 128 ? 0 : status, status > 128 ? status - 128 : 0, false, now, 0);
            }
            if (queuedSeq != seq) {
                queuedSeq = -1;
                worker = null;
                if (q != null) {
                    q.kill();
                    q.close();
                }
            }
        }
        ensureWorker();
        lastDirect = false;
        JobShell w = worker;
        long startMillis = System.currentTimeMillis();
        long start = System.nanoTime();
        killed = false;
        running = true;
        int exit;
        int signal = 0;
        boolean simple = shape == Template.Shape.EXTERNAL;
        StdinPipe feed = null;
        try {
            if (queuedSeq == seq) {
                pair = queuedPair;
                queuedSeq = -1;
            } else {
                pair = 0;
                feed = input(stdin);
                w.send(shellText(script, shape), seq, number, pair, launch(shape), feed == null ? null : feed.path());
            }
            if (next != null && stdin == null
                    && w.queue(shellText(next.script(), next.shape()), next.seq(), number, 1 - pair, launch(next.shape()))) {
                queuedPair = 1 - pair;
                queuedSeq = next.seq();
            }
            catchUp(); // once the job is in the shell, where a signal reaches it
            exit = w.await();
            if (simple && exit > 128 && exit < 128 + 65) {
                signal = exit - 128;
                exit = 0;
            }
        } catch (JobShell.WorkerDiedException e) {
            worker = null;
            queuedSeq = -1;
            w.close();
            exit = e.status() > 128 ? 0 : e.status();
            signal = e.status() > 128 ? e.status() - 128 : 0;
        } finally {
            running = false;
            if (feed != null) {
                feed.close();
            }
        }
        if (killed) {
            endLeftovers(w.pid());
        }
        return new Attempt(exit, signal, killed, startMillis, System.nanoTime() - start);
    }

    /**
     * After a job that brisk killed (its timeout, {@code --halt now}): what it left running in its
     * shell's session (a child that ignored the TERM that ended the job's shell) gets the rest of
     * the termination sequence, as GNU parallel's killed jobs' processes do, before the slot runs
     * anything else in that session. Nothing is queued behind a job that may be killed.
     */
    private void endLeftovers(int session) {
        List<TermStep> steps = termSteps;
        if (steps == null) {
            return;
        }
        for (TermStep s : steps) {
            if (ProcessSweep.signal(session, session, s.signal()) == 0) {
                return; // nothing left
            }
            long until = System.nanoTime() + s.millis() * 1_000_000L;
            while (System.nanoTime() < until && !ProcessSweep.members(session, session).isEmpty()) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** How the worker runs a job of this shape: only shell code needs a subshell to keep its state from the worker. */
    private static JobShell.Launch launch(Template.Shape shape) {
        return switch (shape) {
            case BUILTIN -> JobShell.Launch.BUILTIN;
            case PIPELINE -> JobShell.Launch.PIPELINE;
            case SHELL, EXTERNAL -> JobShell.Launch.SUBSHELL;
        };
    }

    /** The text the worker runs: a simple external command is exec'd in place of its subshell. */
    private static byte[] shellText(byte[] script, Template.Shape shape) {
        if (shape != Template.Shape.EXTERNAL) {
            return script;
        }
        byte[] text = new byte[script.length + 5];
        System.arraycopy("exec ".getBytes(StandardCharsets.US_ASCII), 0, text, 0, 5);
        System.arraycopy(script, 0, text, 5, script.length);
        return text;
    }

    /** A pipe the job reads {@code stdin} from ({@code --pipe}); null without. */
    private static StdinPipe input(byte[] stdin) throws IOException {
        return stdin == null ? null : new StdinPipe(stdin);
    }

    /** Whether every command has a program name (an empty {@code {}} as a whole command has none). */
    private static boolean runnable(List<List<byte[]>> commands) {
        for (List<byte[]> c : commands) {
            if (c.isEmpty()) {
                return false;
            }
        }
        return !commands.isEmpty();
    }

    private static final byte[] DASH_C = {'-', 'c'};


    private Attempt direct(Spawner spawner, List<List<byte[]>> commands, long seq, byte[] stdin) throws IOException {
        if (stdin == null) {
            return direct(spawner, commands, seq, (StdinPipe) null);
        }
        try (StdinPipe feed = new StdinPipe(stdin)) {
            return direct(spawner, commands, seq, feed);
        }
    }

    private Attempt direct(Spawner spawner, List<List<byte[]>> commands, long seq, StdinPipe feed) throws IOException {
        if (directOut == null) {
            directOut = AnonymousFile.create(tmpdir);
            directErr = AnonymousFile.create(tmpdir);
            int flags = Flags.O_WRONLY | Flags.O_APPEND | Flags.O_CLOEXEC;
            directOutFd = Libc.openOrErrno(directOut.procPath().getBytes(StandardCharsets.US_ASCII), flags, 0);
            directErrFd = Libc.openOrErrno(directErr.procPath().getBytes(StandardCharsets.US_ASCII), flags, 0);
            if (directOutFd < 0 || directErrFd < 0) {
                throw new IOException("cannot open job output files: " + Libc.strerror(-Math.min(directOutFd, directErrFd)));
            }
        }
        lastDirect = true;
        long startMillis = System.currentTimeMillis();
        long start = System.nanoTime();
        killed = false;
        pipelined = commands.size() > 1; // before running is set, which publishes it
        if (pipelined) {
            return pipeline(spawner, commands, seq, startMillis, start);
        }
        List<byte[]> argv = commands.getFirst();
        int pid = spawner.spawn(argv, feed == null ? -1 : feed.readEnd(), directOutFd, directErrFd, seq, number);
        if (feed != null) {
            feed.release();
        }
        if (pid < 0) {
            int status = notStarted(argv, pid);
            return new Attempt(status, 0, false, startMillis, System.nanoTime() - start);
        }
        childPid = pid;
        if (dying) {
            Libc.signal(-pid, Signals.SIGKILL); // killed between its start and childPid's write
        }
        running = true;
        catchUp();
        int status;
        try {
            status = WaitStatus.waitFor(pid);
        } finally {
            running = false;
            childPid = 0;
        }
        int exit = WaitStatus.signal(status) != 0 ? 0 : WaitStatus.shellStatus(status);
        return new Attempt(exit, WaitStatus.signal(status), killed, startMillis, System.nanoTime() - start);
    }

    /**
     * Runs a pipeline's commands joined by pipes, as a shell would: the job's status is the last
     * command's (POSIX, no pipefail), 128+N when signal N ended it, as a shell reports it.
     */
    private Attempt pipeline(Spawner spawner, List<List<byte[]>> commands, long seq, long startMillis, long start) throws IOException {
        int[] pids = spawner.spawnPipeline(commands, directOutFd, directErrFd, seq, number);
        int group = 0;
        for (int pid : pids) {
            if (pid > 0) {
                group = pid;
                break;
            }
        }
        childPid = group;
        if (dying && group > 0) {
            Libc.signal(-group, Signals.SIGKILL); // killed between its start and childPid's write
        }
        running = true;
        catchUp();
        int status = 0;
        try {
            for (int pid : pids) {
                status = pid > 0 ? WaitStatus.shellStatus(WaitStatus.waitFor(pid)) : 0;
            }
        } finally {
            running = false;
            childPid = 0;
        }
        // reported once the others have ended: they append to the same stderr meanwhile
        for (int i = 0; i < pids.length; i++) {
            if (pids[i] <= 0) {
                int s = notStarted(commands.get(i), pids[i]);
                status = i == pids.length - 1 ? s : status;
            }
        }
        return new Attempt(status, 0, killed, startMillis, System.nanoTime() - start);
    }

    /** Reports a command that could not start on the job's stderr; returns its status as a shell's (127, 126). */
    private int notStarted(List<byte[]> argv, int negativeErrno) throws IOException {
        String name = new String(argv.getFirst(), StandardCharsets.UTF_8);
        boolean missing = -negativeErrno == Errno.ENOENT;
        String msg = "brisk par: " + name + ": " + (missing ? "command not found" : Libc.strerror(-negativeErrno)) + "\n";
        directErr.channel().write(ByteBuffer.wrap(msg.getBytes(StandardCharsets.UTF_8)), directErr.channel().size());
        return missing ? 127 : 126;
    }

    /** Reads the last job's output once: each later use reads no file again. */
    private void capture() throws IOException {
        if (captured) {
            return;
        }
        captured = true;
        if (lastDirect) {
            capturedOut.readFrom(directOut);
            capturedErr.readFrom(directErr);
            return;
        }
        JobShell w = worker;
        if (w == null) {
            capturedOut.clear();
            capturedErr.clear();
            return;
        }
        if (w.pipedLength() > 0) {
            capturedOut.readFrom(w.piped(), w.pipedLength());
        } else {
            capturedOut.readFrom(w.stdout(pair));
        }
        capturedErr.readFrom(w.stderr(pair));
    }

    @Override
    public long stdoutSize() throws IOException {
        capture();
        return capturedOut.size();
    }

    @Override
    public void writeOutput(OutputStream o, OutputStream e) throws IOException {
        capture();
        capturedOut.writeTo(o);
        o.flush();
        capturedErr.writeTo(e);
        e.flush();
    }

    @Override
    public HeldOutput[] holdOutput() throws IOException {
        capture();
        HeldOutput o = capturedOut.hold(budget, tmpdir);
        try {
            return new HeldOutput[] {o, capturedErr.hold(budget, tmpdir)};
        } catch (IOException e) {
            o.close();
            throw e;
        }
    }

    @Override
    public void discardOutput() throws IOException {
        capture();
        capturedOut.consume();
        capturedErr.consume();
    }

    /** The termination sequence of the last {@link #terminate}, for what the job left behind. */
    private volatile List<TermStep> termSteps;
    /** Jobs this slot has begun to run (written by the slot's thread only). */
    private volatile long begun;
    /**
     * A {@link #terminate} that came while the job {@code begun} counts was on its way to running
     * ({@code --halt now} right after it was taken), with its steps: the job gets them once it
     * runs. -1: none.
     */
    private volatile long missed = -1;
    private volatile List<TermStep> missedSteps;

    /** Set by {@link #halt}: every job of this slot is killed by these steps, its processes leaves first. */
    private volatile List<TermStep> halting;

    @Override
    public void halt(List<TermStep> steps) {
        halting = steps; // before terminate reads running: a job that starts after that read sees it in catchUp
        if (running && endedByItself()) {
            return; // GNU parallel reaps the jobs that have ended before it kills the others: reported as it ended
        }
        terminate(steps);
    }

    /**
     * Whether the running job has ended by itself, its end not yet taken: a command started
     * directly has exited (a pipeline's are not looked at), or the worker shell has reported it.
     */
    private boolean endedByItself() {
        int pid = childPid;
        if (pid > 0) {
            return !pipelined && ProcessSweep.ended(pid);
        }
        JobShell w = worker;
        return pid == 0 && w != null && !lastDirect && w.jobReported();
    }

    @Override
    public void terminate(List<TermStep> steps) {
        long job = begun;
        if (!running) {
            missedSteps = steps;
            missed = job; // a job that ended before it matches no later one
            if (!running) {
                return;
            }
        }
        if (begun != job) {
            return; // that job ended, and another began
        }
        termSteps = steps;
        killed = true;
        // the sequence is this job's: once it has ended, a next job the slot starts meanwhile
        // (its thread may run again before this one wakes) gets none of its signals
        for (TermStep s : steps) {
            if (!running || begun != job) {
                return;
            }
            signalJob(s.signal());
            long until = System.nanoTime() + s.millis() * 1_000_000L;
            while (running && begun == job && System.nanoTime() < until) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * Just after {@code running} is set: a terminate that missed this job (it found it not yet
     * running) is carried out now, on a thread of its own as the timer's would be.
     */
    private void catchUp() {
        List<TermStep> halted = halting;
        if (halted != null) {
            missed = -1;
            Thread.ofVirtual().start(() -> terminate(halted));
            return;
        }
        List<TermStep> steps = missedSteps;
        if (missed == begun && steps != null) {
            missed = -1;
            Thread.ofVirtual().start(() -> terminate(steps));
        }
    }

    /** Set by {@link #kill}: a job started after it (its pid not yet seen there) is killed at once. */
    private volatile boolean dying;

    private void signalJob(int signal) {
        int pid = childPid;
        if (pid > 0) {
            Libc.signal(-pid, signal); // false when it has just ended
            return;
        }
        JobShell w = worker;
        if (w != null) {
            w.signalJob(signal, halting != null);
        }
    }

    /** Kills the worker, a direct child and their jobs at once: for a JVM on its way out. */
    @Override
    public void kill() {
        dying = true;
        int pid = childPid;
        if (pid > 0) {
            Libc.signal(-pid, Signals.SIGKILL);
        }
        JobShell w = worker;
        if (w != null) {
            w.kill();
        }
    }

    @Override
    public void close() {
        JobShell w = worker;
        worker = null;
        if (w != null) {
            w.closeLater(); // the run's answer need not wait for the shell's exit
        }
        if (directOut != null) {
            Libc.close(directOutFd);
            Libc.close(directErrFd);
            directOut.close();
            directErr.close();
            directOut = null;
        }
    }
}
