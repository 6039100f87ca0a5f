// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.exec.ArgumentSource;
import dev.brisk.exec.CpuTopology;
import dev.brisk.exec.ExecException;
import dev.brisk.exec.InputRules;
import dev.brisk.exec.RemoteHost;
import dev.brisk.exec.RemoteOptions;
import dev.brisk.exec.SlurmHosts;
import dev.brisk.exec.SlurmSubmit;
import dev.brisk.exec.Halt;
import dev.brisk.exec.ItemSource;
import dev.brisk.exec.JobOptions;
import dev.brisk.exec.JobRunner;
import dev.brisk.exec.OutputMode;
import dev.brisk.exec.ResumeMode;
import dev.brisk.exec.RunSummary;
import dev.brisk.exec.Template;
import dev.brisk.exec.TermStep;
import dev.brisk.exec.TreeItems;
import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code brisk par}: GNU parallel's command line over {@link JobRunner}. Parses the flags and
 * the {@code :::}/{@code ::::} input groups into {@link JobOptions} and an
 * {@link ArgumentSource}, runs, and maps the {@link RunSummary} to GNU parallel's exit status.
 *
 * <p>Over 500 lines because it declares every GNU parallel option brisk takes (picocli fields, each
 * with its help text) and maps them to {@code JobOptions}; {@code GetoptParser}'s table of the
 * same options is checked against these annotations by {@code GetoptParserTest}.
 */
@Command(name = "par", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false,
        exitCodeOnInvalidInput = 255,
        description = {"Run a command for each input item, several at once, on warm shells (GNU parallel compatible).",
                "Input: lines of stdin, -a FILE, ::: ARGS, :::: FILES (:::+ and ::::+ link to the previous source),"
                        + " or --walk DIR. Replacement strings: {} {.} {/} {//} {/.} {#} {%%} {N} {N.} {N/} {N//} {N/.};"
                        + " {} is appended when none is given; values are shell-quoted."},
        footer = {"", "Exit status: 0 all jobs succeeded; 1-100 that many jobs failed; 101 more than 100 failed;"
                + " with --halt ...,fail the failing job's status; 130 interrupted; 255 bad usage or input."})
final class ParCommand implements Callable<Integer>, GetoptParser.Table {
    @Spec
    CommandSpec spec;

    @Option(names = {"-j", "--jobs", "-P", "--max-procs", "--maxprocs"}, paramLabel = "N", description = "Jobs at once: N, N%% of cores, +N, -N, 0 (many). Default: one per core.")
    String jobs;

    @Option(names = {"-0", "--null"}, description = "Input items end with NUL, not newline.")
    boolean nul;

    @Option(names = {"-d", "--delimiter"}, paramLabel = "DELIM", description = "Input items end with DELIM (one byte; \\n \\t \\0 understood).")
    String delimiter;

    @Option(names = {"-a", "--arg-file", "--argfile"}, paramLabel = "FILE", description = "Read input items from FILE (repeatable: each is a source).")
    List<String> argFiles = new ArrayList<>();

    @Option(names = {"--arg-sep", "--argsep"}, paramLabel = "SEP", description = "Use SEP instead of ::: (SEP+ instead of :::+).")
    String argSep;

    @Option(names = {"--arg-file-sep", "--argfilesep"}, paramLabel = "SEP", description = "Use SEP instead of :::: (SEP+ instead of ::::+).")
    String argFileSep;

    @Option(names = "--walk", paramLabel = "DIR", description = "Input items are the regular files under DIR (repeatable).")
    List<String> walk = new ArrayList<>();

    @Option(names = "--walk-name", paramLabel = "GLOB", description = "With --walk: only files whose name matches GLOB (find -name).")
    String walkName;

    @Option(names = {"--link", "--xapply"}, description = "Link the input sources instead of combining them.")
    boolean link;

    @Option(names = {"-I"}, paramLabel = "STR", description = "Use STR instead of {}.")
    String replace = "{}";

    @Option(names = {"-i", "--replace"}, paramLabel = "STR", arity = "0..1", description = "xargs's -i: use STR (attached, or the next word unless it starts with -) instead of {}; no STR: {}.")
    String replaceOptional;

    @Option(names = {"--shellquote", "--shell-quote", "--shell_quote"}, description = "Print each command shell-quoted (once per --shellquote) instead of running it.")
    boolean[] shellQuote;

    @Option(names = {"-q", "--quote"}, description = "Each word of the command stays one word (its blanks, quotes, ; are no shell syntax).")
    boolean quote;

    @Option(names = "-E", paramLabel = "EOF", description = "Input ends at the item EOF (each input source).")
    String eofString;

    @Option(names = {"-e", "--eof"}, paramLabel = "EOF", arity = "0..1", description = "As -E (the value attached, or the next word unless it starts with -); no EOF: none.")
    String eofOptional;

    @Option(names = {"-r", "--no-run-if-empty", "--norunifempty"}, description = "Leave out input items of white space only.")
    boolean noRunIfEmpty;

    @Option(names = "-L", paramLabel = "N", description = "N input lines per job, each a word repeated as -X repeats it; a line ending in white space goes on in the next.")
    String maxLinesL;

    @Option(names = {"-l", "--max-lines", "--maxlines"}, paramLabel = "N", arity = "0..1", description = "N input lines per job (default 1), inserted as -n inserts them; a line ending in white space goes on in the next.")
    String maxLines;

    @Option(names = {"-N", "--max-replace-args", "--maxreplaceargs"}, paramLabel = "N", description = "At most N items per job, the word holding {} repeated for each ({1} {2}... the job's items).")
    int maxReplaceArgs = -1;

    @Option(names = {"-x", "--exit"}, description = "xargs's -x: stop if a command would be too long (brisk always does).")
    boolean exitIfTooLong;

    @Option(names = "--xargs", description = "Many items per job, as many as -s allows, space-separated in place of {}.")
    boolean xargs;

    @Option(names = {"-X"}, description = "Many items per job, the word holding {} repeated for each.")
    boolean context;

    @Option(names = {"-m"}, description = "Many items per job, space-separated in place of {}.")
    boolean multi;

    @Option(names = {"-n", "--max-args", "--maxargs"}, paramLabel = "N", description = "At most N items per job (0: one item read per job, none inserted).")
    int maxArgs = -1;

    @Option(names = {"-s", "--max-chars", "--maxchars"}, paramLabel = "N", description = "Commands shorter than N bytes (1k, 2K: sizes); -m and -X pack theirs up to it.")
    String maxChars; // a size (1k, 2K): GNU parallel takes any and caps it

    @Option(names = {"--pipe", "--spreadstdin"}, description = "Give each job a block of input records on its stdin instead of as arguments.")
    boolean pipe;

    @Option(names = {"--block", "--block-size", "--blocksize"}, paramLabel = "SIZE", description = "With --pipe: blocks of about SIZE bytes (k, M, G suffixes; default 1M).")
    String block;

    @Option(names = {"-k", "--keep-order", "--keeporder"}, description = "Print output in input order.")
    boolean keepOrder;

    @Option(names = {"--group"}, description = "Print each job's output whole when it ends (the default).")
    boolean group;

