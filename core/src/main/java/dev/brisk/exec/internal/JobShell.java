// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.internal.posix.EnvText;
import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorInput;
import dev.brisk.internal.posix.DescriptorOutput;
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.Signals;
import dev.brisk.internal.posix.Spawn;
import dev.brisk.internal.posix.WaitStatus;
import dev.brisk.internal.shell.ShellQuote;
import dev.brisk.internal.shell.ProcessSweep;
import dev.brisk.internal.shell.ShellSpec;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One warm shell that runs jobs one at a time, at the lowest cost per job brisk has: the shell
 * reads its jobs as a script on standard input and reports each exit status on standard output
 * behind a mark (0x1E, a random token, {@code " x "}), while each job's stdout and stderr are
 * appended to a pair of anonymous files (see {@link AnonymousFile}) that Java reads from their
 * marks on. Two pairs let Java queue the next job while one runs, so the shell never waits for
 * Java between jobs. A pure builtin (echo, printf, test...) writes its stdout straight into the
 * status pipe, before its mark: one redirection (stderr) instead of two, which is six system
 * calls of the shell's fifteen per job.
 *
 * <p>The shell reads its own script on standard input ({@code sh -s}): first a prelude, then
 * one line per job. Each job is a call {@code __brisk_j SEQ SLOT 'TEXT'}: the text travels single-quoted, so
 * no job text (unbalanced quotes included) can desynchronise the shell; it is {@code eval}ed in
 * a subshell with stdin from {@code /dev/null}, so cd, exit, traps and variables end with the
 * job and a job that reads stdin gets end of file. The worker is its own session leader, so
 * {@link #signalJob} reaches every process the job started and nothing else. It is started by
 * brisk's own {@link Spawn} (one vfork and one exec of the shell, where the JDK's ProcessBuilder
 * and {@code setsid} took three execs: two thirds of a one-job {@code brisk par}'s time), with
 * the caller's limits and ignored signals, and reaped here. When the JVM dies, the shell reads
 * end of file after its current job and exits.
 *
 * <p>Not thread-safe: one job at a time; {@link #signalJob} and {@link #kill} may come from any
 * thread.
 */
public final class JobShell implements AutoCloseable {
    /**
     * The prelude; {@code @M@} stands for the shell's status mark (see {@link #await}). A pure
     * builtin's stdout is the status pipe itself, so it needs one redirection (stderr) where the
     * others need two.
     */
    private static final String SCRIPT = """
            exec 4>>"$1" 5>>"$2" 6>>"$3" 7>>"$4" || exit 97
            __brisk_j() { ( PARALLEL_SEQ=$1; PARALLEL_JOBSLOT=$2; @S@=$(($2-1)); export PARALLEL_SEQ PARALLEL_JOBSLOT @S@; \
            unset -f __brisk_j __brisk_b __brisk_p __brisk_i; eval "$5" ) </dev/null >&$3 2>&$4 4>&- 5>&- 6>&- 7>&-; printf '@M@%d\\n' $?; }
            __brisk_i() { ( PARALLEL_SEQ=$1; PARALLEL_JOBSLOT=$2; @S@=$(($2-1)); export PARALLEL_SEQ PARALLEL_JOBSLOT @S@; \
            unset -f __brisk_j __brisk_b __brisk_p __brisk_i; eval "$6" ) <"$5" >&$3 2>&$4 4>&- 5>&- 6>&- 7>&-; printf '@M@%d\\n' $?; }
            __brisk_p() { PARALLEL_SEQ=$1; PARALLEL_JOBSLOT=$2; @S@=$(($2-1)); export PARALLEL_SEQ PARALLEL_JOBSLOT @S@; \
            { eval "$5"; } </dev/null >&$3 2>&$4; printf '@M@%d\\n' $?; }
            __brisk_b() { { eval "$4"; } 2>&$3; printf '@M@%d\\n' $?; }
            """;

    /**
     * bash's {@code echo} (no backslash escapes unless {@code -e}; {@code -n}, {@code -e},
     * {@code -E} options) for other shells, whose echo expands backslashes: jobs then print
     * what they print under GNU parallel with bash.
     */
    public static final String BASH_ECHO = """
            echo() {
              __brisk_n= __brisk_e=
              while :; do
                case ${1-} in
                  -?*) __brisk_o=${1#-}
                       case $__brisk_o in *[!neE]*) break ;; esac
                       case $__brisk_o in *n*) __brisk_n=1 ;; esac
                       case $__brisk_o in *e*) __brisk_e=1 ;; esac
                       case $__brisk_o in *E*) __brisk_e= ;; esac
                       shift ;;
                  *) break ;;
                esac
              done
              if [ -n "$__brisk_e" ]; then
                if [ -n "$__brisk_n" ]; then printf '%b' "$*"; else printf '%b\\n' "$*"; fi
              elif [ -n "$__brisk_n" ]; then printf '%s' "$*"; else printf '%s\\n' "$*"; fi
              unset __brisk_n __brisk_e __brisk_o
            }
            """;

    /** A pure builtin's stdout beyond this goes on to its pair's stdout file. */
    static final int PIPED_IN_MEMORY = 1 << 20;

    private static final byte[] DEV_NULL = "/dev/null".getBytes(StandardCharsets.US_ASCII);

    private final int pid;
    /** The write end of the shell's input and the read end of its status pipe. */
    private final int controlFd;
    private final int statusFd;
    private final OutputStream control;
    /** Read a byte at a time from the process's own buffer: a bulk read would ask FIONREAD each time. */
    private final InputStream status;
    private final AnonymousFile[] out;
    private final AnonymousFile[] err;
    /** The bytes that end a job on the status pipe: 0x1E, a random token, " x "; the status follows. */
    private final byte[] mark;
    /** The output pairs of the sent jobs not yet awaited, oldest first. */
    private final ArrayDeque<Integer> pairs = new ArrayDeque<>(4);
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    /** The last awaited job's stdout, when it came on the status pipe (a pure builtin). */
    private byte[] piped = new byte[4096];
    private int pipedLength;
    /** Bytes of it written on to its pair's stdout file (beyond {@link #PIPED_IN_MEMORY}). */
    private long spilled;
    private volatile boolean dead;
    /** The shell's "ready" (the end of its prelude) is still to be read. */
    private volatile boolean readyPending;
    /** The shell's raw wait status once reaped, else {@link WaitStatus#RUNNING}. */
    private int reaped = WaitStatus.RUNNING;
    private boolean closed;

    private JobShell(int pid, int controlFd, int statusFd, AnonymousFile[] out, AnonymousFile[] err, String token) {
        this.pid = pid;
        this.controlFd = controlFd;
        this.statusFd = statusFd;
        this.control = new DescriptorOutput(controlFd, Caller.SELF);
        this.status = new BufferedInputStream(new DescriptorInput(statusFd, Caller.SELF), 8192);
        this.out = out;
        this.err = err;
        this.mark = ("\u001e" + token + " x ").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * A {@code trap '' ...} line for the signals the caller (brisk's own, or a warm server's
     * client) was started with ignored, so that the jobs keep them ignored, as the commands of
     * xargs and GNU find do; the shell's subshells and the programs they run inherit an ignored
     * signal. Not SIGKILL, SIGSTOP or SIGCHLD (the shell must see its jobs end), nor glibc's
     * internal 32 and 33.
     */
    static String ignoring(long ignored) {
        StringBuilder b = new StringBuilder();
        for (int sig = 1; sig <= 31; sig++) {
            if ((ignored & (1L << (sig - 1))) != 0 && sig != 9 && sig != 19 && sig != 17) {
                b.append(b.isEmpty() ? "trap '' " : " ").append(sig);
            }
        }
        return b.isEmpty() ? "" : b.append('\n').toString();
    }

    /**
     * Starts a worker running {@code spec}'s shell with {@code spec}'s environment, its output
     * files in {@code tmpdir}, and sends it its prelude. Returns without waiting for the shell to
     * come up: the first {@link #await} reads its "ready" first, and a shell that never came up
     * is a {@link WorkerDiedException} there.
     *
     * @throws IOException if the shell cannot be started
     */
    public static JobShell start(ShellSpec spec, Path tmpdir) throws IOException {
        return start(spec, tmpdir, "PARALLEL_JOBSLOT0");
    }

    /**
     * As {@link #start(ShellSpec, Path)}, each job's slot number less one in the variable
     * {@code slotVariable} (GNU parallel's {@code --process-slot-var}; a shell variable name).
     *
     * @throws IOException if the shell cannot be started
     */
    public static JobShell start(ShellSpec spec, Path tmpdir, String slotVariable) throws IOException {
        List<AnonymousFile> files = new ArrayList<>();
        int[] toShell = {-1, -1};
        int[] fromShell = {-1, -1};
        int pid = -1;
        JobShell w = null;
        try {
            for (int i = 0; i < 4; i++) {
                files.add(AnonymousFile.create(tmpdir));
            }
            byte[] exe = spec.executable().toString().getBytes(StandardCharsets.UTF_8);
            List<byte[]> argv = new ArrayList<>();
            argv.add(exe);
            if (spec.bash()) {
                argv.add("--noprofile".getBytes(StandardCharsets.US_ASCII));
                argv.add("--norc".getBytes(StandardCharsets.US_ASCII));
            }
            argv.add("-s".getBytes(StandardCharsets.US_ASCII));
            for (AnonymousFile f : files) {
                argv.add(f.procPath().getBytes(StandardCharsets.UTF_8));
            }
            List<byte[]> env = new ArrayList<>();
            for (Map.Entry<String, String> e : spec.environment().entrySet()) {
                env.add(EnvText.entry(e.getKey(), e.getValue()));
            }
            toShell = Libc.pipe(); // the child gets its ends as 0 and 1 by dup2
            fromShell = Libc.pipe();
            try (Spawn spawn = new Spawn()) {
                // the caller's ignored signals stay ignored (the prelude's trap says so to the
                // jobs too); glibc's 32 and 33 ignored, as in ProcessBuilder's children
                spawn.dup2(toShell[0], 0).dup2(fromShell[1], 1).open(2, DEV_NULL, Flags.O_WRONLY)
                        .closeFrom(3).newSession().defaultSignals(Spawn.CALLER_IGNORED | Signals.GLIBC_INTERNAL);
                pid = spawn.start(exe, argv, env);
            }
            if (pid <= 0) {
                throw new IOException("cannot run the worker shell " + spec.executable() + ": "
                        + Errno.message(pid < 0 ? -pid : Errno.ENOENT));
                // (nothing to reap: a spawn that fails reaps its child)
            }
            Libc.close(toShell[0]);
            Libc.close(fromShell[1]);
            String token = Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
            w = new JobShell(pid, toShell[1], fromShell[0], new AnonymousFile[] {files.get(0), files.get(2)},
                    new AnonymousFile[] {files.get(1), files.get(3)}, token);
            String prelude = ignoring(Caller.current().ignoredSignals())
                    + SCRIPT.replace("@M@", "\\036" + token + " x ").replace("@S@", slotVariable);
            try {
                w.control.write(((spec.bash() ? "" : BASH_ECHO) + prelude + "printf 'ready\\n'\n").getBytes(StandardCharsets.US_ASCII));
                w.control.flush();
            } catch (IOException gone) {
                // a shell that ended at once (PARALLEL_SHELL=/bin/false): its first job reports it
            }
            w.readyPending = true; // read before the first job's status: the shell starts while Java goes on
            return w;
        } catch (IOException | RuntimeException ex) {
            if (w == null) {
                for (AnonymousFile f : files) {
                    f.close();
                }
                for (int fd : new int[] {toShell[0], toShell[1], fromShell[0], fromShell[1]}) {
                    if (fd >= 0) {
                        Libc.close(fd);
                    }
                }
                if (pid > 0) {
                    Libc.signal(pid, Signals.SIGKILL);
                    WaitStatus.waitFor(pid);
                }
            } else {
                w.kill();
                w.close();
            }
            throw ex;
        }
    }

    /** The shell's pid, also its session and process group id. */
    public int pid() {
        return pid;
    }

    /** False once the shell has died or been killed. */
    public boolean alive() {
        return !dead && exited() == WaitStatus.RUNNING;
    }

    /**
     * Runs {@code script} with its output in pair 0 and waits for its exit status; see
     * {@link #send} and {@link #await}.
     *
     * @throws WorkerDiedException if the shell died under the job; {@code status()} says how
     */
    public int run(byte[] script, long seq, int slot, Launch launch, String stdinPath) throws WorkerDiedException {
        send(script, seq, slot, 0, launch, stdinPath);
        return await();
    }

    /** How the worker runs a job. */
    public enum Launch {
        /** In a subshell: nothing the job does to its shell stays. */
        SUBSHELL,
        /**
         * In the worker shell itself, standard input from {@code /dev/null}: for a pipeline,
         * whose parts run in processes of their own.
         */
        PIPELINE,
        /**
         * In the worker shell itself, standard input untouched: for a builtin that changes no
         * shell state and reads no input (echo, true, test); saves the redirection's syscalls.
         */
        BUILTIN
    }

    /**
     * Queues {@code script} without waiting: the shell runs queued jobs one after another, so a
     * second job sent while the first runs starts the moment the first ends. The job runs as
     * {@code launch} says (a job with {@code stdinPath} always in a subshell); its output goes to output pair
     * {@code pair} (0 or 1: {@link #stdout(int)}, {@link #stderr(int)}), which must not be in
     * use by another queued job. {@code stdinPath}: a file the job reads as its standard input
     * (a path without blanks or quotes), or null for end of file.
     *
     * @throws WorkerDiedException if the shell is gone
     */
    public void send(byte[] script, long seq, int slot, int pair, Launch launch, String stdinPath)
            throws WorkerDiedException {
        write(line(script, seq, slot, pair, launch, stdinPath), pair);
    }

    /**
     * Queues {@code script} behind the running job as {@link #send} does, if its line fits in
     * one page; returns false, sending nothing, if it does not. A pure builtin writes its stdout
     * into the status pipe, so while it writes more than that pipe holds, the shell reads no more
     * of its input: a queued line must then fit in the input pipe, which the kernel may make as
     * small as one page (past the user's pipe quota).
     *
     * @throws WorkerDiedException if the shell is gone
     */
    public boolean queue(byte[] script, long seq, int slot, int pair, Launch launch) throws WorkerDiedException {
        ByteArrayOutputStream cmd = line(script, seq, slot, pair, launch, null);
        if (cmd.size() > QUEUED_LINE_MAX) {
            return false;
        }
        write(cmd, pair);
        return true;
    }

    /** The longest line {@link #queue} sends: one page, the least a pipe holds. */
    static final int QUEUED_LINE_MAX = 4096;

    private ByteArrayOutputStream line(byte[] script, long seq, int slot, int pair, Launch launch, String stdinPath) {
        ByteArrayOutputStream cmd = new ByteArrayOutputStream(script.length + 64);
        String fds = launch == Launch.BUILTIN && stdinPath == null ? (pair == 0 ? " 5 " : " 7 ")
                : pair == 0 ? " 4 5 " : " 6 7 ";
        String head = stdinPath != null ? "__brisk_i " + seq + " " + slot + fds + stdinPath + " "
                : (switch (launch) {
                    case SUBSHELL -> "__brisk_j ";
                    case PIPELINE -> "__brisk_p ";
                    case BUILTIN -> "__brisk_b ";
                }) + seq + " " + slot + fds;
        cmd.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        cmd.writeBytes(ShellQuote.quote(script, (byte) '\n')); // one write: this runs once a job
        return cmd;
    }

    private void write(ByteArrayOutputStream cmd, int pair) throws WorkerDiedException {
        try {
            cmd.writeTo(control);
            control.flush();
            pairs.addLast(pair);
            return;
        } catch (IOException e) {
            // the shell is gone: report below
        }
        throw died();
    }

    /**
     * Waits for the exit status of the oldest queued job (0–255; 128+N when signal N ended it).
     *
     * @throws WorkerDiedException if the shell died first; {@code status()} says how
     */
    public int await() throws WorkerDiedException {
        pipedLength = 0;
        spilled = 0;
        if (piped.length > 64 << 10) {
            piped = new byte[4096]; // one large output does not keep its buffer for the worker's life
        }
        try {
            if (readyPending) {
                if (!"ready".equals(readLine())) {
                    throw new IOException("the worker shell did not start");
                }
                readyPending = false; // once read: till then the status pipe's bytes may be this line's (jobReported)
            }
            Integer pair = pairs.pollFirst();
            if (pair != null && readToMark(pair)) {
                int code = 0;
                int digits = 0;
                for (int b; (b = status.read()) != '\n'; ) {
                    if (b < '0' || b > '9' || ++digits > 3) {
                        throw new IOException("bad status");
                    }
                    code = code * 10 + (b - '0');
                }
                if (digits > 0) {
                    return code;
                }
            }
        } catch (IOException e) {
            // the shell is gone: report below
        }
        throw died();
    }

    /**
     * Whether the job being awaited has ended by itself: the shell has reported it on the status
     * pipe, which {@link #await} has not read yet. For {@code --halt now}, which leaves such a
     * job to be reported as it ended (only jobs that may be killed run here: nothing is queued
     * behind them, so what the pipe holds is the awaited job's). Safe from any thread.
     */
    public boolean jobReported() {
        if (readyPending) {
            return false;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(Flags.POLLFD_SIZE, 4);
            Libc.pollfd(p, 0, statusFd, Flags.POLLIN);
            return Libc.poll(p, 1, 0) > 0 && (Libc.revents(p, 0) & Flags.POLLIN) != 0;
        } catch (PosixException e) {
            return false;
        }
    }

    /**
     * Reads the status pipe up to the end of the next mark, keeping what comes before it (a pure
     * builtin's stdout; nothing for the others, whose stdout is a file) in {@link #piped}, or
     * beyond {@link #PIPED_IN_MEMORY} bytes, in {@code pair}'s stdout file from its mark on.
     * False at end of file. The mark's first byte occurs once in it, so a partial match that
     * fails can only restart at the byte that broke it.
     */
    private boolean readToMark(int pair) throws IOException {
        int matched = 0;
        for (int b; (b = status.read()) >= 0; ) {
            if (b == (mark[matched] & 0xff)) {
                if (++matched == mark.length) {
                    if (spilled > 0) {
                        spill(pair);
                    }
                    return true;
                }
                continue;
            }
            if (matched > 0) {
                keep(mark, 0, matched, pair);
                matched = b == mark[0] ? 1 : 0;
                if (matched == 1) {
                    continue;
                }
            }
            if (pipedLength == piped.length) {
                grow(pair);
            }
            piped[pipedLength++] = (byte) b;
        }
        return false;
    }

    private void keep(byte[] bytes, int from, int length, int pair) throws IOException {
        for (int i = from; i < from + length; i++) {
            if (pipedLength == piped.length) {
                grow(pair);
            }
            piped[pipedLength++] = bytes[i];
        }
    }

    private void grow(int pair) throws IOException {
        if (piped.length < PIPED_IN_MEMORY) {
            piped = Arrays.copyOf(piped, piped.length * 2);
        } else {
            spill(pair);
        }
    }

    /** Appends what is in memory to {@code pair}'s stdout file, from its mark on. */
    private void spill(int pair) throws IOException {
        AnonymousFile f = out[pair];
        ByteBuffer b = ByteBuffer.wrap(piped, 0, pipedLength);
        while (b.hasRemaining()) {
            f.channel().write(b, f.mark() + spilled + b.position());
        }
        spilled += pipedLength;
        pipedLength = 0;
    }

    /**
     * The stdout of the job last awaited, when it came on the status pipe and is all in memory:
     * the first {@link #pipedLength()} bytes; otherwise (a file, or a spilled pipe) it is in the
     * pair's stdout file from the file's mark on.
     */
    public byte[] piped() {
        return piped;
    }

    /** How many bytes of {@link #piped()} are the last job's stdout; 0 when it is in the file. */
    public int pipedLength() {
        return spilled > 0 ? 0 : pipedLength;
    }

    /** How many sent jobs have not been awaited. */
    public int outstanding() {
        return pairs.size();
    }

    /** The shell's exit status once it has died (128+N for signal N), waiting up to 2 s. */
    public int exitStatus() {
        return exitValue();
    }

    private WorkerDiedException died() {
        dead = true;
        int code = exitValue();
        kill();
        return new WorkerDiedException(code);
    }


    private String readLine() throws IOException {
        line.reset();
        for (int b; (b = status.read()) >= 0; ) {
            if (b == '\n') {
                return line.toString(StandardCharsets.US_ASCII);
            }
            line.write(b);
        }
        return null;
    }

    /** The standard output so far of the job on output pair {@code pair}. */
    public AnonymousFile stdout(int pair) {
        return out[pair];
    }

    /** The standard error so far of the job on output pair {@code pair}. */
    public AnonymousFile stderr(int pair) {
        return err[pair];
    }

    /**
     * Sends {@code signal} to every process of the running job (not to the shell), the shell's
     * own children first: a job's subshell that outlived the commands it waits for would report
     * their deaths ("Terminated") on the job's stderr, where GNU parallel's killed jobs show
     * nothing. The sweep's order (ascending pids) gives the same order except after pids wrap.
     */
    public void signalJob(int signal) {
        signalJob(signal, false);
    }

    /**
     * As {@link #signalJob(int)}; with {@code leavesFirst} (for {@code --halt now}, whose killed
     * jobs' output is not shown) the job's other processes come first, and its subshell (which
     * reaps them) only if it outlives them by {@value #LEAVES_MILLIS} ms: a process whose
     * parent died first is left to init, whose reaping may come after brisk has returned (GNU
     * parallel reaps its killed jobs before it exits).
     */
    public void signalJob(int signal, boolean leavesFirst) {
        List<Integer> first = children();
        if (leavesFirst && signal != Signals.SIGKILL) {
            signalLeaves(signal);
            first = children();
        }
        for (int child : first) {
            Libc.signal(child, signal); // false when it has just ended
        }
        if (signal == Signals.SIGKILL) {
            ProcessSweep.signal(pid, pid, signal); // repeats until the session is empty
            return;
        }
        for (int p : ProcessSweep.members(pid, pid)) {
            if (!first.contains(p)) {
                Libc.signal(p, signal);
            }
        }
    }

    /**
     * The first part of {@link #signalJob(int, boolean)}: {@code signal} to each of the job's
     * processes other than the shell's children (its subshell) as it comes, until the subshell,
     * left to reap them, has ended by itself (its command killed) or {@value #LEAVES_MILLIS} ms
     * have passed (a job that has not started its command yet starts it meanwhile).
     */
    private void signalLeaves(int signal) {
        long t0 = System.nanoTime();
        java.util.Set<Integer> hit = new java.util.HashSet<>();
        boolean begun = false;
        while (System.nanoTime() - t0 < LEAVES_MILLIS * 1_000_000L) {
            List<Integer> subshells = children();
            if (subshells.isEmpty() && begun) {
                return; // the job has ended, its processes reaped
            }
            begun |= !subshells.isEmpty();
            for (int p : ProcessSweep.members(pid, pid)) {
                if (!subshells.contains(p) && hit.add(p)) {
                    Libc.signal(p, signal);
                }
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** How long {@link #signalJob(int, boolean)} waits for a job's processes to end before its subshell gets the signal. */
    private static final long LEAVES_MILLIS = 200;

    /** The shell's children, from {@code /proc}; empty if the kernel does not list them. */
    List<Integer> children() {
        List<Integer> pids = new ArrayList<>(2);
        try {
            String list = Files.readString(Path.of("/proc/" + pid + "/task/" + pid + "/children"), StandardCharsets.US_ASCII);
            for (String p : list.trim().split(" ")) {
                if (!p.isEmpty()) {
                    pids.add(Integer.parseInt(p));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no such file (old kernel, shell gone): the sweep alone
        }
        return pids;
    }

    /** Kills the shell and everything in its session. Safe from any thread; idempotent. */
    public void kill() {
        dead = true;
        try {
            Libc.kill(-pid, Signals.SIGKILL);
        } catch (PosixException ignored) {
            // gone already
        }
        ProcessSweep.signal(pid, -1, Signals.SIGKILL);
    }

    /** The shell's raw wait status if it has ended (reaped now or before), else {@link WaitStatus#RUNNING}. */
    private synchronized int exited() {
        if (reaped == WaitStatus.RUNNING) {
            reaped = WaitStatus.poll(pid);
        }
        return reaped;
    }

    /**
     * Waits up to {@code millis} for the shell to end (by its pidfd: no polling loop); its raw
     * wait status, or {@link WaitStatus#RUNNING}.
     */
    private int awaitExit(int millis) {
        int raw = exited();
        if (raw != WaitStatus.RUNNING) {
            return raw;
        }
        int pidfd;
        try {
            pidfd = Spawn.pidfd(pid);
        } catch (PosixException e) {
            return exited(); // ended and reaped meanwhile, or no pidfd here
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(Flags.POLLFD_SIZE, 4);
            Libc.pollfd(p, 0, pidfd, Flags.POLLIN);
            Libc.poll(p, 1, millis);
        } catch (PosixException e) {
            // EINTR: look once more below
        } finally {
            Libc.close(pidfd);
        }
        return exited();
    }

    /** The shell's exit status (128+N for signal N), waiting up to 2 s; 255 if it is still running. */
    private int exitValue() {
        int raw = awaitExit(2000);
        return raw == WaitStatus.RUNNING || raw == WaitStatus.NO_CHILD ? 255 : WaitStatus.shellStatus(raw);
    }

    /**
     * As {@link #close}, but returns once the shell has its end of input: the wait for its exit
     * (it is between jobs: at once), the reaping and the closing of its files go on on a
     * background thread. For the end of a run, whose jobs have all been awaited.
     */
    public void closeLater() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        Libc.close(controlFd);
        if (exited() != WaitStatus.RUNNING) {
            finish();
        } else {
            Reaper.EXECUTOR.execute(this::finish);
        }
    }

    /** The one thread that finishes {@link #closeLater}'s shells. */
    private static final class Reaper {
        static final java.util.concurrent.ExecutorService EXECUTOR = new java.util.concurrent.ThreadPoolExecutor(0, 1,
                30, java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(),
                Thread.ofPlatform().daemon().name("brisk-par-reaper").factory());
    }

    /** Ends the shell (end of input; killed if it lingers), reaps it and closes the output files. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        Libc.close(controlFd);
        finish();
    }

    /** After the shell's end of input: waits for its exit (killed if it lingers), reaps it, closes its files. */
    private void finish() {
        if (awaitExit(200) == WaitStatus.RUNNING) {
            kill();
            if (awaitExit(2000) == WaitStatus.RUNNING) {
                WaitStatus.waitFor(pid);
            }
        }
        Libc.close(statusFd);
        for (int i = 0; i < 2; i++) {
            out[i].close();
            err[i].close();
        }
    }

    /** The worker shell died while it ran a job. */
    public static final class WorkerDiedException extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        WorkerDiedException(int status) {
            super("the worker shell died (status " + status + ")");
            this.status = status;
        }

        /** The shell's exit status, 128+N when signal N killed it. */
        public int status() {
            return status;
        }
    }
}
