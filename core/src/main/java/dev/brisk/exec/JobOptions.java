// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link JobRunner} runs jobs: GNU parallel's options as a record. Validated on
 * construction: an {@link IllegalArgumentException} whose message starts with the bad
 * component's name and names the bad value ({@code "retries must not be negative, got -1"}). Immutable; build one with {@link #builder()}.
 *
 * @param jobs how many jobs run at once, at least 1 ({@code -j})
 * @param shell the shell that runs jobs: a name on PATH or a path ({@code --shell})
 * @param batching how several argument tuples go into one job ({@code -m}, {@code -X})
 * @param maxArgs tuples per job ({@code -n}); 0: one, or as many as fit with {@code -m}/{@code -X}
 * @param maxChars the longest command {@code -m}/{@code -X} build, in bytes ({@code -s})
 * @param keepOrder print output in input order ({@code -k})
 * @param output grouping of output ({@code --group}, {@code --line-buffer}, {@code -u})
 * @param tag the template of a per-line tag ({@code --tag}, {@code --tagstring}), or null
 * @param halt when to stop early ({@code --halt})
 * @param retries attempts per failing job, 0 or 1 meaning one ({@code --retries})
 * @param timeout a job's time limit, or null ({@code --timeout SECS})
 * @param timeoutPercent a limit as a percentage of the median runtime so far, or 0 ({@code --timeout P%})
 * @param termSeq how a timed-out or halted job is killed ({@code --term-seq})
 * @param joblog where to log finished jobs, or null ({@code --joblog}; {@code -} for the output;
 *        {@code +FILE} appends to FILE without a header, as GNU parallel's {@code --joblog +FILE})
 * @param resume what to do with an existing job log
 * @param dryRun print the commands instead of running them ({@code --dry-run})
 * @param shellQuote with {@code dryRun}: how many times each printed command is shell-quoted
 *     ({@code --shellquote}, repeatable)
 * @param verbose print each command before its output ({@code -v})
 * @param trace print each command on stderr as it starts ({@code -t}, {@code --verbose})
 * @param noArgs each job reads one tuple and inserts none of its values ({@code -n 0}, {@code -N 0})
 * @param spread with {@code -m}/{@code -X}: the job whose batch takes the rest of the input
 *     spreads it evenly over the job slots, it and the jobs after it, as GNU parallel does
 * @param delay the least time between two job starts, or zero ({@code --delay})
 * @param results a directory to save each job's output in instead of printing it, or null ({@code --results})
 * @param tmpdir where output beyond memory goes ({@code --tmpdir})
 * @param maxLoad start no job while the 1-minute load average is at or above this, or 0 ({@code --load})
 * @param memFree start no job while less memory than this many bytes is available, or 0 ({@code --memfree})
 * @param pipe feed each job one item of the input on its stdin (a pipe) instead of as arguments
 *     ({@code --pipe}): {@link PipeRecords#blocks} cuts a stream into such items
 * @param directExec run a template that is one simple external command without a shell
 *     ({@code posix_spawn}); off when the caller chose a shell
 * @param remote how jobs run on other machines ({@code -S}), or null for this one only
 * @param filters GNU parallel's {@code --filter}s: templates rendered with unquoted values
 *     ({@link Template.Quoting#RAW}), each then evaluated as Perl ({@code use strict}, one
 *     {@code perl} for the run); a job runs only if all are true, else it is skipped as a
 *     {@link Template.Skipped} job is (exit value -2, counted as failed)
 * @param slotVariable the variable each local job gets its slot number less one in
 *     ({@code --process-slot-var}; GNU parallel's {@code PARALLEL_JOBSLOT0} by default)
 * @param controls colour, niceness, start gates, questions and per-job files ({@link JobControls#NONE}: none)
 */
public record JobOptions(int jobs, String shell, Template.Batching batching, int maxArgs, int maxChars,
                         boolean keepOrder, OutputMode output, Template tag, Halt halt, int retries,
                         Duration timeout, double timeoutPercent, List<TermStep> termSeq, Path joblog,
                         ResumeMode resume, boolean dryRun, int shellQuote, boolean verbose, boolean trace, boolean noArgs, boolean spread, Duration delay, Path results,
                         Path tmpdir, double maxLoad, long memFree, boolean pipe,
                         boolean directExec, RemoteOptions remote, List<Template> filters, String slotVariable, JobControls controls) {
    /** The bytes a single argument may have on Linux (MAX_ARG_STRLEN, with its NUL): a job's command is one. */
    public static final int ARGUMENT_LIMIT = 131072;

    /**
     * The longest command as GNU parallel measures it (its {@code --max-line-length-allowed}):
     * its search for the longest {@code sh -c 'echo ccc... && true'} that runs, whose string with
     * its NUL must fit in {@link #ARGUMENT_LIMIT}, ending within 1% of it (130329).
     */
    public static final int LONGEST_COMMAND = gnuSearch(ARGUMENT_LIMIT - " && true".length() - 1);

    /**
     * The default and largest limit of a command built by -m/-X ({@code -s}): GNU parallel's usable
     * length, {@link #LONGEST_COMMAND} less 3000 bytes for its wrapping, halved for its hex quoting (63664).
     */
    public static final int DEFAULT_MAX_CHARS = (LONGEST_COMMAND - 3000) / 2;

    public JobOptions {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be at least 1, got " + jobs);
        }
        Objects.requireNonNull(shell, "shell");
        Objects.requireNonNull(batching, "batching");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(halt, "halt");
        Objects.requireNonNull(termSeq, "termSeq");
        Objects.requireNonNull(resume, "resume");
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(tmpdir, "tmpdir");
        Objects.requireNonNull(controls, "controls");
        termSeq = List.copyOf(termSeq);
        filters = List.copyOf(Objects.requireNonNull(filters, "filters"));
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, got " + delay);
        }
        if (maxArgs < 0) {
            throw new IllegalArgumentException("maxArgs must not be negative, got " + maxArgs);
        }
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be at least 1, got " + maxChars);
        }
        if (shellQuote < 0) {
            throw new IllegalArgumentException("shellQuote must not be negative, got " + shellQuote);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries must not be negative, got " + retries);
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        if (timeoutPercent < 0) {
            throw new IllegalArgumentException("timeoutPercent must not be negative, got " + timeoutPercent);
        }
        if (maxLoad < 0) {
            throw new IllegalArgumentException("maxLoad must not be negative, got " + maxLoad);
        }
        if (memFree < 0) {
            throw new IllegalArgumentException("memFree must not be negative, got " + memFree);
        }
        if (termSeq.isEmpty()) {
            throw new IllegalArgumentException("termSeq needs at least one step");
        }
        Objects.requireNonNull(slotVariable, "slotVariable");
        if (!slotVariable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("slotVariable: not a variable name: '" + slotVariable + "'");
        }
        if (resume != ResumeMode.NONE && joblog == null) {
            throw new IllegalArgumentException("resume " + resume + " needs a joblog");
        }
    }

    /**
     * GNU parallel's find_max against a command length that runs up to {@code longest}: from 324
     * up by factors of 16 until one fails, then halving until the bounds are 1 apart or within 1%.
     */
    private static int gnuSearch(int longest) {
        long len = 324;
        long lower;
        do {
            lower = len;
            len *= 16;
        } while (len <= longest);
        long upper = len;
        while (lower != upper && lower != upper - 1 && (double) lower / upper <= 0.99) {
            long middle = (upper - lower) / 2 + lower;
            if (middle <= longest) {
                lower = middle;
            } else {
                upper = middle;
            }
        }
        return (int) lower;
    }

    /** A builder with GNU parallel's defaults (one job per core, dash as the shell when present). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.jobs = jobs;
        b.shell = shell;
        b.batching = batching;
        b.maxArgs = maxArgs;
        b.maxChars = maxChars;
        b.keepOrder = keepOrder;
        b.output = output;
        b.tag = tag;
        b.halt = halt;
        b.retries = retries;
        b.timeout = timeout;
        b.timeoutPercent = timeoutPercent;
        b.termSeq = termSeq;
        b.joblog = joblog;
        b.resume = resume;
        b.dryRun = dryRun;
        b.shellQuote = shellQuote;
        b.verbose = verbose;
        b.trace = trace;
        b.spread = spread;
        b.noArgs = noArgs;
        b.delay = delay;
        b.results = results;
        b.tmpdir = tmpdir;
        b.directExec = directExec;
        b.remote = remote;
        b.maxLoad = maxLoad;
        b.memFree = memFree;
        b.pipe = pipe;
        b.filters = filters;
        b.slotVariable = slotVariable;
        b.controls = controls;
        return b;
    }

    /** Builds {@link JobOptions}; not thread-safe. Setters only store; {@link #build()} validates. */
    public static final class Builder {
        private int jobs = Runtime.getRuntime().availableProcessors();
        private String shell = defaultShell();
        private Template.Batching batching = Template.Batching.NONE;
        private int maxArgs;
        private int maxChars = DEFAULT_MAX_CHARS;
        private boolean keepOrder;
        private OutputMode output = OutputMode.GROUP;
        private Template tag;
        private List<Template> filters = List.of();
        private Halt halt = Halt.NEVER;
        private int retries;
        private Duration timeout;
        private double timeoutPercent;
        private List<TermStep> termSeq = TermStep.DEFAULT;
        private Path joblog;
        private ResumeMode resume = ResumeMode.NONE;
        private boolean dryRun;
        private int shellQuote;
        private boolean verbose;
        private boolean trace;
        private boolean spread;
        private boolean noArgs;
        private Duration delay = Duration.ZERO;
        private Path results;
        private Path tmpdir = Path.of(System.getProperty("java.io.tmpdir"));
        private boolean directExec = true;
        private RemoteOptions remote;
        private double maxLoad;
        private long memFree;
        private boolean pipe;
        private String slotVariable = "PARALLEL_JOBSLOT0";
        private JobControls controls = JobControls.NONE;

        private Builder() {}

        private static String defaultShell() {
            for (String p : new String[] {"/usr/bin/dash", "/bin/dash"}) {
                if (java.nio.file.Files.isExecutable(Path.of(p))) {
                    return "dash";
                }
            }
            return "sh";
        }

        public Builder jobs(int n) { jobs = n; return this; }
        public Builder shell(String s) { shell = s; return this; }
        public Builder batching(Template.Batching b) { batching = b; return this; }
        public Builder maxArgs(int n) { maxArgs = n; return this; }
        public Builder maxChars(int n) { maxChars = n; return this; }
        public Builder keepOrder(boolean k) { keepOrder = k; return this; }
        public Builder output(OutputMode m) { output = m; return this; }
        public Builder tag(Template t) { tag = t; return this; }
        public Builder halt(Halt h) { halt = h; return this; }
        public Builder retries(int n) { retries = n; return this; }
        public Builder timeout(Duration d) { timeout = d; return this; }
        public Builder timeoutPercent(double p) { timeoutPercent = p; return this; }
        public Builder termSeq(List<TermStep> s) { termSeq = s; return this; }
        public Builder joblog(Path p) { joblog = p; return this; }
        public Builder resume(ResumeMode r) { resume = r; return this; }
        public Builder dryRun(boolean d) { dryRun = d; return this; }
        public Builder shellQuote(int times) { shellQuote = times; return this; }
        public Builder verbose(boolean v) { verbose = v; return this; }
        public Builder trace(boolean t) { trace = t; return this; }
        public Builder spread(boolean s) { spread = s; return this; }
        public Builder noArgs(boolean n) { noArgs = n; return this; }
        public Builder delay(Duration d) { delay = d; return this; }
        public Builder results(Path p) { results = p; return this; }
        public Builder tmpdir(Path p) { tmpdir = p; return this; }
        public Builder directExec(boolean d) { directExec = d; return this; }
        public Builder slotVariable(String name) { slotVariable = name; return this; }
        public Builder remote(RemoteOptions r) { remote = r; return this; }
        public Builder maxLoad(double l) { maxLoad = l; return this; }
        public Builder memFree(long bytes) { memFree = bytes; return this; }
        public Builder pipe(boolean p) { pipe = p; return this; }
        public Builder filters(List<Template> f) { filters = List.copyOf(f); return this; }
        public Builder controls(JobControls c) { controls = c; return this; }

        /** The options; throws IllegalArgumentException naming a bad value. */
        public JobOptions build() {
            return new JobOptions(jobs, shell, batching, maxArgs, maxChars, keepOrder, output, tag, halt, retries,
                    timeout, timeoutPercent, termSeq, joblog, resume, dryRun, shellQuote, verbose, trace, noArgs, spread, delay, results, tmpdir, maxLoad, memFree, pipe, directExec, remote, filters, slotVariable, controls);
        }
    }
}