    @Option(names = {"--line-buffer", "--lb", "--line-buffered", "--linebuffer", "--linebuffered"}, description = "Print whole lines as they come.")
    boolean lineBuffer;

    @Option(names = {"-u", "--ungroup"}, description = "Print output as it comes; jobs may mix mid-line.")
    boolean ungroup;

    @Option(names = "--tag", description = "Prefix each output line with the job's arguments and a TAB.")
    boolean tag;

    @Option(names = {"--tagstring", "--tag-string"}, paramLabel = "STR", description = "Prefix each output line with STR (replacement strings work) and a TAB.")
    String tagString;

    @Option(names = {"--results", "--res", "--result"}, paramLabel = "DIR", description = "Save each job's stdout, stderr and seq under DIR/1/ARG/... instead of printing.")
    Path results;

    @Option(names = {"--halt", "--halt-on-error"}, paramLabel = "WHEN", description = "now|soon,fail|success|done=N|P%%; or 0, 1, 2.")
    String halt;

    @Option(names = "--retries", paramLabel = "N", description = "Run a failing job up to N times.")
    int retries;

    @Option(names = "--timeout", paramLabel = "SECS|P%", description = "Kill a job after SECS seconds, or P%% of the median runtime.")
    String timeout;

    @Option(names = {"--term-seq", "--termseq"}, paramLabel = "SEQ", description = "Kill sequence: SIG,MS,... (default TERM,200,TERM,100,TERM,50,KILL,25).")
    String termSeq;

    @Option(names = {"--joblog", "--jl"}, paramLabel = "FILE", description = "Log each finished job to FILE (- for stdout), GNU parallel's columns.")
    Path joblog;

    @Option(names = {"--resume"}, description = "With --joblog: skip the jobs the log lists.")
    boolean resume;

    @Option(names = {"--resume-failed", "--resumefailed"}, description = "With --joblog: run again the jobs the log lists as failed, and new ones.")
    boolean resumeFailed;

    @Option(names = {"--retry-failed", "--retryfailed"}, description = "With --joblog: run again the failed commands of the log; no input read.")
    boolean retryFailed;

    @Option(names = {"--dry-run", "--dryrun", "--dr"}, description = "Print the commands instead of running them.")
    boolean dryRun;

    @Option(names = {"-v"}, description = "Print each command before its output.")
    boolean[] verbose;

    @Option(names = {"-t", "--verbose"}, description = "Print each command on stderr as it starts.")
    boolean trace;

    @Option(names = {"--show-limits", "--showlimits"}, description = "Print the command length limits, then run.")
    boolean showLimits;

    @Option(names = {"--number-of-cpus", "--number-of-cores", "--numberofcpus", "--numberofcores"}, description = "Print the number of CPU cores and exit.")
    boolean numberOfCores;

    @Option(names = {"--number-of-threads", "--numberofthreads"}, description = "Print the number of CPU threads and exit.")
    boolean numberOfThreads;

    @Option(names = {"--number-of-sockets", "--numberofsockets"}, description = "Print the number of CPU sockets and exit.")
    boolean numberOfSockets;

    @Option(names = "--delay", paramLabel = "SECS", description = "Start jobs at least SECS seconds apart.")
    double delay;

    @Option(names = "--load", paramLabel = "MAX", description = "Start no job while the 1-minute load average is MAX or more.")
    Double load;

    @Option(names = "--memfree", paramLabel = "SIZE", description = "Start no job while less than SIZE memory is available (K M G T: 1024s; k m g t: 1000s).")
    String memFree;

    @Option(names = "--shell", paramLabel = "SHELL", description = "Shell to run jobs (default: $PARALLEL_SHELL, else dash, else sh).")
    String shell;

    @Option(names = {"--tmpdir", "--tempdir"}, paramLabel = "DIR", description = "Where output larger than memory goes (default $TMPDIR or /tmp).")
    Path tmpdir;

    @Option(names = "--progress", description = "Show progress on stderr: jobs running/completed, average seconds per job.")
    boolean progress;

    @Option(names = "--eta", description = "As --progress, with the estimated seconds left (reads all input first).")
    boolean eta;

    @Option(names = "--bar", description = "Show a progress bar on stderr (reads all input first).")
    boolean bar;

    @Option(names = {"-S", "--sshlogin"}, paramLabel = "[N/][USER@]HOST[:PORT]", description = "Run jobs on these hosts over ssh (comma list, repeatable; : is this machine; N/ sets its slots).")
    List<String> sshLogins = new ArrayList<>();

    @Option(names = {"--slf", "--sshloginfile"}, paramLabel = "FILE", description = "Read sshlogins from FILE, one per line; re-read when it changes.")
    List<String> sshLoginFiles = new ArrayList<>();

    @Option(names = "--ssh", paramLabel = "CMD", description = "The command that opens a shell on a host (default: ssh).")
    String ssh;

    @Option(names = "--ssh-persist", paramLabel = "SECONDS", description = "Through the warm server, keep each ssh login up SECONDS after the run, for the next run to the same hosts (default: $BRISK_SSH_PERSIST, else 60; 0: off).")
    String sshPersist;

    @Option(names = {"--transferfile", "--tf", "--transfer-file", "--transfer-files", "--transferfiles"}, paramLabel = "FILE", description = "Send FILE (a template, e.g. {}) to the host before the job.")
    List<String> transferFiles = new ArrayList<>();

    @Option(names = "--transfer", description = "Shorthand for --transferfile {}.")
    boolean transfer;

    @Option(names = "--return", paramLabel = "FILE", description = "Fetch FILE (a template) from the host after the job.")
    List<String> returnFiles = new ArrayList<>();

    @Option(names = "--cleanup", description = "Remove transferred and returned files from the host after the job.")
    boolean cleanup;

    @Option(names = "--trc", paramLabel = "FILE", description = "Shorthand for --transfer --return FILE --cleanup.")
    List<String> trc = new ArrayList<>();

    @Option(names = {"--basefile", "--bf"}, paramLabel = "FILE", description = "Send FILE to each host once, before its first job.")
    List<String> basefiles = new ArrayList<>();

    @Option(names = {"--workdir", "--wd", "--work-dir"}, paramLabel = "DIR", description = "Run remote jobs in DIR (... a directory of their own; . the current one, relative to home).")
    String workdir;

    @Option(names = "--env", paramLabel = "VAR", description = "Copy the variable VAR to the hosts' jobs.")
    List<String> env = new ArrayList<>();

    @Option(names = "--nonall", description = "Run the command, without arguments, once on every host.")
    boolean nonall;

    @Option(names = "--onall", description = "Run all the jobs on every host.")
    boolean onall;

    @Option(names = {"--filter-hosts", "--filterhosts", "--filter-host"}, description = "Leave out hosts that cannot be reached, without a warning.")
    boolean filterHosts;

    @Option(names = "--slurm", description = "Run jobs on the nodes of the Slurm allocation this runs in (salloc, sbatch): one srun step per node, its CPUs as slots.")
    boolean slurm;

    @Option(names = "--slurm-submit", paramLabel = "SBATCH_OPTIONS", description = "Submit this run as one Slurm batch job (sbatch SBATCH_OPTIONS) running --slurm, and wait for it, printing its output.")
    String slurmSubmit;

    @Option(names = "--plain", description = "Leave the profiles and $PARALLEL out.")
    boolean plain;

    @Option(names = {"-J", "--profile"}, paramLabel = "PROFILE", description = "Read options from PROFILE (a path, or a name in ~/.parallel) instead of ~/.parallel/config.")
    List<String> profile = new ArrayList<>();

    @Option(names = "--gnu", hidden = true)
    boolean gnu;

    @Option(names = "--tollef", hidden = true)
    boolean tollef;

    @Option(names = {"-B", "-U", "-W", "-H", "--sql"}, hidden = true)
    String retiredValued;

    @Option(names = {"-g", "-T", "-Y", "--ctrl-c", "--ctrlc", "--no-ctrl-c", "--no-ctrlc", "--noctrlc"}, hidden = true)
    boolean retired;

    @Option(names = {"--will-cite", "--no-notice", "--willcite", "--nn", "--nonotice"}, hidden = true)
    boolean willCite;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "Command and its arguments, then ::: ARGS / :::: FILES groups.")
    List<String> words = new ArrayList<>();

    /** Options {@link #earlyHosts} reads past: those that take a value... */
    static final java.util.Set<String> EARLY_VALUED = java.util.Set.of("-S", "--sshlogin", "--ssh", "--ssh-persist", "--slf",
            "--sshloginfile", "-j", "--jobs", "-P", "--max-procs", "--joblog", "--timeout", "--retries", "--env",
            "--workdir", "--wd", "--transferfile", "--tf", "--return", "--trc", "--basefile", "--bf", "--halt",
            "--halt-on-error", "--delay", "--tmpdir", "--tagstring", "--results", "--res", "-n", "--max-args", "-I",
            "--term-seq", "--termseq", "-a", "--arg-file", "-d", "--delimiter", "-E", "-L", "-N", "--max-replace-args",
            "-s", "--max-chars");
    /** ...and those that take none. */
    static final java.util.Set<String> EARLY_FLAGS = java.util.Set.of("-k", "--keep-order", "--tag", "-0",
            "--null", "--nonall", "--onall", "--will-cite", "--no-notice", "--cleanup", "--filter-hosts", "-u",
            "--ungroup", "--group", "--line-buffer", "--lb", "-v", "--verbose", "--progress", "--eta", "--bar", "-X",
            "-m", "--slurm", "--transfer", "--resume", "--resume-failed", "--retry-failed", "-t", "-r",
            "--no-run-if-empty", "-x", "--exit", "--xargs");

    /**
     * The hosts a command line names, as {@link #connectEarly} reads them: its {@code -S} values,
     * its {@code --ssh}, its {@code --ssh-persist} (null if none), whether it says {@code --slurm}.
     */
    record EarlyHosts(List<String> logins, String ssh, String persist, boolean slurm) {}

    /**
     * Reads {@code args} (those after {@code par}) as far as its options go, for
     * {@link #connectEarly}; null when it should start nothing: an option it does not know
     * (its value could be anything, and a later {@code --ssh} or {@code --dry-run} would go
     * unread), a clustered or abbreviated form, {@code --dry-run}, or no host. Only a command
     * line whose options it read to their end (the command, {@code :::}, {@code ::::}, {@code --}
     * or the last argument) gives hosts.
     */
    static EarlyHosts earlyHosts(String[] args) {
        List<String> logins = new ArrayList<>();
        String sshCommand = null;
        String persist = null;
        boolean inAllocation = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--") || !a.startsWith("-")) {
                break; // the command (or :::, ::::): the options end here
            }
            String name = a;
            String value = null;
            if (a.startsWith("--") && a.indexOf('=') > 2) {
                name = a.substring(0, a.indexOf('='));
                value = a.substring(a.indexOf('=') + 1);
            } else if (!a.startsWith("--") && a.length() > 2 && EARLY_VALUED.contains(a.substring(0, 2))) {
                name = a.substring(0, 2);
                value = a.substring(2);
            }
            if (EARLY_VALUED.contains(name)) {
                if (value == null) {
                    if (++i == args.length) {
                        return null;
                    }
                    value = args[i];
                }
                switch (name) {
                    case "-S", "--sshlogin" -> logins.add(value);
                    case "--ssh" -> sshCommand = value;
                    case "--ssh-persist" -> persist = value;
                    default -> { }
                }
            } else if (value == null && EARLY_FLAGS.contains(name)) {
                inAllocation |= name.equals("--slurm");
            } else {
                return null;
            }
        }
        if (logins.isEmpty() && !inAllocation) {
            return null;
        }
        return new EarlyHosts(List.copyOf(logins), sshCommand(sshCommand), persist, inAllocation);
    }

    /** The default of {@code --ssh-persist}, in seconds: documented in the option's help and docs/DAEMON.md. */
    static final long SSH_PERSIST_SECONDS = 60;

    /**
     * How long a warm server keeps each ssh login up after the run: {@code option}
     * ({@code --ssh-persist}), else {@code $BRISK_SSH_PERSIST}, else {@value #SSH_PERSIST_SECONDS} s.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    static Duration sshPersist(String option) {
        String env = Caller.current().getenv("BRISK_SSH_PERSIST");
        String v = option != null ? option : env != null && !env.isBlank() ? env : null;
        if (v == null) {
            return Duration.ofSeconds(SSH_PERSIST_SECONDS);
        }
        if (!v.strip().matches("[0-9]{1,9}")) {
            throw new IllegalArgumentException((option != null ? "--ssh-persist" : "BRISK_SSH_PERSIST")
                    + " must be a number of seconds (0: off), got '" + v + "'");
        }
        return Duration.ofSeconds(Long.parseLong(v.strip()));
    }

    /** The command that opens a shell on a host: {@code --ssh}, else {@code $PARALLEL_SSH}, else ssh. */
    private static String sshCommand(String option) {
        String env = Caller.current().getenv("PARALLEL_SSH");
        return option != null ? option : env != null ? env : "ssh";
    }

    /**
     * Starts the connections to this command line's hosts ({@code -S}, {@code --slurm}) before
     * its options are parsed and its runner built ({@link RemoteHost#connectEarly}): an ssh
     * login takes longer than all of that, and a first remote job comes that much sooner. Only
     * for a command line {@link #earlyHosts} reads to the end of its options; any other connects
     * as usual, once parsed.
     *
     * @param args the arguments after {@code par}
     * @return whether it started any (false: the run is local, or its options are read later)
     */
    static boolean connectEarly(String[] args) {
        EarlyHosts early = earlyHosts(args);
        if (early == null) {
            return false;
        }
        RemoteHost.connectEarly(() -> {
            List<RemoteHost> hosts = new ArrayList<>(early.slurm()
                    ? SlurmHosts.fromEnvironment(Caller.current().environment(), 0) : List.of());
            Duration persist = sshPersist(early.persist());
            for (String l : early.logins()) {
                hosts.addAll(RemoteHost.parse(l, early.ssh(), persist));
            }
            return hosts;
        });
        return true;
    }

    /**
     * Runs {@code brisk par} with {@code args} (those after {@code par}) for the current
     * {@link Caller}, as a direct run or as a warm server's call: reads its standard input, prints
     * to its standard output and error (nothing else), and returns the exit status; never exits
     * the JVM. The words of {@code $PARALLEL} come first, as in GNU parallel. A command line is
     * parsed without picocli, as GNU parallel's Getopt::Long reads it ({@link GetoptParser});
     * one it cannot read goes to picocli, which reports bad usage ({@code brisk par: MESSAGE},
     * status 255) and prints help and the version. Runs on the calling thread; call it from a thread whose working directory is
     * the caller's (the threads it starts inherit it).
     */
    static int call(String[] args) {
        boolean cold = Caller.current().self();
        // a direct run pays the JVM's start in every call: ssh logins start before the options
        // are read, or else the spawn calls are bound on another core meanwhile
        if (!connectEarly(args) && cold) {
            JobRunner.prepare();
        }
        PrintWriter out = writer(1);
        PrintWriter err = writer(2);
        try {
            ParCommand fast = new ParCommand();
            // as GNU parallel: the profiles' and $PARALLEL's words are read first, on their own;
            // those of them that are no options come before the command line's command
            String[] before;
            boolean fastParsed;
            try {
                before = ParProfiles.words(args, Caller.current()::getenv).toArray(String[]::new);
                fastParsed = GetoptParser.parse(fast, before, true) && GetoptParser.parse(fast, args, true);
            } catch (IllegalArgumentException e) {
                err.println("brisk par: " + e.getMessage()); // an ambiguous abbreviation, in Getopt::Long's words
                return 255;
            }
            if (fastParsed) {
                try {
                    return fast.call();
                } catch (UsageError e) {
                    err.println("brisk par: " + e.getMessage());
                    return 255;
                } catch (Exception e) {
                    // as picocli's execution exception handler below
                    err.println("brisk par: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
                    return ExitCode.FAILURE.code();
                }
            }
            CommandLine cl = new CommandLine(new ParCommand()).setCommandName("brisk par");
            cl.setOut(out);
            cl.setErr(err);
            // GNU parallel reads options only before the command: everything after it is the command
            cl.setStopAtPositional(true);
            cl.setOverwrittenOptionsAllowed(true); // as GNU parallel: -0 ... -0, the last value counts
            cl.setExitCodeExceptionMapper(t -> ExitCode.FAILURE.code());
            cl.setParameterExceptionHandler((ex, a) -> {
                ex.getCommandLine().getErr().println("brisk par: " + ex.getMessage());
                return 255;
            });
            cl.setExecutionExceptionHandler((ex, c, parsed) -> {
                c.getErr().println("brisk par: " + (ex.getMessage() != null ? ex.getMessage() : ex.toString()));
                return ExitCode.FAILURE.code();
            });
            String[] all = java.util.Arrays.copyOf(before, before.length + args.length);
            System.arraycopy(args, 0, all, before.length, args.length);
            return cl.execute(all);
        } finally {
            RemoteHost.dropEarlyConnections(); // the connections no run took (picocli refused the options)
            out.flush();
            err.flush();
        }
    }

    /**
     * As {@link #call(String[])}, for a warm server's call whose client sent its arguments as
     * bytes: {@code raw} are the bytes of the arguments (its last {@code args.length} entries, in
     * order; it may hold more before them), which give the jobs arguments that are not valid
     * UTF-8 as they were.
     */
    static int call(String[] args, List<byte[]> raw) {
        return ScopedValue.where(RawArgs.Given.VALUE, List.copyOf(raw)).call(() -> call(args));
    }

    /** A writer on the caller's descriptor {@code fd} (1 or 2): System.out or System.err in a direct run. */
    private static PrintWriter writer(int fd) {
        if (Caller.current().self()) {
            return new PrintWriter(fd == 1 ? System.out : System.err, true);
        }
        return new PrintWriter(new OutputStreamWriter(fd == 1 ? DescriptorStream.stdout() : DescriptorStream.stderr(),
                StandardCharsets.UTF_8), true);
    }

    /**
     * Why {@code args} (those after {@code par}) cannot run as a warm server's call, or null when
     * they can. A call's jobs run in the server's session, without the client's terminal: a
     * command line whose jobs must have it ({@code --tty}, {@code --fg}, {@code -p} /
     * {@code --interactive}, {@code -o} / {@code --open-tty}: GNU parallel's options that give jobs
     * the terminal or ask on it) runs in a JVM of its own, and so does {@code --slurm-submit},
     * whose batch job re-runs the JVM's own command line. Everything else runs in the server:
     * jobs read {@code /dev/null} (or, with {@code --pipe}, what brisk feeds them) and their
     * output passes through brisk, and {@code --progress}, {@code --eta} and {@code --bar} draw on
     * the client's stderr. Reads only the options before the command; cheap.
     */
    static String directReason(String[] args) {
        java.util.Set<String> valued = Valued.NAMES;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--") || !a.startsWith("-") || a.equals("-")) {
                return null; // the command (or :::, ::::): the options end here
            }
            String name = a.startsWith("--") && a.indexOf('=') > 0 ? a.substring(0, a.indexOf('=')) : a;
            switch (name) {
                case "--tty", "--fg", "-p", "--interactive", "-o", "--open-tty" -> {
                    return "par " + name + ": its jobs need the terminal";
                }
                case "--slurm-submit" -> {
                    return "par --slurm-submit: its batch job runs this JVM's own command line again (SelfCommand)";
                }
                default -> { }
            }
            if (a.startsWith("--")) {
                i += valued.contains(name) && a.indexOf('=') < 0 ? 1 : 0;
                continue;
            }
            // a cluster of short flags (-kp) up to the first that takes a value (-kI{}: the rest is its value)
            for (int j = 1; j < a.length(); j++) {
                String flag = "-" + a.charAt(j);
                if (flag.equals("-p") || flag.equals("-o")) {
                    return "par " + a + ": its jobs need the terminal";
                }
                if (valued.contains(flag)) {
                    i += j + 1 == a.length() ? 1 : 0;
                    break;
                }
            }
        }
        return null;
    }

    /** The names of the options that take a value (from the options' table, read once). */
    private static final class Valued {
        static final java.util.Set<String> NAMES = names();

        private static java.util.Set<String> names() {
            java.util.Set<String> valued = new java.util.HashSet<>();
            ParCommand table = new ParCommand();
            for (String[] row : table.fastOptions()) {
                try {
                    Class<?> t = ParCommand.class.getDeclaredField(row[0]).getType();
                    // an optional value (-i, -e, -l) is no reason to skip the next word
                    if (t != boolean.class && t != boolean[].class && !table.fastOptional().containsKey(row[0])) {
                        valued.addAll(List.of(row).subList(1, row.length));
                    }
                } catch (NoSuchFieldException e) {
                    throw new AssertionError(e); // GetoptParserTest checks the table
                }
            }
            return java.util.Set.copyOf(valued);
        }
    }

    @Override
    public Integer call() throws IOException {
        try {
            return run();
        } finally {
            RemoteHost.dropEarlyConnections();
        }
    }

    private Integer run() throws IOException {
        if (numberOfSockets || numberOfCores || numberOfThreads) {
            CpuTopology cpus = CpuTopology.of(Path.of("/sys/devices/system/cpu"), Path.of("/proc/cpuinfo"));
            int n = numberOfSockets ? cpus.sockets() : numberOfCores ? cpus.cores() : cpus.threads();
            OutputStream o = DescriptorStream.stdout();
            o.write((n + "\n").getBytes(StandardCharsets.US_ASCII));
            o.flush();
            return 0;
        }
        String refused = tollef && !gnu ? "--tollef has been retired.\nRemove --tollef or use --gnu to override --tollef."
                : retired || retiredValued != null ? RETIRED : null;
        if (refused != null) {
            OutputStream e = DescriptorStream.stderr();
            e.write(("brisk par: " + refused.replace("\n", "\nbrisk par: ") + "\n").getBytes(StandardCharsets.UTF_8));
            e.flush();
            return 255;
        }
        InputRules rules = xargsOptions();
        List<byte[]> raw = RawArgs.of(words);
        List<byte[]> command = new ArrayList<>();
        int i = 0;
        while (i < raw.size() && marker(raw.get(i)) == null) {
            command.add(raw.get(i++));
        }
        List<List<ItemSource>> groups = new ArrayList<>();
        byte delim = delimiterByte();
        try {
            while (i < raw.size()) {
                String m = marker(raw.get(i++));
                List<ItemSource> sources = new ArrayList<>();
                if (m.startsWith("::::")) {
                    while (i < raw.size() && marker(raw.get(i)) == null) {
                        sources.add(fileSource(new String(raw.get(i++), StandardCharsets.UTF_8), delim));
                    }
                } else {
                    List<byte[]> values = new ArrayList<>();
                    while (i < raw.size() && marker(raw.get(i)) == null) {
                        values.add(raw.get(i++));
                    }
                    sources.add(ItemSource.of(values));
                }
                for (ItemSource s : sources) {
                    if (m.endsWith("+") && !groups.isEmpty()) {
                        groups.getLast().add(s);
                    } else {
                        groups.add(new ArrayList<>(List.of(s)));
                    }
                }
            }
            for (String f : argFiles) {
                groups.add(new ArrayList<>(List.of(fileSource(f, delim))));
            }
            for (String d : walk) {
                if (!Files.isDirectory(Path.of(d))) {
                    throw usage("--walk: not a directory: " + d);
                }
                groups.add(new ArrayList<>(List.of(TreeItems.files(Path.of(d),
                        walkName == null ? List.of() : List.of("-name", walkName)))));
            }
        } catch (IOException e) {
            throw usage(e.getMessage());
        }
        if (slurmSubmit != null) {
            return submit(groups.isEmpty() || argFiles.contains("-") || raw.stream().anyMatch(a -> a.length == 1 && a[0] == '-'));
        }
        if (groups.isEmpty()) {
            groups.add(new ArrayList<>(List.of(ItemSource.delimited(DescriptorStream.stdin(), delim))));
        }
        for (List<ItemSource> g : groups) {
            g.replaceAll(rules::apply);
        }
        if (link && groups.size() > 1) {
            List<ItemSource> all = new ArrayList<>();
            groups.forEach(all::addAll);
            groups = List.of(all);
        }
        Template template;
        try {
            template = command.isEmpty()
                    ? Template.parse("{}".getBytes(StandardCharsets.US_ASCII), "{}", Template.Quoting.RAW)
                    : Template.parse(quote ? Template.quotedWords(command, replace) : join(command), replace,
                            Template.Quoting.SHELL, !pipe && !nonall);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        OutputStream out = DescriptorStream.stdout();
        OutputStream err = DescriptorStream.stderr();
        JobOptions options = options(err);
        if (showLimits) {
            // GNU parallel's report: the longest command, the longest brisk builds; then the run goes on
            out.write(("Maximal size of command: " + (JobOptions.ARGUMENT_LIMIT - 1) + "\nMaximal usable size of command: "
                    + options.maxChars() + "\n\nExecution will continue now, and it will try to read its input\n"
                    + "and run commands; if this is not what you wanted to happen, please\npress CTRL-D or CTRL-C\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        // the allocation ended (scancel, time limit): Slurm has killed our steps; stop as salloc -K would have us
        Thread watch = !slurm ? null : SlurmHosts.watch(Caller.current().environment(), state -> {
            try {
                err.write(("brisk par: the Slurm allocation ended (" + state + "): stopping; --resume with the same"
                        + " --joblog goes on in a new one\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // stderr gone: the status says it
            }
            allocationEnded.set(true);
            runners.forEach(JobRunner::stop);
        });
        try {
            return runAll(options, groups, template, delim, out, err);
        } finally {
            if (watch != null) {
                watch.interrupt();
            }
        }
    }

    /** Runs the jobs once the input, options and streams are ready: on every host, or as a {@link JobRunner} runs them. */
    private int runAll(JobOptions options, List<List<ItemSource>> groups, Template template, byte delim,
            OutputStream out, OutputStream err) throws IOException {
        if (onall || nonall) {
            List<List<byte[]>> inputs = new ArrayList<>();
            if (nonall) {
                inputs.add(List.of(new byte[0]));
            } else {
                for (List<ItemSource> g : groups) {
                    if (g.size() > 1) {
                        throw usage("--onall does not take linked inputs (:::+, ::::+, --link)");
                    }
                    inputs.add(g.getFirst().readAll());
                    g.getFirst().close();
                }
            }
            try {
                int status = OnAll.run(options, keepOrder, tag, template, inputs, out, err, this::started);
                return allocationEnded.get() ? 255 : status;
            } catch (ExecException | IOException e) {
                err.write(("brisk par: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
                return 255;
            }
        }
        if (spec != null) {
            spec.commandLine().getOut().flush();
        }
        JobRunner runner = new JobRunner(options, template, out, err).recordEnd(delim);
        started(runner);
        Progress display = null;
        if (progress || eta || bar) {
            // as GNU parallel, --eta and --bar know the number of jobs: the input is read first
            long total = eta || bar ? countJobs(groups) : -1;
            display = new Progress(err, bar ? Progress.Mode.BAR : eta ? Progress.Mode.ETA : Progress.Mode.PROGRESS,
                    total, options.jobs());
            runner.listener(display);
        }
        try {
            RunSummary s = runner.run(ArgumentSource.of(groups));
            return allocationEnded.get() ? 255 : s.exitStatus();
        } catch (ExecException e) {
            if (e.outputClosed()) {
                return 255; // the reader went away (| head): nothing to say
            }
            err.write(("brisk par: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
            return 255;
        } finally {
            if (display != null) {
                display.end();
            }
        }
    }

    /** The runners of this run, for the Slurm allocation's end to stop ({@code --slurm}). */
    private final List<JobRunner> runners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.AtomicBoolean allocationEnded = new java.util.concurrent.atomic.AtomicBoolean();

    /** A runner of this run is about to run: one the allocation's end has come for stops at once. */
    private void started(JobRunner r) {
        runners.add(r);
        if (allocationEnded.get()) {
            r.stop();
        }
    }

    /**
     * Reads every source of {@code groups} into memory in place and returns the number of jobs
     * they make, or -1 when that depends on more than the count of argument tuples
     * ({@code --pipe}, {@code -m}, {@code -X}).
     */
    private long countJobs(List<List<ItemSource>> groups) throws IOException {
        long tuples = 1;
        for (List<ItemSource> g : groups) {
            long shortest = Long.MAX_VALUE;
            for (int k = 0; k < g.size(); k++) {
                ItemSource s = g.get(k);
                List<byte[]> all = s.readAll();
                s.close();
                g.set(k, ItemSource.of(all));
                shortest = Math.min(shortest, all.size());
            }
            tuples *= shortest;
        }
        if (pipe || context || multi) {
            return -1;
        }
        return maxArgs > 1 ? (tuples + maxArgs - 1) / maxArgs : tuples;
    }

    private JobOptions options(OutputStream err) throws IOException {
        int modes = (lineBuffer ? 1 : 0) + (ungroup ? 1 : 0) + (group ? 1 : 0);
        if (modes > 1) {
            throw usage("--group, --line-buffer and -u exclude each other");
        }
        if (context && multi) {
            throw usage("-X and -m exclude each other");
        }
        if ((resume ? 1 : 0) + (resumeFailed ? 1 : 0) + (retryFailed ? 1 : 0) > 1) {
            throw usage("--resume, --resume-failed and --retry-failed exclude each other");
        }
        long chars = maxChars == null ? 0 : size(maxChars, "-s");
        if (chars == 0) {
            chars = JobOptions.DEFAULT_MAX_CHARS; // -s 0: Perl's false, the default
        }
        if (chars > JobOptions.DEFAULT_MAX_CHARS) {
            // GNU parallel's answer to an -s beyond what a command can hold: a warning, then its maximum
            err.write(("brisk: Warning: Value for option -s should be < " + (JobOptions.DEFAULT_MAX_CHARS + 1) + ".\n")
                    .getBytes(StandardCharsets.UTF_8));
            chars = JobOptions.DEFAULT_MAX_CHARS;
        }
        try {
            JobOptions.Builder b = JobOptions.builder()
                    .batching(context ? Template.Batching.CONTEXT : multi ? Template.Batching.MULTI : Template.Batching.NONE)
                    .spread(spread).trace(trace).noArgs(noArgs)
                    .maxArgs(maxArgs).maxChars((int) chars).keepOrder(keepOrder)
                    .output(lineBuffer ? OutputMode.LINE_BUFFER : ungroup ? OutputMode.UNGROUPED : OutputMode.GROUP)
                    .retries(retries).joblog(joblog).dryRun(dryRun || shellQuote != null).shellQuote(shellQuote == null ? 0 : shellQuote.length).verbose(verbose != null && verbose.length > 0).results(results)
                    .resume(resume ? ResumeMode.RESUME : resumeFailed ? ResumeMode.RESUME_FAILED
                            : retryFailed ? ResumeMode.RETRY_FAILED : ResumeMode.NONE);
            if (jobs != null) {
                b.jobs(parseJobs(jobs));
            }
            String chosen = shell != null ? shell : Caller.current().getenv("PARALLEL_SHELL");
            if (chosen != null && !chosen.isEmpty()) {
                b.shell(chosen).directExec(false);
            }
            if (tmpdir != null) {
                b.tmpdir(tmpdir);
            } else if (Caller.current().getenv("TMPDIR") != null && !Caller.current().getenv("TMPDIR").isEmpty()) {
                b.tmpdir(Path.of(Caller.current().getenv("TMPDIR")));
            }
            if (tag || tagString != null) {
                String t = tagString != null ? tagString : replace;
                b.tag(Template.parse(t.getBytes(StandardCharsets.UTF_8), replace, Template.Quoting.RAW));
            }
            if (halt != null) {
                b.halt(Halt.parse(halt));
            }
            if (timeout != null) {
                if (timeout.endsWith("%")) {
                    b.timeoutPercent(number(timeout.substring(0, timeout.length() - 1), "--timeout"));
                } else {
                    b.timeout(Duration.ofNanos((long) (number(timeout, "--timeout") * 1e9)));
                }
            }
            if (termSeq != null) {
                b.termSeq(TermStep.parse(termSeq));
            }
            if (load != null) {
                b.maxLoad(load);
            }
            if (memFree != null) {
                b.memFree(size(memFree, "--memfree"));
            }
            b.pipe(pipe);
            if (block != null) {
                b.blockSize(size(block, "--block"));
            }
            if (delay < 0) {
                throw usage("--delay must not be negative, got " + delay);
            }
            b.delay(Duration.ofNanos((long) (delay * 1e9)));
            b.remote(remote());
            return b.build();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /**
     * Reads xargs's options as GNU parallel does into the fields they act through ({@code -i}
     * into {@code -I}; {@code -l}, {@code -L}, {@code -N} into {@code -n}, {@code -L} and
     * {@code -N} also into {@code -X}'s repeated words unless {@code -m} or {@code --xargs}),
     * and returns the rules for the input items ({@code -E}/{@code -e}, {@code -r}, the
     * continued lines of {@code -L}/{@code -l}).
     */
    private InputRules xargsOptions() {
        if (replaceOptional != null && !replaceOptional.isEmpty()) {
            replace = replaceOptional;
        }
        spread = context || multi;
        int lines = 0;
        int args = maxArgs; // -1: not given; later options set it only while it is not (Perl's ||=)
        if (maxLines != null) {
            if (maxLines.equals("-0")) {
                nul = true; // -l -0: Getopt::Long took -0 as -l's number
                lines = 1;
            } else {
                lines = Math.max(1, count(maxLines.isEmpty() ? "0" : maxLines, "-l"));
            }
            if (!pipe && args <= 0) {
                args = lines;
            }
        }
        if (maxLinesL != null) {
            lines = count(maxLinesL, "-L");
            if (!pipe && args <= 0) {
                args = lines;
            }
        }
        if (maxReplaceArgs >= 0) {
            args = maxReplaceArgs;
        }
        if ((maxLinesL != null || maxReplaceArgs >= 0) && !(xargs || multi)) {
            context = true;
        }
        multi |= xargs;
        if (maxArgs < -1 || maxReplaceArgs < -1) {
            throw usage("-n and -N must not be negative, got " + Math.min(maxArgs, maxReplaceArgs));
        }
        noArgs = args == 0;
        maxArgs = Math.max(0, args);
        String eof = eofOptional != null ? eofOptional : eofString;
        // --pipe's records know no end-of-input string (GNU parallel's read_block checks none)
        return new InputRules(pipe ? null : InputRules.endOfInput(eof), noRunIfEmpty, lines > 0 && !pipe);
    }

    /** GNU parallel's answer to any of its retired options, line by line. */
    private static final String RETIRED = String.join("\n", "-g has been retired. Use --group.", "-B has been retired. Use --bf.",
            "-T has been retired. Use --tty.", "-U has been retired. Use --er.", "-W has been retired. Use --wd.",
            "-Y has been retired. Use --shebang.", "-H has been retired. Use --halt.",
            "--sql has been retired. Use --sqlmaster.", "--ctrlc has been retired.", "--noctrlc has been retired.");

    /** -n 0, -N 0: each job reads one tuple and inserts none (set by {@link #xargsOptions}). */
    private boolean noArgs;

    /** Whether the last job of -m/-X spreads the rest of the input over the slots (set by {@link #xargsOptions}). */
    private boolean spread;

    /** A count with GNU parallel's suffixes (k, M, ...: {@code multiply_binary_prefix}), whole. */
    private int count(String s, String option) {
        long n = size(s, option);
        if (n > Integer.MAX_VALUE) {
            throw usage(option + " is too large, got " + s);
        }
        return (int) n;
    }

    /** The remote options ({@code -S}, {@code --slf} and the rest), or null when every job runs here. */
    private RemoteOptions remote() {
        List<RemoteHost> nodes = slurmNodes();
        if (sshLogins.isEmpty() && sshLoginFiles.isEmpty() && nodes.isEmpty()) {
            if (nonall || onall) {
                throw usage((nonall ? "--nonall" : "--onall") + " needs --sshlogin or --slf");
            }
            return null;
        }
        String sshCommand = sshCommand(ssh);
        Duration persist = sshPersist(sshPersist);
        List<RemoteHost> hosts = new ArrayList<>(nodes);
        for (String l : sshLogins) {
            hosts.addAll(RemoteHost.parse(l, sshCommand, persist));
        }
        if (pipe && hosts.stream().anyMatch(h -> !h.local()) || pipe && !sshLoginFiles.isEmpty()) {
            throw usage("--pipe does not run on remote hosts (-S, --slf) yet");
        }
        List<Template> tf = new ArrayList<>();
        List<String> transfers = new ArrayList<>(transferFiles);
        if (transfer || !trc.isEmpty()) {
            transfers.add(replace);
        }
        for (String t : transfers) {
            tf.add(Template.parse(t.getBytes(StandardCharsets.UTF_8), replace, Template.Quoting.RAW));
        }
        List<Template> ret = new ArrayList<>();
        List<String> returns = new ArrayList<>(returnFiles);
        returns.addAll(trc);
        for (String r : returns) {
            ret.add(Template.parse(r.getBytes(StandardCharsets.UTF_8), replace, Template.Quoting.RAW));
        }
        int perHost = 0;
        if (jobs != null && jobs.matches("[1-9][0-9]*")) {
            perHost = Integer.parseInt(jobs);
        }
        return new RemoteOptions(hosts, sshLoginFiles.stream().map(Path::of).toList(), sshCommand, tf, ret,
                cleanup || !trc.isEmpty(), basefiles.stream().map(Path::of).toList(), workdir, env, filterHosts, perHost,
                persist);
    }

    /** {@code --slurm-submit}: this run as one batch job, waited for here. */
    private int submit(boolean readsStdin) throws IOException {
        if (slurm) {
            throw usage("--slurm and --slurm-submit exclude each other");
        }
        List<byte[]> command;
        try {
            command = SelfCommand.forSlurmJob(words.size());
        } catch (IllegalStateException e) {
            throw usage(e.getMessage());
        }
        Path cwd = Path.of(Caller.workingDirectory());
        return SlurmSubmit.run(new SlurmSubmit.Request(command, slurmSubmit, cwd, readsStdin),
                DescriptorStream.stdin(), DescriptorStream.stdout(), DescriptorStream.stderr());
    }

    /** The nodes of the Slurm allocation for {@code --slurm} (none without it). */
    private List<RemoteHost> slurmNodes() {
        if (!slurm) {
            return List.of();
        }
        if (pipe) {
            throw usage("--pipe does not run on remote hosts (--slurm) yet");
        }
        return SlurmHosts.fromEnvironment(Caller.current().environment(), jobs != null && jobs.matches("[1-9][0-9]*") ? Integer.parseInt(jobs) : 0);
    }

    private int parseJobs(String s) {
        int cores = Runtime.getRuntime().availableProcessors();
        try {
            int n;
            if (s.endsWith("%")) {
                n = (int) (cores * Double.parseDouble(s.substring(0, s.length() - 1)) / 100);
            } else if (s.startsWith("+")) {
                n = cores + Integer.parseInt(s.substring(1));
            } else if (s.startsWith("-")) {
                n = cores - Integer.parseInt(s.substring(1));
            } else {
                n = Integer.parseInt(s);
                if (n == 0) {
                    n = 64;
                }
            }
            return Math.max(1, n);
        } catch (NumberFormatException e) {
            throw usage("bad --jobs '" + s + "': use N, N%, +N, -N or 0");
        }
    }

    private long size(String s, String option) {
        String t = s.trim();
        // as GNU parallel: K M G T are powers of 1024, k m g t powers of 1000
        long unit = 1;
        char last = t.isEmpty() ? ' ' : t.charAt(t.length() - 1);
        int binary = "KMGT".indexOf(last);
        int decimal = "kmgt".indexOf(last);
        if (binary >= 0) {
            unit = 1L << (10 * (binary + 1));
        } else if (decimal >= 0) {
            unit = (long) Math.pow(1000, decimal + 1);
        }
        if (binary >= 0 || decimal >= 0) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            double v = Double.parseDouble(t);
            if (v < 0) {
                throw usage(option + " must not be negative, got " + s);
            }
            return (long) (v * unit);
        } catch (NumberFormatException e) {
            throw usage("bad " + option + " '" + s + "': use a size such as 500M or 2G");
        }
    }

    private double number(String s, String option) {
        try {
            double d = Double.parseDouble(s);
            if (!(d > 0)) {
                throw usage(option + " must be positive, got " + s);
            }
            return d;
        } catch (NumberFormatException e) {
            throw usage("bad " + option + " '" + s + "'");
        }
    }

    private byte delimiterByte() {
        if (nul) {
            return 0;
        }
        if (delimiter == null) {
            return '\n';
        }
        String d = switch (delimiter) {
            case "\\n" -> "\n";
            case "\\t" -> "\t";
            case "\\0" -> "\0";
            case "\\r" -> "\r";
            default -> delimiter;
        };
        byte[] b = d.getBytes(StandardCharsets.UTF_8);
        if (b.length != 1) {
            throw usage("-d takes one byte, got '" + delimiter + "'");
        }
        return b[0];
    }

    private ItemSource fileSource(String name, byte delim) throws IOException {
        if (name.equals("-")) {
            return ItemSource.delimited(DescriptorStream.stdin(), delim);
        }
        Path p = Path.of(name);
        if (!Files.isReadable(p) || Files.isDirectory(p)) {
            throw new IOException("cannot open input file '" + name + "': " + (Files.exists(p)
                    ? (Files.isDirectory(p) ? "is a directory" : "permission denied") : "no such file"));
        }
        InputStream in = Files.newInputStream(p);
        return ItemSource.delimited(in, delim);
    }

    /**
     * Which input marker {@code w} is, as {@code :::}, {@code :::+}, {@code ::::} or
     * {@code ::::+} whatever {@code --arg-sep}/{@code --arg-file-sep} call them, or null.
     */
    private String marker(byte[] w) {
        String sep = argSep != null ? argSep : ":::";
        String fileSep = argFileSep != null ? argFileSep : "::::";
        if (w.length > Math.max(sep.length(), fileSep.length()) * 4 + 1) {
            return null;
        }
        String s = new String(w, StandardCharsets.UTF_8);
        return s.equals(fileSep) ? "::::" : s.equals(fileSep + "+") ? "::::+"
                : s.equals(sep) ? ":::" : s.equals(sep + "+") ? ":::+" : null;
    }

    private static byte[] join(List<byte[]> words) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        for (int k = 0; k < words.size(); k++) {
            if (k > 0) {
                b.write(' ');
            }
            b.writeBytes(words.get(k));
        }
        return b.toByteArray();
    }

    /**
     * A usage error: picocli's, or without picocli ({@link GetoptParser} filled the fields) a
     * {@link UsageError}; both end as {@code brisk par: MESSAGE} and status 255.
     */
    private RuntimeException usage(String message) {
        return spec != null ? new ParameterException(spec.commandLine(), message) : new UsageError(message);
    }

    /** Bad usage found after {@link GetoptParser} parsed the command line (no picocli to report it). */
    static final class UsageError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageError(String message) {
            super(message);
        }
    }

    /**
     * {@code brisk par}'s options for {@link GetoptParser}: each {@code @Option} field's name, then its names
     * as the annotation gives them (GetoptParserTest checks that the two agree). Read instead of the
     * annotations, whose parsing generates a proxy class per annotation type at start-up.
     */
    @Override
    public String[][] fastOptions() {
        return new String[][] {
            {"jobs", "-j", "--jobs", "-P", "--max-procs", "--maxprocs"},
            {"nul", "-0", "--null"},
            {"delimiter", "-d", "--delimiter"},
            {"argFiles", "-a", "--arg-file", "--argfile"},
            {"argSep", "--arg-sep", "--argsep"},
            {"argFileSep", "--arg-file-sep", "--argfilesep"},
            {"walk", "--walk"},
            {"walkName", "--walk-name"},
            {"link", "--link", "--xapply"},
            {"replace", "-I"},
            {"replaceOptional", "-i", "--replace"},
            {"shellQuote", "--shellquote", "--shell-quote", "--shell_quote"},
            {"quote", "-q", "--quote"},
            {"eofString", "-E"},
            {"eofOptional", "-e", "--eof"},
            {"noRunIfEmpty", "-r", "--no-run-if-empty", "--norunifempty"},
            {"maxLinesL", "-L"},
            {"maxLines", "-l", "--max-lines", "--maxlines"},
            {"maxReplaceArgs", "-N", "--max-replace-args", "--maxreplaceargs"},
            {"exitIfTooLong", "-x", "--exit"},
            {"xargs", "--xargs"},
            {"context", "-X"},
            {"multi", "-m"},
            {"maxArgs", "-n", "--max-args", "--maxargs"},
            {"maxChars", "-s", "--max-chars", "--maxchars"},
            {"pipe", "--pipe", "--spreadstdin"},
            {"block", "--block", "--block-size", "--blocksize"},
            {"keepOrder", "-k", "--keep-order", "--keeporder"},
            {"group", "--group"},
            {"lineBuffer", "--line-buffer", "--lb", "--line-buffered", "--linebuffer", "--linebuffered"},
            {"ungroup", "-u", "--ungroup"},
            {"tag", "--tag"},
            {"tagString", "--tagstring", "--tag-string"},
            {"results", "--results", "--res", "--result"},
            {"halt", "--halt", "--halt-on-error"},
            {"retries", "--retries"},
            {"timeout", "--timeout"},
            {"termSeq", "--term-seq", "--termseq"},
            {"joblog", "--joblog", "--jl"},
            {"resume", "--resume"},
            {"resumeFailed", "--resume-failed", "--resumefailed"},
            {"retryFailed", "--retry-failed", "--retryfailed"},
            {"dryRun", "--dry-run", "--dryrun", "--dr"},
            {"verbose", "-v"},
            {"trace", "-t", "--verbose"},
            {"showLimits", "--show-limits", "--showlimits"},
            {"numberOfCores", "--number-of-cpus", "--number-of-cores", "--numberofcpus", "--numberofcores"},
            {"numberOfThreads", "--number-of-threads", "--numberofthreads"},
            {"numberOfSockets", "--number-of-sockets", "--numberofsockets"},
            {"delay", "--delay"},
            {"load", "--load"},
            {"memFree", "--memfree"},
            {"shell", "--shell"},
            {"tmpdir", "--tmpdir", "--tempdir"},
            {"progress", "--progress"},
            {"eta", "--eta"},
            {"bar", "--bar"},
            {"sshLogins", "-S", "--sshlogin"},
            {"sshLoginFiles", "--slf", "--sshloginfile"},
            {"ssh", "--ssh"},
            {"sshPersist", "--ssh-persist"},
            {"transferFiles", "--transferfile", "--tf", "--transfer-file", "--transfer-files", "--transferfiles"},
            {"transfer", "--transfer"},
            {"returnFiles", "--return"},
            {"cleanup", "--cleanup"},
            {"trc", "--trc"},
            {"basefiles", "--basefile", "--bf"},
            {"workdir", "--workdir", "--wd", "--work-dir"},
            {"env", "--env"},
            {"nonall", "--nonall"},
            {"onall", "--onall"},
            {"filterHosts", "--filter-hosts", "--filterhosts", "--filter-host"},
            {"slurm", "--slurm"},
            {"slurmSubmit", "--slurm-submit"},
            {"plain", "--plain"},
            {"profile", "-J", "--profile"},
            {"gnu", "--gnu"},
            {"tollef", "--tollef"},
            {"retiredValued", "-B", "-U", "-W", "-H", "--sql"},
            {"retired", "-g", "-T", "-Y", "--ctrl-c", "--ctrlc", "--no-ctrl-c", "--no-ctrlc", "--noctrlc"},
            {"willCite", "--will-cite", "--no-notice", "--willcite", "--nn", "--nonotice"}
        };
    }

    @Override
    public List<List<String>> fastLongOptions() {
        return GnuOptions.LONG;
    }

    /** GNU parallel's long options with their other names, read once (only for a long option not spelled whole). */
    private static final class GnuOptions {
        static final List<List<String>> LONG = read();

        private static List<List<String>> read() {
            try (InputStream in = ParCommand.class.getResourceAsStream("gnu-parallel-options.txt")) {
                List<List<String>> groups = new ArrayList<>();
                for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                    if (!line.isBlank() && !line.startsWith("#")) {
                        groups.add(List.of(line.strip().split("\\|")));
                    }
                }
                return List.copyOf(groups);
            } catch (IOException | NullPointerException e) {
                throw new IllegalStateException("brisk's jar lacks GNU parallel's option list", e);
            }
        }
    }

    @Override
    public java.util.Map<String, Character> fastOptional() {
        return java.util.Map.of("replaceOptional", 's', "eofOptional", 's', "maxLines", 'f');
    }

    @Override
    public String fastOperands() {
        return "words";
    }
}
