// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static dev.brisk.cli.OptionTable.counted;
import static dev.brisk.cli.OptionTable.decimal;
import static dev.brisk.cli.OptionTable.flag;
import static dev.brisk.cli.OptionTable.integer;
import static dev.brisk.cli.OptionTable.list;
import static dev.brisk.cli.OptionTable.optional;
import static dev.brisk.cli.OptionTable.optionalNumber;
import static dev.brisk.cli.OptionTable.path;
import static dev.brisk.cli.OptionTable.value;

import dev.brisk.exec.ArgumentSource;
import dev.brisk.exec.ColumnRules;
import dev.brisk.exec.ExecException;
import dev.brisk.exec.InputRules;
import dev.brisk.exec.RemoteHost;
import dev.brisk.exec.RemoteOptions;
import dev.brisk.exec.Halt;
import dev.brisk.exec.ItemSource;
import dev.brisk.exec.JobArgs;
import dev.brisk.exec.JobControls;
import dev.brisk.exec.JobOptions;
import dev.brisk.exec.JobRunner;
import dev.brisk.exec.OutputMode;
import dev.brisk.exec.PipeRecords;
import dev.brisk.exec.ReplacementNames;
import dev.brisk.exec.ResumeMode;
import dev.brisk.exec.RunSummary;
import dev.brisk.exec.Template;
import dev.brisk.exec.TermStep;
import dev.brisk.exec.TreeItems;
import dev.brisk.exec.internal.CpuTopology;
import dev.brisk.exec.internal.EarlyConnections;
import dev.brisk.exec.internal.ResultsDir;
import dev.brisk.exec.internal.SlurmHosts;
import dev.brisk.exec.internal.GroupedLines;
import dev.brisk.exec.internal.LineKey;
import dev.brisk.exec.internal.PipeArguments;
import dev.brisk.exec.internal.SlurmSubmit;
import dev.brisk.exec.internal.StreamSpread;
import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorStream;
import dev.brisk.internal.posix.Environ;
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
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code brisk par}: GNU parallel's command line over {@link JobRunner}. Parses the flags and
 * the {@code :::}/{@code ::::} input groups into {@link JobOptions} and an
 * {@link ArgumentSource}, runs, and maps the {@link RunSummary} to GNU parallel's exit status.
 *
 * <p>Over 500 lines because it declares every GNU parallel option brisk takes ({@link #OPTIONS},
 * each with its help text) and maps them to {@code JobOptions}.
 */
final class ParCommand {
    /** The command's description and footer in help and the man page (picocli's format). */
    private static final String[] DESCRIPTION = {
        "Run a command for each input item, several at once, on warm shells (GNU parallel compatible).",
        "Input: lines of stdin, -a FILE, ::: ARGS, :::: FILES (:::+ and ::::+ link to the previous source),"
                + " or --walk DIR. Replacement strings: {} {.} {/} {//} {/.} {#} {%%} {N} {N.} {N/} {N//} {N/.};"
                + " {} is appended when none is given; values are shell-quoted."};
    private static final String[] FOOTER = {"", "Exit status: 0 all jobs succeeded; 1-100 that many jobs failed; 101 more"
            + " than 100 failed; with --halt ...,fail the failing job's status; 130 interrupted; 255 bad usage or input."};

    String jobs;
    boolean nul;
    String delimiter;
    List<String> argFiles = new ArrayList<>();
    String argSep;
    String argFileSep;
    List<String> walk = new ArrayList<>();
    String walkName;
    boolean link;
    String colsep;
    String trim;
    String header;
    String replace = "{}";
    String extensionReplace = "{.}";
    String basenameReplace = "{/}";
    String dirnameReplace = "{//}";
    String basenameExtensionReplace = "{/.}";
    String seqReplace = "{#}";
    String slotReplace = "{%}";
    String parens = "{==}";
    List<String> rpl = new ArrayList<>();
    boolean plus;
    String replaceOptional;
    int shellQuote;
    boolean quote;
    String eofString;
    String eofOptional;
    boolean noRunIfEmpty;
    String maxLinesL;
    String maxLines;
    int maxReplaceArgs = -1;
    /** -N as given (GNU's k, M... suffixes), read by {@link #xargsOptions}. */
    String maxReplaceArgsText;
    boolean exitIfTooLong;
    boolean xargs;
    boolean context;
    boolean multi;
    int maxArgs = -1;
    /** -n as given (GNU's k, M... suffixes), read by {@link #xargsOptions}. */
    String maxArgsText;
    String maxChars; // a size (1k, 2K): GNU parallel takes any and caps it
    boolean pipe;
    String block;
    String recStart;
    String recEnd;
    boolean regexp;
    boolean removeRecSep;
    String blockTimeout;
    boolean csv;
    boolean roundRobin;
    String groupBy;
    String bin;
    String shard;
    boolean tee;
    List<String> filters = new ArrayList<>();
    int recordLines;
    boolean cat;
    boolean fifo;
    boolean files;
    boolean pipePart;
    boolean keepOrder;
    boolean group;
    boolean lineBuffer;
    boolean ungroup;
    boolean tag;
    String tagString;
    String results;
    String halt;
    String retries; // N, or replacement strings giving each job's N (GNU's --retries {//})
    String timeout;
    String termSeq;
    Path joblog;
    boolean resume;
    boolean resumeFailed;
    boolean retryFailed;
    boolean dryRun;
    int verbose;
    boolean trace;
    boolean showLimits;
    boolean numberOfCores;
    boolean numberOfThreads;
    boolean numberOfSockets;
    double delay;
    /** --delay as given (seconds, or GNU's d h m s units), read into {@link #delay} by {@link #options}. */
    String delayText;
    String load;
    String memFree;
    String shell;
    Path tmpdir;
    boolean progress;
    boolean eta;
    boolean bar;
    List<String> sshLogins = new ArrayList<>();
    List<String> sshLoginFiles = new ArrayList<>();
    String ssh;
    String sshPersist;
    List<String> transferFiles = new ArrayList<>();
    boolean transfer;
    List<String> returnFiles = new ArrayList<>();
    boolean cleanup;
    List<String> trc = new ArrayList<>();
    List<String> basefiles = new ArrayList<>();
    String workdir;
    List<String> env = new ArrayList<>();
    boolean nonall;
    boolean onall;
    boolean filterHosts;
    boolean slurm;
    String slurmSubmit;
    boolean plain;
    List<String> profile = new ArrayList<>();
    boolean gnu;
    boolean tollef;
    String retiredValued;
    boolean retired;
    boolean willCite;
    String processSlotVar;
    Integer minVersion;
    boolean bug;
    boolean silent;
    String debug;
    String shellCompletion;
    String totalJobs;
    boolean skipFirstLine;
    boolean shuf;
    boolean noKeepOrder;
    boolean useCores;
    boolean useCpus;
    boolean useSockets;
    boolean maxLineLengthAllowed;
    boolean recordEnv;
    List<String> linkInputSource = new ArrayList<>();
    String parset;
    String test;
    boolean pipeMeansArgFiles;
    boolean embed;
    boolean session;
    boolean compress;
    String compressProgram;
    String decompressProgram;
    boolean color;
    boolean ctag;
    String ctagString;
    boolean colorFailed;
    boolean latestLine;
    boolean tty;
    boolean openTty;
    boolean interactive;
    List<String> templates = new ArrayList<>();
    String limit;
    String memSuspend;
    boolean noSwap;
    Integer nice;
    List<String> words = new ArrayList<>();
    boolean shebang;
    boolean semaphore;
    String semaphoreName;
    String semaphoreTimeout;
    boolean background;
    boolean foreground;
    boolean waitAll;
    double sshDelay;
    boolean controlMaster;
    boolean hostGroups;
    boolean tmux;
    String unsupported; // the option brisk par refuses (SQL, tmux), see #UNSUPPORTED

    /**
     * {@code brisk par}'s options, each declared once: the fast parser, help, the man page,
     * completions and docs/PAR.md's list are derived from it ({@link OptionTable}). Read as GNU
     * parallel's Getopt::Long reads them, with its abbreviations ({@link GnuOptions}).
     */
    static final OptionTable<ParCommand> OPTIONS = new OptionTable<>("brisk par", List.<OptionTable.Row<ParCommand>>of(
        value("-j --jobs -P --max-procs --maxprocs", "N", (c, v) -> c.jobs = v, "Jobs at once: N, N%% of cores, +N, -N, 0 (many). Default: one per core."),
        flag("-0 --null", c -> c.nul = true, "Input items end with NUL, not newline."),
        value("-d --delimiter", "DELIM", (c, v) -> c.delimiter = v, "Input items end with DELIM (\\n \\t \\r \\0 \\NNN understood; also splits ::: values)."),
        list("-a --arg-file --argfile", "FILE", (c, v) -> c.argFiles.add(v), "Read input items from FILE (repeatable: each is a source)."),
        value("--arg-sep --argsep", "SEP", (c, v) -> c.argSep = v, "Use SEP instead of ::: (SEP+ instead of :::+)."),
        value("--arg-file-sep --argfilesep", "SEP", (c, v) -> c.argFileSep = v, "Use SEP instead of :::: (SEP+ instead of ::::+)."),
        list("--walk", "DIR", (c, v) -> c.walk.add(v), "Input items are the regular files under DIR (repeatable)."),
        value("--walk-name", "GLOB", (c, v) -> c.walkName = v, "With --walk: only files whose name matches GLOB (find -name)."),
        flag("--link --xapply", c -> c.link = true, "Link the input sources instead of combining them (a shorter one starts again until the longest ends)."),
        value("-C --colsep --col-sep", "REGEX", (c, v) -> c.colsep = v, "Split each input item into columns {1} {2}... at REGEX (implies --trim lr)."),
        value("--trim", "n|l|r|lr|rl", (c, v) -> c.trim = v, "Trim white space of each argument: none, left, right, both (default n; lr with --colsep)."),
        value("--header", "REGEX", (c, v) -> c.header = v, "The first item of each source names its columns (split at --colsep, default TAB): {name}; 0: only file names."),
        value("-I", "STR", (c, v) -> c.replace = v, "Use STR instead of {}."),
        optional("-i --replace", "STR", (c, v) -> c.replaceOptional = v, "xargs's -i: use STR (attached, or the next word unless it starts with -) instead of {}; no STR: {}."),
        value("--extensionreplace --er", "STR", (c, v) -> c.extensionReplace = v, "Use STR instead of {.} (and {N.} with it when STR starts with {: {N...})."),
        value("--basenamereplace --bnr", "STR", (c, v) -> c.basenameReplace = v, "Use STR instead of {/}."),
        value("--dirnamereplace --dnr", "STR", (c, v) -> c.dirnameReplace = v, "Use STR instead of {//}."),
        value("--basenameextensionreplace --bner", "STR", (c, v) -> c.basenameExtensionReplace = v, "Use STR instead of {/.}."),
        value("--seqreplace", "STR", (c, v) -> c.seqReplace = v, "Use STR instead of {#}."),
        value("--slotreplace", "STR", (c, v) -> c.slotReplace = v, "Use STR instead of {%%}."),
        value("--parens", "STR", (c, v) -> c.parens = v, "A Perl expression is between STR's first half and its second half instead of {= and =} (default {==})."),
        counted("--shellquote --shell-quote --shell_quote", c -> c.shellQuote++, "Print each command shell-quoted (once per --shellquote) instead of running it."),
        list("--rpl", "'TAG PERL'", (c, v) -> c.rpl.add(v), "Define the replacement string TAG as GNU parallel's perl code (TAG may hold (regex) groups, whose matches the code reads: docs/PAR.md; code starting with 1: once per job)."),
        flag("--plus", c -> c.plus = true, "Add GNU parallel's --plus replacement strings: {..} {...} {/..} {+/} {+.} {##} {0#} {:-str} {%%regex} {/re/str} ..."),
        flag("-q --quote", c -> c.quote = true, "Each word of the command stays one word (its blanks, quotes, ; are no shell syntax)."),
        value("-E", "EOF", (c, v) -> c.eofString = v, "Input ends at the item EOF (each input source)."),
        optional("-e --eof", "EOF", (c, v) -> c.eofOptional = v, "As -E (the value attached, or the next word unless it starts with -); no EOF: none."),
        flag("-r --no-run-if-empty --norunifempty", c -> c.noRunIfEmpty = true, "Leave out input items of white space only."),
        value("-L", "N", (c, v) -> c.maxLinesL = v, "N input lines per job, each a word repeated as -X repeats it; a line ending in white space goes on in the next."),
        optionalNumber("-l --max-lines --maxlines", "N", (c, v) -> c.maxLines = v, "N input lines per job (default 1), inserted as -n inserts them; a line ending in white space goes on in the next."),
        value("-N --max-replace-args --maxreplaceargs", "N", (c, v) -> c.maxReplaceArgsText = v, "At most N items per job, the word holding {} repeated for each ({1} {2}... the job's items)."),
        flag("-x --exit", c -> c.exitIfTooLong = true, "xargs's -x: stop if a command would be too long (brisk always does)."),
        flag("--xargs", c -> c.xargs = true, "Many items per job, as many as -s allows, space-separated in place of {}."),
        flag("-X", c -> c.context = true, "Many items per job, the word holding {} repeated for each."),
        flag("-m", c -> c.multi = true, "Many items per job, space-separated in place of {}."),
        value("-n --max-args --maxargs", "N", (c, v) -> c.maxArgsText = v, "At most N items per job (0: one item read per job, none inserted)."),
        value("-s --max-chars --maxchars", "N", (c, v) -> c.maxChars = v, "Commands shorter than N bytes (1k, 2K: sizes); -m and -X pack theirs up to it."),
        flag("--pipe --spreadstdin", c -> c.pipe = true, "Give each job a block of input records on its stdin instead of as arguments."),
        value("--block --block-size --blocksize", "SIZE", (c, v) -> c.block = v, "With --pipe: blocks of about SIZE bytes (k, M, G suffixes; default 1M)."),
        value("--recstart", "STR", (c, v) -> c.recStart = v, "With --pipe: records start with STR (\\n \\t \\0 understood; default none)."),
        value("--recend", "STR", (c, v) -> c.recEnd = v, "With --pipe: records end with STR (default \\n)."),
        flag("--regexp --regex", c -> c.regexp = true, "With --pipe: --recstart and --recend are regular expressions."),
        flag("--remove-rec-sep --removerecsep --rrs", c -> c.removeRecSep = true, "With --pipe: take the --recend and --recstart between records (and at the block's ends) out of each block."),
        value("--block-timeout --blocktimeout --bt", "SECS", (c, v) -> c.blockTimeout = v, "With --pipe: a block that takes more than SECS seconds (s m h d units) to read goes as far as it came."),
        flag("--round-robin --roundrobin --round", c -> c.roundRobin = true, "With --pipe: start -j jobs only, and give each block to whichever of them is ready for more (with -k: to each in turn)."),
        flag("--tee", c -> c.tee = true, "With --pipe: every job (one per input value, all at once) gets all of stdin."),
        value("--shard", "COL[ PERL]", (c, v) -> c.shard = v, "With --pipe: -j jobs, each line to the job its column COL (a number, or a name in the first line) hashes to, optionally after PERL code on $_."),
        value("--bin", "COL[ PERL]", (c, v) -> c.bin = v, "With --pipe: -j jobs, each line to job (its column COL, a number or a name in the first line, optionally after PERL code) modulo -j (0: the last)."),
        value("--group-by --groupby", "COL[ PERL]", (c, v) -> c.groupBy = v, "With --pipe: a record is the consecutive lines whose column COL (a number, or a name in the first line; optionally after PERL code) is the same."),
        flag("--csv", c -> c.csv = true, "Input items are CSV records: --colsep (default ,) is one character, \"quoted\" fields may hold it, \"\" and newlines."),
        list("--filter", "PERL", (c, v) -> c.filters.add(v), "Run only the jobs for which the Perl expression (replacement strings unquoted) is true; the others count as skipped (repeatable)."),
        flag("--pipepart --pipe-part", c -> c.pipePart = true, "As --pipe, the blocks read from the file of -a (a seekable file; default block: its size / jobs / 10)."),
        flag("--cat", c -> c.cat = true, "With --pipe: the job gets its block in a file, named by {} and $PARALLEL_TMP, instead of on stdin."),
        flag("--files --output-as-files --outputasfiles", c -> c.files = true, "Print the name of a file holding each job's stdout ($TMPDIR/parXXXXX.par, kept) instead of the output."),
        flag("--fifo", c -> c.fifo = true, "With --pipe: the job gets its block through a FIFO, named by {} and $PARALLEL_TMP, which it must read."),
        flag("-k --keep-order --keeporder", c -> c.keepOrder = true, "Print output in input order."),
        flag("--no-keep-order --nokeeporder --nok --no-k", c -> c.noKeepOrder = true, "Print output as jobs end, whatever -k says (wherever it stands)."),
        flag("--shuf", c -> c.shuf = true, "Run the jobs in a random order (reads all input first)."),
        flag("--group", c -> c.group = true, "Print each job's output whole when it ends (the default)."),
        flag("--line-buffer --lb --line-buffered --linebuffer --linebuffered", c -> c.lineBuffer = true, "Print whole lines as they come."),
        flag("-u --ungroup", c -> c.ungroup = true, "Print output as it comes; jobs may mix mid-line."),
        flag("--tag", c -> c.tag = true, "Prefix each output line with the job's arguments and a TAB."),
        value("--tagstring --tag-string", "STR", (c, v) -> c.tagString = v, "Prefix each output line with STR (replacement strings work) and a TAB."),
        value("--results --res --result", "DIR", (c, v) -> c.results = v, "Save each job's stdout, stderr and seq under DIR/1/ARG/... instead of printing; a DIR with replacement strings names the files (NAME, NAME.err, NAME.seq; NAME/ a directory); NAME.csv, .tsv, .json: one table of all jobs (-.csv: on stdout)."),
        value("--halt --halt-on-error --haltonerror", "WHEN", (c, v) -> c.halt = v, "now|soon,fail|success|done=N|P%%; or 0, 1, 2."),
        value("--retries", "N", (c, v) -> c.retries = v, "Run a failing job up to N times (replacement strings work)."),
        value("--timeout", "SECS|P%", (c, v) -> c.timeout = v, "Kill a job after SECS seconds, or P%% of the median runtime."),
        value("--term-seq --termseq", "SEQ", (c, v) -> c.termSeq = v, "Kill sequence: SIG,MS,... (default TERM,200,TERM,100,TERM,50,KILL,25)."),
        path("--joblog --jl", "FILE", (c, v) -> c.joblog = v, "Log each finished job to FILE (- for stdout), GNU parallel's columns."),
        flag("--resume", c -> c.resume = true, "With --joblog: skip the jobs the log lists."),
        flag("--resume-failed --resumefailed", c -> c.resumeFailed = true, "With --joblog: run again the jobs the log lists as failed, and new ones."),
        flag("--retry-failed --retryfailed", c -> c.retryFailed = true, "With --joblog: run again the failed commands of the log; no input read."),
        flag("--dry-run --dryrun --dr", c -> c.dryRun = true, "Print the commands instead of running them."),
        counted("-v", c -> c.verbose++, "Print each command before its output."),
        flag("-t --verbose", c -> c.trace = true, "Print each command on stderr as it starts."),
        flag("--show-limits --showlimits", c -> c.showLimits = true, "Print the command length limits, then run."),
        flag("--number-of-cpus --number-of-cores --numberofcpus --numberofcores", c -> c.numberOfCores = true, "Print the number of CPU cores and exit."),
        flag("--number-of-threads --numberofthreads", c -> c.numberOfThreads = true, "Print the number of CPU threads and exit."),
        flag("--number-of-sockets --numberofsockets", c -> c.numberOfSockets = true, "Print the number of CPU sockets and exit."),
        flag("--use-cores-instead-of-threads --usecoresinsteadofthreads", c -> c.useCores = true, "-j's CPUs (the default, N%%, +N, -N) are cores, not threads."),
        flag("--use-sockets-instead-of-threads --usesocketsinsteadofthreads", c -> c.useSockets = true, "-j's CPUs (the default, N%%, +N, -N) are sockets, not threads."),
        flag("--use-cpus-instead-of-cores --usecpusinsteadofcores", c -> c.useCpus = true, "Counts sockets for remote hosts in GNU parallel; here as there, no change to the CPUs of this machine."),
        flag("--max-line-length-allowed --maxlinelengthallowed", c -> c.maxLineLengthAllowed = true, "Print the longest command as GNU parallel measures it (bytes) and exit."),
        value("--process-slot-var --processslotvar", "VAR", (c, v) -> c.processSlotVar = v, "Each job's slot number less one in VAR instead of PARALLEL_JOBSLOT0 (a shell variable name)."),
        value("--total-jobs --totaljobs --total", "N", (c, v) -> c.totalJobs = v, "The number of jobs for --eta, --bar and {##}, instead of reading all input first."),
        flag("--skip-first-line --skipfirstline", c -> c.skipFirstLine = true, "Leave out the first input source's first item (with --pipe, stdin's first line; --pipepart, the file's)."),
        integer("--min-version --minversion", "VERSION", (c, v) -> c.minVersion = v, "Print the GNU parallel version whose command line brisk par takes (20221122); exit 0 if VERSION is not later, else 255."),
        flag("--silent", c -> c.silent = true, "Cancel -v: print no command before its output."),
        value("-D --debug", "WHAT", (c, v) -> c.debug = v, "Accepted for GNU parallel's debug output, which brisk does not print."),
        value("--shell-completion --shellcompletion", "bash|zsh|auto", (c, v) -> c.shellCompletion = v, "Print brisk's completion script for the shell (auto: $PARALLEL_SHELL's or $SHELL's) and exit."),
        flag("--record-env --recordenv", c -> c.recordEnv = true, "Write the names of the environment's variables to ignored_vars in the config directory (~/.parallel) and exit; --env _ copies all others."),
        flag("--bug", c -> c.bug = true, "Print GNU parallel's bug report request and exit 255 (a test of it)."),
        list("--linkinputsource --xapplyinputsource", "0|1", (c, v) -> c.linkInputSource.add(v), null),
        value("--_parset", "TYPE,NAMES", (c, v) -> c.parset = v, null),
        value("--_test", "X", (c, v) -> c.test = v, null),
        flag("--_pipe-means-argfiles", c -> c.pipeMeansArgFiles = true, null),
        flag("--embed", c -> c.embed = true, null),
        flag("--session", c -> c.session = true, null),
        value("--delay", "SECS", (c, v) -> c.delayText = v, "Start jobs at least SECS seconds apart (or 2m, 1h30m: d h m s units)."),
        value("--load", "MAX", (c, v) -> c.load = v, "Start no job while the load (the processes running now) is MAX or more (N%% of the cores, +N, -N: cores plus or minus N)."),
        value("--memfree", "SIZE", (c, v) -> c.memFree = v, "Start no job while less than SIZE memory is available (K M G T: 1024s; k m g t: 1000s)."),
        value("--shell", "SHELL", (c, v) -> c.shell = v, "Shell to run jobs (default: $PARALLEL_SHELL, else bash when the command names an exported bash function, else dash, else sh)."),
        path("--tmpdir --tempdir", "DIR", (c, v) -> c.tmpdir = v, "Where output larger than memory goes (default $TMPDIR or /tmp)."),
        flag("--progress", c -> c.progress = true, "Show progress on stderr: jobs running/completed, average seconds per job."),
        flag("--eta", c -> c.eta = true, "As --progress, with the estimated seconds left (reads all input first)."),
        flag("--bar", c -> c.bar = true, "Show a progress bar on stderr (reads all input first)."),
        list("-S --sshlogin", "[N/][USER@]HOST[:PORT]", (c, v) -> c.sshLogins.add(v), "Run jobs on these hosts over ssh (comma list, repeatable; : is this machine; N/ sets its slots)."),
        list("--slf --sshloginfile", "FILE", (c, v) -> c.sshLoginFiles.add(v), "Read sshlogins from FILE, one per line; re-read when it changes."),
        value("--ssh", "CMD", (c, v) -> c.ssh = v, "The command that opens a shell on a host (default: ssh)."),
        value("--ssh-persist", "SECONDS", (c, v) -> c.sshPersist = v, "Through the warm server, keep each ssh login up SECONDS after the run, for the next run to the same hosts (default: $BRISK_SSH_PERSIST, else 60; 0: off)."),
        list("--transferfile --tf --transfer-file --transfer-files --transferfiles", "FILE", (c, v) -> c.transferFiles.add(v), "Send FILE (a template, e.g. {}) to the host before the job."),
        flag("--transfer", c -> c.transfer = true, "Shorthand for --transferfile {}."),
        list("--return", "FILE", (c, v) -> c.returnFiles.add(v), "Fetch FILE (a template) from the host after the job."),
        flag("--cleanup", c -> c.cleanup = true, "Remove transferred and returned files from the host after the job."),
        list("--trc", "FILE", (c, v) -> c.trc.add(v), "Shorthand for --transfer --return FILE --cleanup."),
        list("--basefile --bf", "FILE", (c, v) -> c.basefiles.add(v), "Send FILE to each host once, before its first job."),
        value("--workdir --wd --work-dir", "DIR", (c, v) -> c.workdir = v, "Run the jobs in DIR, made if need be (... a directory of their own, removed after use; . the current one, on a remote host relative to home)."),
        list("--env", "VAR", (c, v) -> c.env.add(v), "Copy the variable VAR to the hosts' jobs."),
        flag("--nonall", c -> c.nonall = true, "Run the command, without arguments, once on every host."),
        flag("--onall", c -> c.onall = true, "Run all the jobs on every host."),
        flag("--filter-hosts --filterhosts --filter-host", c -> c.filterHosts = true, "Leave out hosts that cannot be reached, without a warning."),
        flag("--slurm", c -> c.slurm = true, "Run jobs on the nodes of the Slurm allocation this runs in (salloc, sbatch): one srun step per node, its CPUs as slots."),
        value("--slurm-submit", "SBATCH_OPTIONS", (c, v) -> c.slurmSubmit = v, "Submit this run as one Slurm batch job (sbatch SBATCH_OPTIONS) running --slurm, and wait for it, printing its output."),
        flag("--plain", c -> c.plain = true, "Leave the profiles and $PARALLEL out."),
        flag("--compress", c -> c.compress = true, "Compress held output with pzstd, lbzip2, ... (GNU's order; the first found): brisk holds it in memory and anonymous files, uncompressed; output is the same."),
        value("--compress-program --use-compress-program --usecompressprogram --compressprogram", "PRG", (c, v) -> c.compressProgram = v, "As --compress, with PRG (as --compress: the output is the same)."),
        value("--decompress-program --use-decompress-program --usedecompressprogram --decompressprogram", "PRG", (c, v) -> c.decompressProgram = v, "The decompressor of --compress-program (default: PRG -dc)."),
        flag("--color --colour", c -> c.color = true, "Colour each job's output lines (background+foreground by its sequence number), as GNU parallel."),
        flag("--ctag", c -> c.ctag = true, "--color --tag."),
        value("--ctag-string --ctagstring", "STR", (c, v) -> c.ctagString = v, "--color --tagstring STR."),
        flag("--color-failed --colour-failed --colorfailed --colourfailed --color-fail --colour-fail --colorfail --colourfail --cf", c -> c.colorFailed = true, "Colour the output lines of failed jobs white on red."),
        flag("--latest-line --latestline --ll", c -> c.latestLine = true, "Print whole lines as they come (as --line-buffer; GNU parallel redraws each job's latest line)."),
        flag("--tty", c -> c.tty = true, "Jobs read the terminal (/dev/tty); implies -j1 and -u unless -j or --group say otherwise."),
        flag("-o --open-tty", c -> c.openTty = true, "Jobs read the terminal (/dev/tty)."),
        flag("-p --interactive", c -> c.interactive = true, "Ask on the terminal before each job (CMD ?...); run it only on an answer starting with y."),
        list("--template --tmpl", "FILE=REPL", (c, v) -> c.templates.add(v), "Before each job write FILE's contents with the job's replacement strings to REPL (replacement strings too); --cleanup removes it after."),
        value("--limit", "'CMD ARGS'", (c, v) -> c.limit = v, "Before each start run CMD ARGS: 0 start the job, 1 wait, 2 wait and kill the youngest job."),
        value("--memsuspend", "SIZE", (c, v) -> c.memSuspend = v, "Start no job while less than SIZE (+ --memfree) memory is available (K M G T: 1024s; k m g t: 1000s)."),
        flag("--noswap", c -> c.noSwap = true, "Start no job while the machine swaps both in and out."),
        integer("--nice", "N", (c, v) -> c.nice = v, "Run jobs at niceness N (not below brisk's own)."),
        list("-J --profile", "PROFILE", (c, v) -> c.profile.add(v), "Read options from PROFILE (a path, or a name in ~/.parallel) instead of ~/.parallel/config."),
        flag("--shebang --hashbang", c -> c.shebang = true, "As the first word of a script's #! line (#!/path/brisk par --shebang OPTIONS COMMAND): the script's other lines are the input. --shebang-wrap OPTIONS PROGRAM there: each of the script's arguments is a job, PROGRAM SCRIPT ARG."),
        flag("--semaphore", c -> c.semaphore = true, "Run the command once, as GNU's sem: when one of the semaphore's -j slots (default 1) is free, shared by all calls with its name; in the background unless --fg."),
        value("--semaphore-name --semaphorename --id", "NAME", (c, v) -> c.semaphoreName = v, "The semaphore's name (implies --semaphore; default: the terminal, or 'not a tty')."),
        value("--semaphore-timeout --semaphoretimeout --st", "SECS", (c, v) -> c.semaphoreTimeout = v, "With --semaphore: after SECS seconds of waiting take the slot anyway; -SECS: give up (status 1)."),
        flag("--bg", c -> c.background = true, "With --semaphore: run the command in the background, once a slot is free (the default)."),
        flag("--fg", c -> c.foreground = true, "With --semaphore: run the command in the foreground and exit with its status."),
        flag("--wait", c -> c.waitAll = true, "With --semaphore: wait until no call holds a slot of the semaphore."),
        decimal("--ssh-delay --sshdelay", "SECS", (c, v) -> c.sshDelay = v, "Start ssh logins at least SECS seconds apart."),
        value("--rsync-opts --rsyncopts", "OPTS", (c, v) -> c.unsupported = "--rsync-opts", "Refused: brisk sends --transferfile/--return/--basefile files through its own agent on the ssh login, not rsync."),
        flag("-M --controlmaster", c -> c.controlMaster = true, "Share one ssh connection per host between the jobs (brisk always does: each host's login carries all its jobs)."),
        flag("--hgrp --hostgrp --hostgroup --hostgroups", c -> c.hostGroups = true, "Host groups: an argument ARG@G1+G2 is ARG, run only on the hosts of -S @G1/HOST or @G1+G2/HOST (any host when none is in them)."),
        value("--sql-master --sqlmaster", "DBURL", (c, v) -> c.unsupported = "--sqlmaster", "Refused: brisk par keeps no SQL job table (GNU parallel's needs Perl DBI and a database)."),
        value("--sql-worker --sqlworker", "DBURL", (c, v) -> c.unsupported = "--sqlworker", "Refused, as --sqlmaster."),
        value("--sql-and-worker --sqlandworker", "DBURL", (c, v) -> c.unsupported = "--sqlandworker", "Refused, as --sqlmaster."),
        flag("--tmux", c -> c.tmux = true, "Run each job in a window of its own of a tmux server (see its output with the tmux -S SOCKET attach told on stderr)."),
        flag("--tmux-pane --tmuxpane", c -> c.unsupported = "--tmuxpane", "Refused, as --tmux."),
        flag("--gnu", c -> c.gnu = true, null),
        flag("--tollef", c -> c.tollef = true, null),
        value("-B -U -W -H --sql", "<retiredValued>", (c, v) -> c.retiredValued = v, null),
        flag("-g -T -Y --ctrl-c --ctrlc --no-ctrl-c --no-ctrlc --noctrlc", c -> c.retired = true, null),
        flag("--will-cite --no-notice --willcite --nn --nonotice", c -> c.willCite = true, null)),
            "COMMAND", "Command and its arguments, then ::: ARGS / :::: FILES groups.", (c, w) -> c.words.add(w),
            c -> true, true, () -> GnuOptions.LONG);

    /** The {@code --rpl} definitions of this command line: GNU's {@code --plus} ones first, then the user's. */
    private List<String> rplDefinitions() {
        if (!plus) {
            return rpl;
        }
        List<String> all = new ArrayList<>(Template.plusDefinitions());
        all.addAll(rpl);
        return all;
    }

    /** The names of the options that take a value, for {@link #directReason}. */
    private static final java.util.Set<String> VALUED = OPTIONS.valued();

    /** picocli's model of {@code brisk par}, from {@link #OPTIONS}: for help, the version, usage errors and docs. */
    static CommandLine commandLine() {
        CommandSpec spec = CommandSpec.create().name("par").versionProvider(new Main.Version()).exitCodeOnInvalidInput(255);
        spec.usageMessage().description(DESCRIPTION).footer(FOOTER).sortOptions(false);
        return OPTIONS.commandLine(spec);
    }

    /**
     * The hosts a command line names, as {@link #connectEarly} starts them: its {@code -S}
     * values, its {@code --ssh} command, its {@code --ssh-persist} (null if none), whether it
     * says {@code --slurm}.
     */
    record EarlyHosts(List<String> logins, String ssh, String persist, boolean slurm) {}

    /**
     * The hosts whose logins {@link #connectEarly} starts for this parsed command line, or null
     * when it should start none: no {@code -S} or {@code --slurm}, or a run that logs in nowhere
     * ({@code --dry-run}, {@code --shellquote}, {@code --number-of-*}, {@code --slurm-submit},
     * a retired option, a refused one) or is refused with hosts ({@code --pipe}), and with
     * {@code --ssh-delay}, whose run spaces its logins itself.
     */
    EarlyHosts earlyHosts() {
        boolean logsIn = !dryRun && shellQuote == 0 && slurmSubmit == null && !pipe && sshDelay == 0 && unsupported == null

                && !(numberOfCores || numberOfThreads || numberOfSockets || retired || retiredValued != null || tollef && !gnu);
        if (!logsIn || sshLogins.isEmpty() && !slurm) {
            return null;
        }
        if (sshLogins.stream().anyMatch(ParHostGroups::named)) {
            return null; // host groups: the run reads them (RemoteHost.parse does not)
        }
        return new EarlyHosts(List.copyOf(sshLogins), sshCommand(ssh), sshPersist, slurm);
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
     * Starts the connections to this parsed command line's hosts ({@code -S}, {@code --slurm},
     * see {@link #earlyHosts}) before its input is read and its runner built
     * ({@link EarlyConnections#start}): an ssh login takes longer than all of that in a JVM of
     * its own, and a first remote job comes that much sooner.
     *
     * @return whether it started any (false: the run is local, or logs in nowhere)
     */
    boolean connectEarly() {
        EarlyHosts early = earlyHosts();
        if (early == null) {
            return false;
        }
        EarlyConnections.start(() -> {
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
     * one it cannot read goes to picocli ({@link #commandLine}), which reports bad usage
     * ({@code brisk par: MESSAGE}, status 255) and prints help and the version. Runs on the
     * calling thread; call it from a thread whose working directory is the caller's (the threads
     * it starts inherit it).
     */
    static int call(String[] given) {
        ParScript.Expanded script;
        try {
            script = ParScript.expand(given);
        } catch (IllegalArgumentException e) {
            PrintWriter err = writer(2);
            err.println("brisk par: " + e.getMessage());
            err.flush();
            return 255;
        }
        if (script.args() != given && RawArgs.Given.VALUE.isBound()) {
            // the words come from a #! line: the client's bytes are not the words
            return ScopedValue.where(RawArgs.Given.VALUE, List.<byte[]>of()).call(() -> call(script));
        }
        return call(script);
    }

    /** {@link #call(String[])} once a {@code #!} line's words are read ({@link ParScript}). */
    private static int call(ParScript.Expanded script) {
        String[] args = script.args();
        PrintWriter out = writer(1);
        PrintWriter err = writer(2);
        try {
            ParCommand fast = new ParCommand();
            fast.skipFirstLine = script.skipFirstLine();
            // as GNU parallel: the profiles' and $PARALLEL's words are read first, on their own;
            // those of them that are no options come before the command line's command
            String[] before;
            boolean fastParsed;
            try {
                before = ParProfiles.words(args, Caller.current()::getenv).toArray(String[]::new);
                fastParsed = GetoptParser.parse(OPTIONS, fast, before) && GetoptParser.parse(OPTIONS, fast, args);
            } catch (IllegalArgumentException e) {
                err.println("brisk par: " + e.getMessage()); // an ambiguous abbreviation, in Getopt::Long's words
                return 255;
            }
            if (fastParsed) {
                // a direct run pays the JVM's start in every call: ssh logins start before the
                // input is read and the runner built, or else the spawn calls are bound on another core meanwhile
                if (!fast.connectEarly() && Caller.current().self()) {
                    JobRunner.prepare();
                }
                return invoke(fast, err);
            }
            CommandLine cl = commandLine().setCommandName("brisk par");
            cl.setOut(out);
            cl.setErr(err);
            // GNU parallel reads options only before the command: everything after it is the command
            cl.setStopAtPositional(true);
            cl.setOverwrittenOptionsAllowed(true); // as GNU parallel: -0 ... -0, the last value counts
            String[] all = java.util.Arrays.copyOf(before, before.length + args.length);
            System.arraycopy(args, 0, all, before.length, args.length);
            ParCommand slow = new ParCommand();
            slow.skipFirstLine = script.skipFirstLine();
            try {
                Integer help = CommandLine.executeHelpRequest(OPTIONS.parse(cl, slow, all));
                if (help != null) {
                    return help;
                }
            } catch (CommandLine.ParameterException e) {
                err.println("brisk par: " + e.getMessage());
                return 255;
            }
            out.flush();
            return invoke(slow, err);
        } finally {
            EarlyConnections.drop(); // the connections no run took
            out.flush();
            err.flush();
        }
    }

    /** Runs a parsed command line: its status, or bad usage ({@code brisk par: MESSAGE}, 255) or another failure (1). */
    private static int invoke(ParCommand command, PrintWriter err) {
        try {
            return command.run();
        } catch (UsageError e) {
            err.println("brisk par: " + e.getMessage().replace("\n", "\nbrisk par: "));
            return 255;
        } catch (Exception e) {
            err.println("brisk par: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            return ExitCode.FAILURE.code();
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
    static String directReason(String[] given) {
        String[] args;
        try {
            args = ParScript.expand(given).args();
        } catch (IllegalArgumentException e) {
            return null; // the call says why
        }
        java.util.Set<String> valued = VALUED;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--") || !a.startsWith("-") || a.equals("-")) {
                return null; // the command (or :::, ::::): the options end here
            }
            String name = a.startsWith("--") && a.indexOf('=') > 0 ? a.substring(0, a.indexOf('=')) : a;
            if (name.startsWith("--") && name.length() >= 4 && ParSemaphore.OPTIONS.stream().anyMatch(o -> o.startsWith(name))) {
                return "par " + name + ": a semaphore's job inherits the caller's terminal and may outlive the call";
            }
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

    /**
     * The options that print something and end the run, in GNU parallel's order: their status,
     * or null when the command line has none.
     */
    private Integer informational() throws IOException {
        OutputStream out = DescriptorStream.stdout();
        OutputStream err = DescriptorStream.stderr();
        if (bug) {
            return ParInfo.bug(err);
        }
        if (shellCompletion != null) {
            return ParInfo.shellCompletion(shellCompletion, Caller.current()::getenv, out, err);
        }
        if (embed) {
            throw usage("--embed prints GNU parallel's own Perl source for a script to embed: brisk par has none (use GNU parallel's --embed)");
        }
        if (parset != null && !parset.startsWith("var,")) {
            throw usage("--_parset " + parset.split(",")[0] + ": brisk par's parset sets variables and arrays, not associative arrays (use GNU parallel's)");
        }
        if (numberOfSockets || numberOfCores || numberOfThreads) {
            CpuTopology cpus = topology();
            int n = numberOfSockets ? cpus.sockets() : numberOfCores ? cpus.cores() : cpus.threads();
            out.write((n + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return 0;
        }
        if (maxLineLengthAllowed) {
            return ParInfo.maxLineLength(JobOptions.LONGEST_COMMAND, out);
        }
        if (recordEnv) {
            return ParInfo.recordEnv(Caller.current().environment(), Caller.current()::getenv, err);
        }
        if (minVersion != null) {
            return ParInfo.minVersion(minVersion, out);
        }
        return null;
    }

    private static CpuTopology topology() {
        return CpuTopology.of(Path.of("/sys/devices/system/cpu"), Path.of("/proc/cpuinfo"));
    }

    private Integer run() throws IOException {
        Integer info = informational();
        if (info != null) {
            return info;
        }
        // as GNU parallel: --no-keep-order overrides -k, --silent -v, wherever they stand
        keepOrder &= !noKeepOrder;
        verbose = silent ? 0 : verbose;
        if (!env.isEmpty()) {
            envNames(); // --env _ without --record-env's file is an error, as GNU parallel's, remote or not
        }
        String refused = tollef && !gnu ? "--tollef has been retired.\nRemove --tollef or use --gnu to override --tollef."
                : retired || retiredValued != null ? RETIRED : null;
        if (refused != null) {
            OutputStream e = DescriptorStream.stderr();
            e.write(("brisk par: " + refused.replace("\n", "\nbrisk par: ") + "\n").getBytes(StandardCharsets.UTF_8));
            e.flush();
            return 255;
        }
        if (unsupported != null) {
            throw usage(unsupported + " is not supported: " + UNSUPPORTED.get(unsupported));
        }
        // as GNU's: --fg with --tmux is tmux's (brisk does not attach), not a semaphore's
        if (semaphore || semaphoreName != null || semaphoreTimeout != null || foreground && !tmux || background || waitAll) {
            return runSemaphore();
        }
        if (cat && fifo) {
            throw usage("--fifo cannot be combined with --cat.");
        }
        impliedOutputOptions();
        pipe |= cat || fifo || pipePart;
        InputRules rules = xargsOptions();
        try {
            names = new ReplacementNames(replace, extensionReplace, basenameReplace, dirnameReplace, seqReplace, slotReplace,
                    basenameExtensionReplace, parens);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        columns = columnRules();
        List<byte[]> raw = RawArgs.of(words);
        List<byte[]> command = new ArrayList<>();
        int i = 0;
        while (i < raw.size() && marker(raw.get(i)) == null) {
            command.add(raw.get(i++));
        }
        commandWords = command;
        byte[] delim = delimiterBytes();
        // the sources in GNU parallel's order: -a's, then :::'s and ::::'s; each marker's + links
        // the source at its place in that order to the one before (so -a shifts them, as in GNU's)
        List<ItemSource> sources = new ArrayList<>();
        List<Boolean> linkedToPrevious = new ArrayList<>();
        for (String l : linkInputSource) {
            // GNU parallel's internal --linkinputsource: its values come before those of the markers
            try {
                linkedToPrevious.add(Integer.parseInt(l.strip()) != 0);
            } catch (NumberFormatException e) {
                throw usage("Value \"" + l + "\" invalid for option linkinputsource (number expected)");
            }
        }
        List<String> fileNames = new ArrayList<>();
        List<List<ItemSource>> groups = new ArrayList<>();
        // as GNU parallel: --pipepart's jobs are the parts of every file, one file's after another's;
        // :::'s values are not read
        boolean parted = pipePart && !tee;
        List<ItemSource> parts = new ArrayList<>();
        try {
            for (String f : argFiles) {
                if (pipePart && tee) {
                    continue; // as GNU parallel: every --tee job reads the first -a file whole (teeInput)
                }
                if (parted) {
                    parts.add(fileParts(f));
                } else {
                    sources.add(fileSource(f, delim));
                }
                fileNames.add(f);
            }
            while (i < raw.size()) {
                String m = marker(raw.get(i++));
                List<byte[]> values = new ArrayList<>();
                while (i < raw.size() && marker(raw.get(i)) == null) {
                    values.add(raw.get(i++));
                }
                if (pipeMeansArgFiles && pipe && !m.startsWith("::::")) {
                    // a --shebang-wrap script's arguments under --pipe: argument files to GNU parallel
                    // 20221122, which --pipe does not read (its blocks come from stdin)
                    continue;
                }
                if (parted) {
                    for (byte[] f : m.startsWith("::::") ? values : List.<byte[]>of()) {
                        parts.add(fileParts(new String(f, StandardCharsets.UTF_8)));
                    }
                } else if (m.startsWith("::::")) {
                    for (byte[] f : values) {
                        String name = new String(f, StandardCharsets.UTF_8);
                        // as GNU parallel: a :::: file is an -a file, which --pipepart cuts into parts
                        sources.add(pipePart ? fileParts(name) : fileSource(name, delim));
                        fileNames.add(name);
                        linkedToPrevious.add(m.endsWith("+"));
                    }
                } else {
                    sources.add(ItemSource.split(values, delim)); // as GNU's: read back from a file of values and -d's
                    linkedToPrevious.add(m.endsWith("+"));
                }
            }
            if (parted) {
                sources.add(ItemSource.concat(parts));
            }
            for (String d : walk) {
                if (!Files.isDirectory(Path.of(d))) {
                    throw usage("--walk: not a directory: " + d);
                }
            }
        } catch (IOException e) {
            throw usage(e.getMessage());
        }
        if (slurmSubmit != null) {
            return submit(sources.isEmpty() && walk.isEmpty() || argFiles.contains("-")
                    || raw.stream().anyMatch(a -> a.length == 1 && a[0] == '-'));
        }
        if (skipFirstLine && pipe && !pipePart && !sources.isEmpty()) {
            sources.getFirst().next(); // as GNU parallel: the first input source's first item goes under --pipe too
        }
        StreamSpread.Mode spreadMode = ParSpread.mode(roundRobin, tee, shard, bin);
        // --pipepart --round-robin: as GNU parallel, one part per job slot (fileParts), no spreading
        if (spreadMode != null && (pipe || spreadMode != StreamSpread.Mode.ROUND_ROBIN)
                && !(pipePart && spreadMode == StreamSpread.Mode.ROUND_ROBIN)) {
            spreadOver(spreadMode, sources);
            spreading = pipe;
        }
        if (sources.isEmpty() && walk.isEmpty() && pipe && groupBy != null) {
            try {
                sources.add(new GroupedLines(DescriptorStream.stdin(), new LineKey(groupBy, ColumnRules.separator(
                        (colsep == null ? "\t" : colsep).getBytes(StandardCharsets.UTF_8)), LineKey.Pick.VALUE))
                        .blocks(pipeRecords(), this::warn));
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        boolean pipeArgs = pipe && !pipePart && !spreading && !sources.isEmpty() && walk.isEmpty() && groupBy == null;
        if (sources.isEmpty() && walk.isEmpty()) {
            try {
                sources.add(!pipe ? ItemSource.delimited(DescriptorStream.stdin(), delim) : stdinBlocks());
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        if (skipFirstLine && !pipe && !sources.isEmpty()) {
            sources.getFirst().next(); // as GNU parallel: the first source's first item (line, or up to -0's/-d's delimiter)
        }
        if (header != null && !pipe) {
            try {
                rename(ParColumns.header(header, colsep, sources, fileNames, names.parensLeft(), names.parensRight()), command);
            } catch (IOException | IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        for (int k = 0; k < sources.size(); k++) {
            if (k < linkedToPrevious.size() && linkedToPrevious.get(k) && !groups.isEmpty()) {
                groups.getLast().add(sources.get(k));
            } else {
                groups.add(new ArrayList<>(List.of(sources.get(k))));
            }
        }
        for (String d : walk) {
            groups.add(new ArrayList<>(List.of(TreeItems.files(Path.of(d),
                    walkName == null ? List.of() : List.of("-name", walkName), DescriptorStream.stderr()))));
        }
        for (List<ItemSource> g : groups) {
            if (csv && !pipe) {
                g.replaceAll(s -> ColumnRules.csvRecords(s, delim));
            }
            g.replaceAll(rules::apply);
        }
        if (link && groups.size() > 1) {
            List<ItemSource> all = new ArrayList<>();
            groups.forEach(all::addAll);
            groups = List.of(all);
        }
        if (pipeArgs) {
            // as GNU parallel: the input sources give the jobs' arguments; the blocks come from stdin
            try {
                groups = PipeArguments.withBlocks(stdinBlocks(), groups, Math.max(1, maxArgs));
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        if (pipe && command.isEmpty() && !spreadValues) {
            throw usage("--pipe/--pipepart must have a command to pipe into (e.g. 'cat').");
        }
        Template template;
        try {
            // as GNU parallel: --pipe --tee without a command runs each value as the command
            byte[] text = command.isEmpty() ? (spreadValues ? new byte[] {'{', '}'} : null) : quote ? Template.quotedWords(command, names, rplDefinitions()) : join(command);
            // as GNU parallel: a command whose first word holds a replacement string ({}, my_{= s/_// =}) takes values unquoted
            Template.Quoting quoting = text != null && !quote
                    && Template.parse(text, names, Template.Quoting.SHELL, false, rplDefinitions()).commandIsReplacement()
                    ? Template.Quoting.RAW : Template.Quoting.SHELL;
            if (text != null && (tty || openTty)) {
                text = concat(TTY_INPUT, text);
            }
            if (text != null && streams != null) {
                text = ParSpread.reading(streams, text);
            }
            if (workdir != null && sshLogins.isEmpty() && sshLoginFiles.isEmpty() && !slurm && !nonall && !onall) {
                if (text == null) {
                    quoting = Template.Quoting.RAW; // the input item is the command
                }
                text = inWorkdir(text == null ? replace.getBytes(StandardCharsets.UTF_8) : implied(text));
            }
            if (parset != null) {
                if (text == null) {
                    quoting = Template.Quoting.RAW; // the input item is the command
                }
                text = intoVariable(text == null ? replace.getBytes(StandardCharsets.UTF_8) : implied(text));
            }
            template = text == null
                    ? Template.parse("{}".getBytes(StandardCharsets.US_ASCII), "{}", Template.Quoting.RAW)
                    : tmux ? Template.parse(inTmux(implied(cat || fifo ? throughTempFile(text) : text)), names, quoting, false,
                            rplDefinitions())
                    : files ? Template.parse(intoFile(cat || fifo ? throughTempFile(text) : text), names, quoting, false,
                            rplDefinitions())
                    : Template.parse(cat || fifo ? throughTempFile(text) : text, names, quoting, !pipe && !nonall,
                            rplDefinitions());
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        OutputStream out = DescriptorStream.stdout();
        OutputStream err = DescriptorStream.stderr();
        JobOptions options = options(err);
        if (showLimits) {
            // GNU parallel's report: the longest command, the longest brisk builds; then the run goes on
            out.write(("Maximal size of command: " + JobOptions.LONGEST_COMMAND + "\nMaximal usable size of command: "
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
            if (streams != null) {
                streams.close();
            }
        }
    }

    /** {@code --round-robin}, {@code --tee}, {@code --shard}, {@code --bin}: the run's input spread over its jobs, or null. */
    private StreamSpread streams;
    /** Whether the jobs read {@link #streams} (or would, but for {@code --dry-run}): each job one item, no block. */
    private boolean spreading;
    /** Whether {@link #streams}' jobs are the values of the input sources, one job each ({@code --tee}, {@code --shard}, {@code --bin}). */
    private boolean spreadValues;

    /**
     * Sets up {@code mode} ({@link ParSpread}): with {@code --pipe} the jobs read stdin through
     * {@link #streams} (the {@code :::} values, if any, are the jobs, else {@code -j} of them);
     * without it, as GNU parallel, {@code --tee}, {@code --shard} and {@code --bin} only refuse
     * more jobs than {@code -j} runs at once.
     */
    private void spreadOver(StreamSpread.Mode mode, List<ItemSource> sources) throws IOException {
        if (roundRobin && retries != null && (retryCount() > 0 || retriesTemplate() != null)) {
            throw usage("--retries cannot be combined with --roundrobin.");
        }
        int slots = jobs == null ? Runtime.getRuntime().availableProcessors() : parseJobs(jobs);
        long values = -1;
        if (mode != StreamSpread.Mode.ROUND_ROBIN && (!sources.isEmpty() || !pipe)) {
            if (sources.isEmpty()) {
                sources.add(ItemSource.delimited(DescriptorStream.stdin(), delimiterBytes()));
            }
            values = 1;
            long longest = 0;
            for (int k = 0; k < sources.size(); k++) {
                List<byte[]> all = sources.get(k).readAll();
                sources.get(k).close();
                sources.set(k, ItemSource.of(all));
                values *= all.size();
                longest = Math.max(longest, all.size());
            }
            values = link ? longest : values;
            spreadValues = pipe;
            if (values > slots) {
                throw usage(tee ? "--tee requires --jobs to be higher. Try --jobs 0."
                        : (shard != null ? "--shard" : "--bin") + " requires --jobs to be higher than the number of\narguments. Increase --jobs.");
            }
        }
        if (!pipe || dryRun || shellQuote > 0) {
            return; // nothing runs: the commands print as given
        }
        Path dir = temporaryDirectory();
        try {
            // as GNU parallel's spreadstdin: --round-robin's input past --skip-first-line's line, its header before each job's first block
            boolean robin = mode == StreamSpread.Mode.ROUND_ROBIN;
            streams = ParSpread.start(robin ? skippingFirstLine(teeInput()) : teeInput(), mode, new StreamSpread.RoundRobin(
                    keepOrder ? StreamSpread.Turn.IN_TURN : StreamSpread.Turn.AS_READY, robin ? header : null),
                    values >= 0 ? (int) values : slots, pipeRecords(), shard, bin, colsep, dir, this::warn);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (values < 0) {
            sources.add(streams.items());
        }
    }

    /** What {@link #streams} spread: stdin, or with {@code --pipepart --tee} the first {@code -a} file. */
    private InputStream teeInput() throws IOException {
        if (!(pipePart && tee) || argFiles.isEmpty()) {
            return DescriptorStream.stdin();
        }
        try {
            return openInput(argFiles.getFirst());
        } catch (IOException e) {
            throw usage(e.getMessage());
        }
    }

    /** Where brisk par's temporary files go: {@code --tmpdir}, else {@code $TMPDIR}, else {@code /tmp}. */
    private Path temporaryDirectory() {
        Path env = Environ.temporaryDirectory();
        return tmpdir != null ? tmpdir : env != null ? env : Path.of("/tmp");
    }

    /** {@code --semaphore} and the options that imply it: the command once, as GNU's sem ({@link ParSemaphore}). */
    private int runSemaphore() throws IOException {
        if (!Caller.current().self()) {
            // directReason sends a command line's own --semaphore to a JVM of its own; not $PARALLEL's or a profile's
            throw usage("--semaphore from $PARALLEL or a profile runs only without the warm server (BRISK_DAEMON=0)");
        }
        if (argFiles.size() > 1) {
            throw usage("A semaphore cannot take input from more files");
        }
        if (foreground && background) {
            throw usage("--fg and --bg exclude each other");
        }
        List<byte[]> command = new ArrayList<>();
        for (byte[] w : RawArgs.of(words)) {
            if (marker(w) != null) {
                break;
            }
            command.add(w);
        }
        commandWords = command;
        // as GNU's: --wait's command is true, whatever the command line says
        byte[] text = waitAll ? "true".getBytes(StandardCharsets.US_ASCII)
                : quote ? Template.quotedWords(command, names, rplDefinitions()) : join(command);
        byte[] rendered;
        try {
            Template t = Template.parse(text, replace, Template.Quoting.SHELL, false, rplDefinitions());
            if (t.usesPerl()) {
                t.perlContext(1, 1);
            }
            rendered = t.render(new JobArgs(List.of(List.of()), 1, 1), Template.Batching.NONE);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        double timeoutSecs = 0;
        if (semaphoreTimeout != null) {
            // as GNU's: the number the value starts with (Perl's reading of "10s" is 10)
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\s*([-+]?[0-9]*\\.?[0-9]+)").matcher(semaphoreTimeout);
            timeoutSecs = m.lookingAt() ? Double.parseDouble(m.group(1)) : 0;
        }
        String chosen = jobShell();
        Caller caller = Caller.current();
        Path home = null;
        for (String d : new String[] {caller.getenv("PARALLEL_HOME"), caller.getenv("XDG_CACHE_HOME") + "/parallel"}) {
            if (home == null && d != null && !d.isEmpty() && Files.isDirectory(Path.of(d))) {
                home = Path.of(d);
            }
        }
        if (home == null) {
            home = Path.of(caller.getenv("HOME") == null ? "/" : caller.getenv("HOME"), ".parallel");
        }
        if (verbose > 0) {
            // as GNU's sem: the command as run, with (not under --quote) the blank of its empty argument
            OutputStream out = DescriptorStream.stdout();
            out.write(concat(rendered, (quote ? "\n" : " \n").getBytes(StandardCharsets.US_ASCII)));
            out.flush();
        }
        // output grouped as a job's, unless -u/--lb: GNU's sem prints it when the job has ended
        impliedOutputOptions();
        byte[] tagged = tag && tagString == null ? new byte[0] : null; // --tag: the job's one argument, empty
        if (tagString != null) {
            try {
                tagged = Template.parse(ParColumns.unquotePrintf(tagString).getBytes(StandardCharsets.UTF_8), names,
                        Template.Quoting.RAW, false, rplDefinitions()).render(new JobArgs(List.of(List.of()), 1, 1), Template.Batching.NONE);
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        ParSemaphore.Request r = new ParSemaphore.Request(rendered, chosen == null || chosen.isEmpty() ? "/bin/sh" : chosen,
                semaphoreName != null ? semaphoreName : ParSemaphore.terminalName(), jobs == null ? 1 : parseJobs(jobs),
                timeoutSecs, foreground, argFiles.isEmpty() ? null : Path.of(argFiles.getFirst()), home,
                !ungroup && !lineBuffer, tagged, temporaryDirectory());
        try {
            return ParSemaphore.run(r, DescriptorStream.stderr());
        } catch (ParSemaphore.BadTmpdir e) {
            throw usage(e.getMessage()); // as brisk par's own --tmpdir: one line, 255
        }
    }

    /**
     * {@code --tty} and {@code -o}: a job reads the terminal when there is one (GNU parallel
     * opens {@code /dev/tty} for it), else {@code /dev/null} as other jobs; before the command's text.
     */
    private static final byte[] TTY_INPUT = "{ true </dev/tty; } 2>/dev/null && exec </dev/tty; "
            .getBytes(StandardCharsets.US_ASCII);

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /**
     * What GNU parallel's output options imply: {@code --ctag} is {@code --color --tag},
     * {@code --ctag-string} {@code --color --tagstring}; {@code --latest-line} prints lines as
     * {@code --line-buffer}; {@code --tty} means {@code -j1} and {@code -u} unless {@code -j} or
     * {@code --group} say otherwise.
     */
    private void impliedOutputOptions() {
        tag |= ctag;
        if (ctagString != null && tagString == null) {
            tagString = ctagString;
        }
        color |= ctag || ctagString != null;
        if (latestLine && !ungroup) {
            lineBuffer = true;
        }
        if (tee && jobs == null) {
            jobs = "0"; // as GNU parallel: every --tee job runs at once
        }
        if (tty) {
            jobs = jobs == null ? "1" : jobs;
            ungroup |= !group && !lineBuffer;
        }
    }

    /** {@code --header}: the columns' names in the command and the options that take replacement strings become {N}. */
    private void rename(ParColumns.Header h, List<byte[]> command) {
        command.replaceAll(h::rewrite);
        tagString = tagString == null ? null : h.rewrite(tagString);
        results = results == null ? null : h.rewrite(results);
        columnNames = h;
        workdir = workdir == null ? null : h.rewrite(workdir);
        List.of(returnFiles, transferFiles, trc).forEach(l -> l.replaceAll(h::rewrite));
    }

    /** Runs the jobs once the input, options and streams are ready: on every host, or as a {@link JobRunner} runs them. */
    private int runAll(JobOptions options, List<List<ItemSource>> groups, Template template, byte[] delim,
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
        long given = totalJobs();
        if (pipe && (shuf || given < 0 && (eta || bar || template.usesTotalJobs()))) {
            throw usage("--pipe is incompatible with --eta/--bar/--shuf");
        }
        ParResults.Format table = resultsTable();
        boolean rowsOnStdout = table != null && ParResults.toStdout(results);
        OutputStream rowsOut = null;
        if (table != null) {
            try {
                rowsOut = rowsOnStdout ? out : ResultsDir.create(results.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw usage("Cannot open results file `" + results + "': " + e.getMessage());
            }
        }
        // --results NAME.csv: the jobs' output goes into its rows, not to stdout (nor, for -.csv, stderr)
        JobRunner runner = new JobRunner(options, template, table != null ? null : out,
                rowsOnStdout ? OutputStream.nullOutputStream() : err);
        if (table != null) {
            runner.listener(new ParResults(table, rowsOut));
        }
        if (template.usesPerl()) {
            // total_jobs() reads all input first, as in GNU parallel, unless --total-jobs says it
            template.perlContext(!template.usesTotalJobs() ? 0 : given >= 0 ? given : Math.max(0, countJobs(groups)), options.jobs());
        }
        if (options.halt().percent() > 0 && !pipe && given < 0 && !eta && !bar) {
            countJobs(groups); // --halt P% is a share of all the jobs: the input is read first, as GNU parallel reads it
        }
        started(runner);
        Progress display = null;
        if (progress || eta || bar) {
            // as GNU parallel, --eta and --bar know the number of jobs: the input is read first, unless --total-jobs says it
            long total = given >= 0 ? given : eta || bar ? countJobs(groups) : -1;
            display = new Progress(err, bar ? Progress.Mode.BAR : eta ? Progress.Mode.ETA : Progress.Mode.PROGRESS,
                    total, options.jobs());
            runner.listener(display);
        }
        try {
            ArgumentSource input = link && groups.size() == 1 && groups.getFirst().size() > 1
                    ? ArgumentSource.recycled(groups.getFirst()) : ArgumentSource.of(groups);
            if (pipe) {
                input.emptyMeansNone(); // its blocks are no input source of GNU parallel's
            } else {
                input.nulReplaced(() -> List.of("A NUL character in the input was replaced with \\0.",
                        "NUL cannot be passed through in the argument list.", "Did you mean to use the --null option?")
                        .forEach(this::warn));
            }
            boolean array = parset != null && parsetNames().size() == 1;
            if (array) {
                out.write((parsetNames().getFirst() + "=(").getBytes(StandardCharsets.UTF_8));
            }
            RunSummary s = runner.run((shuf ? shuffled(input) : input).columns(columns));
            int status = allocationEnded.get() ? 255 : s.exitStatus();
            if (parset != null && !array && s.started() > parsetNames().size()) {
                status = 255; // as GNU parallel's: too few names (the job without one said so) ends the run with 255
            }
            if (parset != null) {
                // as GNU parallel's: the end of the shell code parset evals, which returns the status
                out.write(((array ? ")\n" : "") + "\nreturn " + status).getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            return status;
        } catch (ExecException e) {
            if (e.outputClosed()) {
                return 255; // the reader went away (| head): nothing to say
            }
            if (e.exitStatus() >= 0) {
                return e.exitStatus(); // a {= exit =}: GNU parallel itself exits so, without a word
            }
            err.write(("brisk par: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
            return 255;
        } finally {
            if (display != null) {
                display.end();
            }
        }
    }

    /** The names of the replacement strings: {@code -I}, {@code --er} ... {@code --parens} (set by {@link #run}). */
    private ReplacementNames names = ReplacementNames.DEFAULT;

    /** {@code --total-jobs}: the number of jobs it gives, or -1 without it (or with 0, as GNU parallel's Perl reads it). */
    private long totalJobs() {
        if (totalJobs == null) {
            return -1;
        }
        try {
            long n = (long) Double.parseDouble(totalJobs.strip());
            return n > 0 ? n : -1;
        } catch (NumberFormatException e) {
            throw usage("--total-jobs must be a number, got '" + totalJobs + "'");
        }
    }

    /** {@code --shuf}: every tuple of {@code input} read, then given in a random order (GNU parallel's Fisher-Yates). */
    private static ArgumentSource shuffled(ArgumentSource input) throws IOException {
        List<List<byte[]>> tuples = new ArrayList<>();
        try (input) {
            for (List<byte[]> t; (t = input.next()) != null; ) {
                tuples.add(t);
            }
        }
        java.util.Collections.shuffle(tuples);
        List<ItemSource> columns = new ArrayList<>();
        for (int k = 0; k < input.width(); k++) {
            List<byte[]> column = new ArrayList<>(tuples.size());
            for (List<byte[]> t : tuples) {
                column.add(t.get(k));
            }
            columns.add(ItemSource.of(column));
        }
        return ArgumentSource.of(List.of(columns));
    }

    /** The table {@code --results NAME.csv|.tsv|.json} asks for, or null. */
    private ParResults.Format resultsTable() {
        return results == null ? null : ParResults.formatOf(results);
    }

    /** {@code --colsep} and {@code --trim} (set by {@link #run}). */
    private ColumnRules columns = ColumnRules.NONE;

    /** GNU parallel's columns: --colsep's (--header's TAB without one), trimmed both sides with --colsep unless --trim says. */
    private ColumnRules columnRules() {
        String sep = colsep != null ? colsep : header != null && !pipe ? "\t" : null;
        if (pipe) {
            return ColumnRules.NONE; // a block is no argument: GNU parallel neither splits nor trims it
        }
        try {
            ColumnRules.Trim t = trim != null ? ColumnRules.Trim.of(trim) : colsep != null ? ColumnRules.Trim.BOTH : ColumnRules.Trim.NONE;
            if (csv) {
                byte[] c = (colsep == null || colsep.isEmpty() ? "," : colsep).getBytes(StandardCharsets.UTF_8);
                // as GNU parallel's Text::CSV: the separator is one character, a longer one's first
                return new ColumnRules(null, t, (char) (c[0] & 0xff));
            }
            return new ColumnRules(sep == null || pipe ? null : ColumnRules.separator(sep.getBytes(StandardCharsets.UTF_8)), t);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage().startsWith("not a valid") ? "--colsep: " + e.getMessage() : e.getMessage());
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
        boolean any = false;
        for (List<ItemSource> g : groups) {
            long shortest = Long.MAX_VALUE;
            long longest = 0;
            for (int k = 0; k < g.size(); k++) {
                ItemSource s = g.get(k);
                List<byte[]> all = s.readAll();
                s.close();
                g.set(k, ItemSource.of(all));
                shortest = Math.min(shortest, all.size());
                longest = Math.max(longest, all.size());
            }
            any |= (link ? longest : shortest) > 0;
            tuples *= Math.max(1, link ? longest : shortest); // as ArgumentSource: an empty group gives one tuple
        }
        tuples = any ? tuples : 0;
        if (pipe || spread || xargs) {
            return -1; // -X, -m: as many per job as the line holds
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
            err.write(("brisk: Warning: Value for option -s should be < " + JobOptions.DEFAULT_MAX_CHARS + ".\n")
                    .getBytes(StandardCharsets.UTF_8));
            chars = JobOptions.DEFAULT_MAX_CHARS;
        }
        try {
            JobOptions.Builder b = JobOptions.builder()
                    .batching(spreading ? Template.Batching.NONE : context ? Template.Batching.CONTEXT : multi ? Template.Batching.MULTI : Template.Batching.NONE)
                    .spread(spread && !spreading).trace(trace).noArgs(noArgs && !spreading)
                    .maxArgs(spreading ? 0 : maxArgs).maxChars((int) chars).keepOrder(keepOrder)
                    .output(lineBuffer ? OutputMode.LINE_BUFFER : ungroup ? OutputMode.UNGROUPED : OutputMode.GROUP)
                    .retries(retryCount()).joblog(joblog).dryRun(dryRun || shellQuote > 0).shellQuote(shellQuote).verbose(verbose > 0 && (!files || dryRun)).results(resultsTable() == null && results != null ? Path.of(results) : null)
                    .resume(resume ? ResumeMode.RESUME : resumeFailed ? ResumeMode.RESUME_FAILED
                            // as GNU parallel: --retry-failed with a log it cannot open (--joblog -) runs the input
                            : retryFailed && (joblog == null || Files.isReadable(Path.of(joblog.toString().replaceFirst("^\\+", ""))))
                            ? ResumeMode.RETRY_FAILED : ResumeMode.NONE);
            if (jobs != null) {
                b.jobs(parseJobs(jobs));
            } else if (useSockets || useCores) {
                b.jobs(cpus());
            }
            if (processSlotVar != null) {
                b.slotVariable(processSlotVar);
            }
            String chosen = jobShell();
            if (chosen != null && !chosen.isEmpty()) {
                b.shell(chosen).directExec(false);
            }
            if (tmpdir != null) {
                b.tmpdir(tmpdir);
            } else if (Environ.temporaryDirectory() != null) {
                b.tmpdir(Environ.temporaryDirectory());
            }
            if (tag || tagString != null) {
                String t = tagString != null ? ParColumns.unquotePrintf(tagString) : replace;
                b.tag(Template.parse(t.getBytes(StandardCharsets.UTF_8), names, Template.Quoting.RAW, false, List.of()));
            }
            if (halt != null) {
                b.halt(Halt.parse(halt));
            }
            if (timeout != null) {
                // GNU parallel's check: seconds (d h m s units too) or a percentage
                if (!timeout.matches("[0-9]+(\\.[0-9]+)?%?|(?i)([0-9]+(\\.[0-9]+)?[dhms])+")) {
                    throw usage("--timeout must be seconds or percentage.");
                }
                if (timeout.endsWith("%")) {
                    b.timeoutPercent(number(timeout.substring(0, timeout.length() - 1), "--timeout"));
                } else {
                    double secs = seconds(timeout, "--timeout");
                    if (!(secs > 0)) {
                        throw usage("--timeout must be positive, got " + timeout);
                    }
                    b.timeout(Duration.ofNanos((long) (secs * 1e9)));
                }
            }
            if (termSeq != null) {
                b.termSeq(TermStep.parse(termSeq));
            }
            if (load != null) {
                b.maxLoad(maxLoad(load));
            }
            if (memFree != null) {
                b.memFree(size(memFree, "--memfree"));
            }
            b.pipe(pipe && !spreading);
            List<Template> filterTemplates = new ArrayList<>();
            for (String f : filters) {
                filterTemplates.add(Template.parse(f.getBytes(StandardCharsets.UTF_8), names, Template.Quoting.RAW, false,
                        rplDefinitions()));
            }
            b.filters(filterTemplates);
            b.controls(controls());
            if (nice != null) {
                b.directExec(false); // its warm shell is reniced, and its jobs with it
            }
            if (delayText != null) {
                delay = seconds(delayText, "--delay");
            }
            b.delay(Duration.ofNanos((long) Math.floor(delay * 1e9))); // below zero however little: refused
            b.remote(remote());
            return b.build();
        } catch (IllegalArgumentException e) {
            throw usage(inFlags(e.getMessage()));
        }
    }

    /**
     * The jobs' shell: {@code --shell}, else {@code $PARALLEL_SHELL}, else bash when the caller
     * exports bash functions ({@code export -f}: GNU parallel's jobs run in the caller's shell, which
     * has them), else null for the default.
     */
    private String jobShell() {
        Caller c = Caller.current();
        String chosen = shell != null ? shell : c.getenv("PARALLEL_SHELL");
        if ((chosen == null || chosen.isEmpty()) && callsExportedFunction(c.environment())) {
            return "bash";
        }
        return chosen;
    }

    /** The command's words (empty: each input item is a command), for {@link #jobShell}. */
    private List<byte[]> commandWords = List.of();

    /**
     * Whether the command may call one of the bash functions {@code env} exports: it names one
     * as a word, or there is no command (the input items are the commands). A function that is
     * exported everywhere (Lmod's {@code module}, RHEL's {@code which}) does not take the jobs
     * that never name it off dash and their direct start.
     */
    private boolean callsExportedFunction(java.util.Map<String, String> env) {
        List<String> functions = dev.brisk.internal.shell.ShellSpec.exportedFunctionNames(env);
        if (functions.isEmpty()) {
            return false;
        }
        if (commandWords.isEmpty()) {
            return true;
        }
        String text = new String(join(commandWords), StandardCharsets.ISO_8859_1);
        for (String f : functions) {
            String word = "[A-Za-z0-9_.:/+@%-]";
            if (java.util.regex.Pattern.compile("(?<!" + word + ")" + java.util.regex.Pattern.quote(f) + "(?!" + word + ")").matcher(text).find()) {
                return true;
            }
        }
        return false;
    }

    /** {@code --header}'s names, which {@code --template}'s names and contents take too; null without. */
    private ParColumns.Header columnNames;

    /** GNU parallel's less common controls: colour, niceness, start gates, -p, --template, --results NAME. */
    private JobControls controls() throws IOException {
        List<JobControls.FileTemplate> files = new ArrayList<>();
        for (String t : templates) {
            int eq = t.indexOf('=');
            if (eq < 0) {
                throw usage("--template needs FILE=REPL, got '" + t + "'");
            }
            String file = t.substring(0, eq);
            byte[] content;
            try {
                content = Files.readAllBytes(Path.of(Caller.workingDirectory()).resolve(file));
            } catch (IOException e) {
                throw usage("Cannot open '" + file + "'.");
            }
            String name = t.substring(eq + 1);
            if (columnNames != null) {
                name = columnNames.rewrite(name);
                content = columnNames.rewrite(content);
            }
            files.add(new JobControls.FileTemplate(
                    Template.parse(name.getBytes(StandardCharsets.UTF_8), replace, Template.Quoting.RAW, false, rplDefinitions()),
                    Template.parse(content, replace, Template.Quoting.RAW, false, rplDefinitions())));
        }
        Template resultsName = null;
        if (results != null && ParResults.formatOf(results) == null) {
            Template t = Template.parse(results.getBytes(StandardCharsets.UTF_8), replace, Template.Quoting.RAW, false,
                    rplDefinitions());
            resultsName = t.hasReplacements() ? t : null;
        }
        return new JobControls(color, colorFailed, nice, limit, memSuspend == null ? 0 : size(memSuspend, "--memsuspend"),
                noSwap, interactive, resultsName, files, cleanup, compressor(), retriesTemplate(),
                columnNames == null ? List.of() : columnNames.titles());
    }

    /** {@code --retries N}'s N (0 without it, or when its value holds replacement strings). */
    private int retryCount() {
        if (retries == null || retriesTemplate() != null) {
            return 0;
        }
        try {
            return Integer.parseInt(retries);
        } catch (NumberFormatException e) {
            throw usage("Invalid value for option '--retries': '" + retries + "' is not an int");
        }
    }

    /** {@code --retries} with replacement strings: each job's N, as GNU parallel replaces them in it; else null. */
    private Template retriesTemplate() {
        if (retries == null || retries.matches("[+-]?[0-9]+")) {
            return null;
        }
        Template t = Template.parse(retries.getBytes(StandardCharsets.UTF_8), names, Template.Quoting.RAW, false,
                rplDefinitions());
        return t.hasReplacements() ? t : null;
    }

    /**
     * The options' words for a bad value (JobOptions, RemoteOptions and TermStep name their
     * components) and this command line's for it: GNU parallel's flags.
     */
    private static final String[][] FLAG_WORDS = {
        {"^maxArgs must not be negative", "-n must be at least 1"},
        {"^maxChars must be at least 1", "-s must be at least 1"},
        {"^shellQuote must not be negative", "--shellquote's count must not be negative"},
        {"^retries must not be negative", "--retries must not be negative"},
        {"^timeout must be positive", "--timeout must be positive"},
        {"^timeoutPercent must not be negative", "--timeout percentage must be positive"},
        {"^maxLoad must not be negative", "--load must not be negative"},
        {"^blockSize must be at least 1", "--block must be at least 1 byte"},
        {"^regexp: ", "--recstart/--recend: "},
        {"^memFree must not be negative", "--memfree must not be negative"},
        {"^termSeq needs at least one step$", "--term-seq needs at least one signal"},
        {"^millis must not be negative", "a --term-seq wait must not be negative"},
        {"^resume \\w+ needs a joblog$", "--resume, --resume-failed and --retry-failed need --joblog"},
        {"^env: ", "--env: "},
        {"^sshPersist must not be negative", "--ssh-persist must not be negative"},
        {"^sshDelay must not be negative", "--ssh-delay must not be negative"},
        {"^slotVariable: ", "--process-slot-var: "},
        {"^slotsPerHost must not be negative", "slots per host must not be negative"},
    };

    /** {@code message} of a bad option value in this command line's words ({@link #FLAG_WORDS}). */
    private String inFlags(String message) {
        if (message.startsWith("delay must not be negative")) {
            return "--delay must not be negative, got " + delay; // the value as given, not as a Duration
        }
        for (String[] w : FLAG_WORDS) {
            String m = message.replaceFirst(w[0], w[1]);
            if (!m.equals(message)) {
                return m;
            }
        }
        return message;
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
        if (maxArgsText != null) {
            maxArgs = signedCount(maxArgsText, "-n");
        }
        if (maxReplaceArgsText != null) {
            maxReplaceArgs = signedCount(maxReplaceArgsText, "-N");
        }
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
        recordLines = lines;
        String eof = eofOptional != null ? eofOptional : eofString;
        // --pipe's records know no end-of-input string (GNU parallel's read_block checks none)
        return new InputRules(pipe ? null : InputRules.endOfInput(eof), noRunIfEmpty, lines > 0 && !pipe);
    }

    /** The options brisk par refuses, and why: the error's words (README's and docs/PAR.md's differences). */
    private static final java.util.Map<String, String> UNSUPPORTED = java.util.Map.of(
            "--sqlmaster", "brisk par keeps no SQL table of jobs (GNU parallel's needs Perl's DBI and a database)",
            "--sqlworker", "brisk par keeps no SQL table of jobs (GNU parallel's needs Perl's DBI and a database)",
            "--sqlandworker", "brisk par keeps no SQL table of jobs (GNU parallel's needs Perl's DBI and a database)",
            "--tmuxpane", "brisk par does not run jobs in tmux panes",
            "--rsync-opts", "brisk par sends --transferfile, --return and --basefile files through its own agent on the"
                    + " ssh login, without rsync");

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
        List<String> logins = sshLogins;
        if (sshLogins.isEmpty() && sshLoginFiles.isEmpty() && nodes.isEmpty()) {
            if (!nonall && !onall) {
                return null;
            }
            logins = List.of(":"); // as GNU parallel: with no host named, --onall/--nonall run on this one (:)
        }
        String sshCommand = sshCommand(ssh);
        Duration persist = sshPersist(sshPersist);
        List<RemoteHost> hosts = new ArrayList<>(nodes);
        java.util.Map<String, java.util.Set<String>> groups = new java.util.HashMap<>();
        for (String l : logins) {
            ParHostGroups.add(l, sshCommand, persist, hosts, groups);
        }
        ParHostGroups.select(hosts, groups);
        if (pipe && hosts.stream().anyMatch(h -> !h.local()) || pipe && !sshLoginFiles.isEmpty()) {
            throw usage("--pipe does not run on remote hosts (-S, --slf) yet");
        }
        List<Template> tf = new ArrayList<>();
        List<String> transfers = new ArrayList<>(transferFiles);
        if (transfer || !trc.isEmpty()) {
            transfers.add(replace);
        }
        for (String t : transfers) {
            tf.add(Template.parse(t.getBytes(StandardCharsets.UTF_8), names, Template.Quoting.RAW, true, List.of()));
        }
        List<Template> ret = new ArrayList<>();
        List<String> returns = new ArrayList<>(returnFiles);
        returns.addAll(trc);
        for (String r : returns) {
            ret.add(Template.parse(r.getBytes(StandardCharsets.UTF_8), names, Template.Quoting.RAW, true, List.of()));
        }
        int perHost = 0;
        if (jobs != null && jobs.matches("[1-9][0-9]*")) {
            perHost = Integer.parseInt(jobs);
        }
        return new RemoteOptions(hosts, sshLoginFiles.stream().map(Path::of).toList(), sshCommand, tf, ret,
                cleanup || !trc.isEmpty(), basefiles.stream().map(Path::of).toList(), workdir, envNames(), filterHosts, perHost,
                persist, Duration.ofNanos((long) (sshDelay * 1e9)), hostGroups ? groups : null);
    }

    /** {@code --env}'s variables: split at commas, {@code _} all those {@code --record-env} did not record. */
    private List<String> envNames() {
        try {
            return ParInfo.envNames(env, Caller.current().environment(), Caller.current()::getenv);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
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

    /**
     * The CPUs -j counts (its default, N%, +N, -N): this machine's threads (those it may run
     * on), or with {@code --use-sockets-instead-of-threads} its sockets, with
     * {@code --use-cores-instead-of-threads} its cores, as GNU parallel counts them.
     */
    private int cpus() {
        return useSockets ? topology().sockets() : useCores ? topology().cores() : Runtime.getRuntime().availableProcessors();
    }

    private int parseJobs(String s) {
        int cores = cpus();
        try {
            int n;
            if (s.endsWith("%")) {
                n = (int) Math.ceil(cores * Double.parseDouble(s.substring(0, s.length() - 1)) / 100); // as GNU's ceil
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

    /**
     * {@code --pipepart -a FILE}'s blocks; a negative {@code --block -N} (GNU parallel's default
     * -10, -1 with {@code --round-robin}) N parts per job slot of all the files together.
     * Refused as GNU parallel refuses them: with {@code -N}, {@code -L} or {@code -l}, on a stream.
     */
    private ItemSource fileParts(String name) throws IOException {
        if (recordLines > 0 || maxArgs > 0) {
            throw usage("--pipepart is incompatible with --max-replace-args, --max-lines, and -L.");
        }
        Path f = Path.of(name);
        if (!Files.isRegularFile(f)) {
            throw usage(Files.exists(f) ? "--pipepart only works on seekable files, not streams/pipes.\n" + name
                    + " is not a seekable file." : "File not found: " + name);
        }
        // as GNU parallel: a negative --block -N (default -10, -1 with --round-robin) makes N parts
        // per job slot of all the files together
        String size = roundRobin ? "-1" : block == null ? "-10" : block.strip();
        PipeRecords r;
        if (size.startsWith("-")) {
            double perSlot = sizeValue(size.substring(1), size, "--block");
            long total = 0;
            for (String a : partFiles()) {
                total += Files.isRegularFile(Path.of(a)) ? Files.size(Path.of(a)) : 0;
            }
            long slots = jobs == null ? cpus() : parseJobs(jobs);
            r = pipeRecords(perSlot > 0 ? 1 + (long) (total / (double) slots / perSlot) : 1);
        } else {
            r = pipeRecords();
        }
        long skip = 0;
        if (skipFirstLine) {
            try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(f))) {
                for (int b = in.read(); b >= 0; b = in.read()) {
                    skip++;
                    if (b == '\n') {
                        break;
                    }
                }
            }
        }
        try {
            return header == null ? r.parts(f, skip) : r.parts(f, skip, header);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** The files {@code --pipepart} cuts: those of {@code -a} and of {@code ::::}. */
    private List<String> partFiles() {
        List<String> all = new ArrayList<>(argFiles);
        String m = null;
        for (byte[] w : RawArgs.of(words)) {
            String k = marker(w);
            if (k != null) {
                m = k;
            } else if (m != null && m.startsWith("::::")) {
                all.add(new String(w, StandardCharsets.UTF_8));
            }
        }
        return all;
    }

    /** {@code --pipe}'s blocks of stdin, past {@code --skip-first-line}'s line, {@code --header}'s before each. */
    private ItemSource stdinBlocks() throws IOException {
        InputStream in = skippingFirstLine(DescriptorStream.stdin());
        return header != null ? pipeRecords().blocks(in, header, this::warn) : pipeRecords().blocks(in, this::warn);
    }

    /** {@code in}, its first line read and left out with {@code --skip-first-line} (as GNU parallel, before any block). */
    private InputStream skippingFirstLine(InputStream in) throws IOException {
        if (skipFirstLine) {
            for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
                // the first line's bytes go
            }
        }
        return in;
    }

    /** {@code --pipe}'s records: {@code --block}, {@code --recstart}, {@code --recend}, {@code --regexp}, {@code -N}, {@code -L}. */
    private PipeRecords pipeRecords() {
        return pipeRecords(block == null ? 1 << 20 : size(block, "--block"));
    }

    /** {@link #pipeRecords()} with blocks of {@code blockSize} bytes. */
    private PipeRecords pipeRecords(long blockSize) {
        byte[] start = recStart == null ? new byte[0] : printfEscapes(recStart);
        byte[] end = recEnd == null ? (recStart == null ? new byte[] {'\n'} : new byte[0]) : printfEscapes(recEnd);
        try {
            return new PipeRecords(blockSize, start, end, regexp, maxArgs, recordLines,
                    removeRecSep, blockTimeout == null ? Duration.ZERO : Duration.ofSeconds(blockTimeout()), csv);
        } catch (IllegalArgumentException e) {
            throw usage(inFlags(e.getMessage()));
        }
    }

    /** {@code --block-timeout}'s whole seconds, at least 1: a number with GNU parallel's units ({@code 1m30s}, {@code 2h}). */
    private long blockTimeout() {
        String t = blockTimeout.strip();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]*\\.?[0-9]+)([smhdSMHD]?)").matcher(t);
        double seconds = 0;
        int at = 0;
        while (at < t.length() && m.find(at) && m.start() == at) {
            int unit = m.group(2).isEmpty() ? 1 : switch (Character.toLowerCase(m.group(2).charAt(0))) {
                case 'm' -> 60;
                case 'h' -> 3600;
                case 'd' -> 86400;
                default -> 1;
            };
            seconds += Double.parseDouble(m.group(1)) * unit;
            at = m.end();
        }
        if (at == 0 || at < t.length()) {
            throw usage("bad --block-timeout '" + blockTimeout + "': use seconds, or units such as 1m30s");
        }
        if ((long) seconds < 1) {
            throw usage("--block-timeout must be at least 1");
        }
        return (long) seconds;
    }

    /** GNU parallel's reading of --recstart/--recend: {@code \0 \r \n \t \' \" \\} are escapes, unless --regexp. */
    private byte[] printfEscapes(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (regexp) {
            return b;
        }
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < b.length; i++) {
            int k = i + 1 < b.length && b[i] == '\\' ? "0rnt'\"\\".indexOf(b[i + 1]) : -1;
            if (k >= 0) {
                o.write("\0\r\n\t'\"\\".charAt(k));
                i++;
            } else {
                o.write(b[i]);
            }
        }
        return o.toByteArray();
    }

    /** A warning on stderr, in GNU parallel's shape. */
    private void warn(String message) {
        try {
            OutputStream e = DescriptorStream.stderr();
            e.write(("brisk par: Warning: " + message + "\n").getBytes(StandardCharsets.UTF_8));
            e.flush();
        } catch (IOException ex) {
            // stderr gone: nothing to tell
        }
    }

    private long size(String s, String option) {
        double v = sizeValue(s, s, option);
        if (v < 0) {
            throw usage(option + " must not be negative, got " + s);
        }
        return (long) v;
    }

    /** {@code s}, a number with GNU parallel's k, K, M... suffixes, in bytes; a bad one named as {@code given}. */
    private double sizeValue(String s, String given, String option) {
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
            return Double.parseDouble(t) * unit;
        } catch (NumberFormatException e) {
            throw usage("bad " + option + " '" + given + "': use a size such as 500M or 2G");
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

    /**
     * Seconds as GNU parallel's {@code multiply_time_units} reads them: a number, or numbers
     * with the units d, h, m, s (any case) added up ({@code 1h30m}, {@code 0.5s}).
     */
    static double seconds(String s, String option) {
        String t = s.trim();
        if (!t.matches("(?i)([0-9]+(\\.[0-9]*)?[dhms])+")) {
            try {
                return Double.parseDouble(t);
            } catch (NumberFormatException e) {
                throw usage("bad " + option + " '" + s + "': use seconds, or units such as 1m30s");
            }
        }
        double total = 0;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)([0-9]+(?:\\.[0-9]*)?)([dhms])").matcher(t);
        while (m.find()) {
            double unit = switch (Character.toLowerCase(m.group(2).charAt(0))) {
                case 'd' -> 86400;
                case 'h' -> 3600;
                case 'm' -> 60;
                default -> 1;
            };
            total += Double.parseDouble(m.group(1)) * unit;
        }
        return total;
    }

    /** A count with GNU's suffixes and a sign ({@code -n -1} is refused later, in GNU's words). */
    private int signedCount(String s, String option) {
        String t = s.trim();
        return t.startsWith("-") ? -count(t.substring(1), option) : count(t, option);
    }

    /** {@code --load}: a load average, or as GNU parallel N% of the cores, +N or -N cores. */
    private double maxLoad(String s) {
        String t = s.trim();
        int cores = Runtime.getRuntime().availableProcessors();
        double v;
        if (t.matches("\\+[0-9]+")) {
            v = cores + Integer.parseInt(t.substring(1));
        } else if (t.matches("-[0-9]+")) {
            v = cores - Integer.parseInt(t.substring(1));
        } else if (t.matches("[0-9]+%")) {
            v = cores * Integer.parseInt(t.substring(0, t.length() - 1)) / 100.0;
        } else if (t.matches("[0-9]+(\\.[0-9]+)?")) {
            v = Double.parseDouble(t);
        } else {
            throw usage("Parsing of --load failed.");
        }
        return Math.max(0.01, v); // as GNU parallel: at least 0.01
    }

    /**
     * The bytes that end an input item: {@code -d}'s (with GNU parallel's {@code \t \n \r},
     * {@code \NNN} octal and {@code \N}), else NUL with {@code -0}, else newline.
     */
    private byte[] delimiterBytes() {
        if (delimiter == null) {
            return new byte[] {nul ? 0 : (byte) '\n'};
        }
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        String d = delimiter.replace("\\t", "\t").replace("\\n", "\n").replace("\\r", "\r");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\\\([0-7]{3}|\\d)").matcher(d);
        int from = 0;
        while (m.find()) {
            b.writeBytes(d.substring(from, m.start()).getBytes(StandardCharsets.UTF_8));
            String n = m.group(1);
            b.write(n.length() == 3 ? Integer.parseInt(n, 8) : n.charAt(0) < '8' ? n.charAt(0) - '0' : n.charAt(0));
            from = m.end();
        }
        b.writeBytes(d.substring(from).getBytes(StandardCharsets.UTF_8));
        if (b.size() == 0) {
            throw usage("-d must not be empty");
        }
        return b.toByteArray();
    }

    private ItemSource fileSource(String name, byte[] delim) throws IOException {
        if (name.equals("-")) {
            return ItemSource.delimited(DescriptorStream.stdin(), delim);
        }
        return ItemSource.delimited(openInput(name), delim);
    }

    /** The input file {@code name}, or an IOException that says why it cannot be read. */
    private static InputStream openInput(String name) throws IOException {
        Path p = Path.of(name);
        if (!Files.isReadable(p) || Files.isDirectory(p)) {
            throw new IOException("cannot open input file '" + name + "': " + (Files.exists(p)
                    ? (Files.isDirectory(p) ? "is a directory" : "permission denied") : "no such file"));
        }
        return Files.newInputStream(p);
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
     * {@code --cat} and {@code --fifo} as GNU parallel does them, in the job's shell: {@code {}}
     * is {@code $PARALLEL_TMP}, a file the block is written to before the command runs
     * ({@code --cat}), or a FIFO it is written into while the command runs in the background
     * ({@code --fifo}: a command that does not read it keeps the job waiting, as under GNU
     * parallel); the file goes when the command ends, and the job's status is the command's.
     */
    private byte[] throughTempFile(byte[] command) {
        String name = "\"" + tempDirWord() + "/parXXXXX\"";
        String head = cat ? "PARALLEL_TMP=$(mktemp " + name + ") || exit 255; export PARALLEL_TMP; cat >\"$PARALLEL_TMP\"; "
                : "PARALLEL_TMP=$(mktemp -u " + name + ") && mkfifo -m 600 \"$PARALLEL_TMP\" || exit 255; export PARALLEL_TMP; ( ";
        String tail = cat ? "\n_s=$?; rm -f \"$PARALLEL_TMP\"; exit $_s"
                : "\n) & cat >\"$PARALLEL_TMP\"; wait $!; _s=$?; rm -f \"$PARALLEL_TMP\"; exit $_s";
        String r = new String(replace.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        String body = new String(command, StandardCharsets.ISO_8859_1);
        // as GNU parallel: a command without {} gets the file's name at its end
        body = body.contains(r) ? body.replace(r, "\"$PARALLEL_TMP\"") : body + " \"$PARALLEL_TMP\"";
        return (head + body + tail).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The end of {@link #intoFile}'s here-document of a {@code -v} command: a line no command holds by chance. */
    private static final String VERBOSE_MARK = "7f3a9c2e51d84b06";

    /**
     * The directory of a job's temporary files, as its shell reads it between double quotes:
     * {@code --tmpdir}'s as given (as GNU parallel's), else $TMPDIR or /tmp.
     */
    private String tempDirWord() {
        return tmpdir == null ? "${TMPDIR:-/tmp}" : tmpdir.toString().replaceAll("([\\\\\"$`])", "\\\\$1");
    }

    /**
     * {@code --files} as GNU parallel's: the job's stdout goes into a file of its own in
     * {@code --tmpdir} or {@code $TMPDIR}, which is kept, and the job prints its name instead (in the output's
     * order); its status is the command's. The {@code {}} a command without replacement strings
     * gets is appended first.
     */
    private byte[] intoFile(byte[] command) {
        byte[] text = implied(command);
        // a subshell: the command's exit ends it, not the printf of the name
        String head = "PARALLEL_FILE=$(mktemp \"" + tempDirWord() + "/parXXXXX.par\") || exit 255; ( ";
        String prg = compressor();
        // --compress: the file passed through the compressor, as GNU parallel writes it (an empty one stays empty)
        String packed = prg == null ? "" : " [ -s \"$PARALLEL_FILE\" ] && { cat \"$PARALLEL_FILE\" | { " + prg + "\n} >\"$PARALLEL_FILE.z\""
                + " && mv -f \"$PARALLEL_FILE.z\" \"$PARALLEL_FILE\" || printf 'brisk: Error: %s failed.\\n' "
                + dev.brisk.internal.shell.ShellQuote.quote(prg) + " >&2; };";
        // -v: as GNU parallel, the command is the file's first line, not printed; a quoted here-document holds it as it runs
        String shown = verbose == 0 || dryRun ? "" : "cat <<'__brisk_v_" + VERBOSE_MARK + "'\n" + new String(text, StandardCharsets.ISO_8859_1)
                + "\n__brisk_v_" + VERBOSE_MARK + "\n";
        String tail = "\n) >\"$PARALLEL_FILE\"; _s=$?;" + packed + " printf '%s\\n' \"$PARALLEL_FILE\"; exit $_s";
        return (head + shown + new String(text, StandardCharsets.ISO_8859_1) + tail).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {@code text} with the {@code {}} a command without replacement strings gets (none with --pipe, --nonall). */
    private byte[] implied(byte[] text) {
        if (pipe || nonall) {
            return text;
        }
        JobArgs probe = JobArgs.single(List.of("x".getBytes(StandardCharsets.US_ASCII)), 1, 1);
        byte[] plain = Template.parse(text, names, Template.Quoting.SHELL, false, List.of()).render(probe, Template.Batching.NONE);
        byte[] implied = Template.parse(text, names, Template.Quoting.SHELL, true, List.of()).render(probe, Template.Batching.NONE);
        if (java.util.Arrays.equals(plain, implied)) {
            return text;
        }
        return (new String(text, StandardCharsets.ISO_8859_1) + " "
                + new String(replace.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1)).getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * {@code --wd DIR} with every job run here, as GNU parallel's: the job changes into DIR
     * (relative: to the caller's directory; {@code .} that directory), made first if need be,
     * or ends with 255; with {@code ...} into a directory of its own,
     * {@code $HOME/.parallel/tmp/HOST-PID-SEQ}, removed when the command ends (the job's
     * status stays the command's). DIR's replacement strings take the job's values. A DIR
     * without them is made once, here; one that cannot be is GNU's error, before any job.
     */
    private byte[] inWorkdir(byte[] command) {
        String wd = workdir;
        boolean own = wd.equals("...");
        if (own) {
            String home = Caller.current().getenv("HOME");
            wd = (home == null || home.isEmpty() ? "/tmp" : home) + "/.parallel/tmp/" + ParSemaphore.hostname() + "-"
                    + Caller.current().pid() + "-" + names.sequence();
        } else if (wd.equals(".")) {
            wd = Caller.workingDirectory();
        } else {
            // as GNU parallel: no /./ (rsync's mark), no trailing /, no leading ./
            wd = wd.replace("/./", "/").replaceAll("(.)/+$", "$1").replaceAll("^\\./", "");
        }
        byte[] word = wd.getBytes(StandardCharsets.UTF_8);
        byte[] quoted = Template.quotedWords(List.of(word), names, rplDefinitions());
        String dir = new String(quoted, StandardCharsets.ISO_8859_1);
        String head = "cd " + dir + " || exit 255; ";
        if (!Template.parse(word, names, Template.Quoting.RAW, false, rplDefinitions()).hasReplacements()) {
            Path made = Path.of(Caller.workingDirectory()).resolve(wd);
            try {
                Files.createDirectories(made);
            } catch (IOException e) {
                // the check below says it
            }
            if (!Files.isDirectory(made) || !Files.isExecutable(made)) {
                throw usage("Cannot change into non-executable dir " + wd + ": "
                        + (Files.exists(made) ? Files.isDirectory(made) ? "Permission denied" : "Not a directory" : "No such file or directory"));
            }
        } else {
            head = "mkdir -p " + dir + " 2>/dev/null; " + head;
        }
        String body = new String(command, StandardCharsets.ISO_8859_1);
        String tail = own ? "\n_EXIT_status=$?; rm -rf " + dir + "; exit $_EXIT_status" : "";
        return (head + body + tail).getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * The variables of {@code --_parset var,NAMES} (GNU parallel's helper of its {@code parset}
     * shell function, which evals what it prints): one name, an array of the jobs' outputs;
     * several, one variable each, in the jobs' order. Bad names are GNU's error.
     */
    private List<String> parsetNames() {
        List<String> vars = new ArrayList<>(List.of(parset.substring(4).split("[ ,]")));
        vars.removeIf(String::isEmpty);
        List<String> bad = vars.stream().filter(v -> !v.matches("[a-zA-Z_][a-zA-Z_0-9]*(\\[\\d+\\])?")).toList();
        if (!bad.isEmpty()) {
            try {
                OutputStream out = DescriptorStream.stdout();
                out.write("\nreturn 255".getBytes(StandardCharsets.US_ASCII)); // what parset evals, as GNU's
                out.flush();
            } catch (IOException e) {
                // the error below says enough
            }
            throw usage(String.join(" ", bad) + " is an invalid variable name.\nVariable names must be letter "
                    + "followed by letters or digits.\nUsage:\n  parset varname GNU Parallel options and command");
        }
        return vars;
    }

    /**
     * {@code --_parset}: the job prints its stdout as shell code, as GNU parallel's: without its
     * last newline, single-quoted, after {@code NAME=} (several names: the job's by its number)
     * or alone (an array's element, between the {@code NAME=(} and {@code )} the run prints).
     */
    private byte[] intoVariable(byte[] command) {
        List<String> vars = parsetNames();
        StringBuilder head = new StringBuilder("_o=$(").append(new String(command, StandardCharsets.ISO_8859_1))
                .append("\n_s=$?; echo x; exit $_s); _s=$?; _o=${_o%x}; _o=${_o%\"\n\"}; ");
        if (vars.size() > 1) {
            head.append("case ").append(names.sequence()).append(" in ");
            for (int i = 0; i < vars.size(); i++) {
                head.append(i + 1).append(") printf '%s=' '").append(vars.get(i)).append("';; "); // a name holds no quote
            }
            head.append("*) echo 'brisk par: Too few named destination variables' >&2; exit 255;; esac; ");
        }
        head.append("printf \"'\"; printf '%s' \"$_o\" | sed \"s/'/'\\\\\\\\''/g\"; printf \"'\\n\"; exit $_s");
        return head.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {@code --tmux}: the job in a window of the run's tmux server ({@link ParTmux}), told once on stderr. */
    private byte[] inTmux(byte[] command) throws IOException {
        Path dir = temporaryDirectory();
        String socket = ParTmux.socket(dir.toString());
        String program = Caller.current().getenv("PARALLEL_TMUX");
        program = program == null || program.isEmpty() ? "tmux" : program;
        if (!onPath(program)) {
            throw usage(program + " not found in $PATH."); // as GNU parallel, before any job
        }
        OutputStream e = DescriptorStream.stderr();
        e.write(("See output with: " + program + " -S " + socket + " attach\n").getBytes(StandardCharsets.UTF_8));
        e.flush();
        return ParTmux.wrap(command, program, socket, "p" + Caller.current().pid());
    }

    /** GNU parallel's compressors, fastest first: {@code --compress} takes the first on PATH. */
    private static final List<String> COMPRESSORS = List.of("pzstd", "lbzip2", "pbzip2", "zstd", "pixz", "lz4", "pigz", "lzop",
            "plzip", "lzip", "gzip", "lrz", "pxz", "bzip2", "lzma", "xz", "clzip");

    /**
     * The compressor of {@code --compress}/{@code --compress-program}: the program given, else
     * GNU parallel's choice ({@code PRG -c -1}, the first of {@link #COMPRESSORS} on PATH; none:
     * {@code cat}); null without either option.
     */
    private String compressor() {
        if (compressProgram != null) {
            return compressProgram;
        }
        if (!compress) {
            return null;
        }
        for (String p : COMPRESSORS) {
            if (onPath(p)) {
                return p + " -c -1";
            }
        }
        return "cat";
    }

    /** Whether PROGRAM is an executable non-directory in a directory of the caller's PATH (or, holding a /, is one itself), as GNU parallel's which. */
    private static boolean onPath(String program) {
        String path = Caller.current().getenv("PATH");
        List<String> places = new ArrayList<>();
        for (String dir : (path == null ? "/usr/bin:/bin" : path).split(":")) {
            if (!dir.isEmpty()) {
                places.add(dir + "/" + program);
            }
        }
        if (program.contains("/")) {
            places.add(program);
        }
        Path here = Path.of(Caller.workingDirectory());
        return places.stream().map(here::resolve).anyMatch(f -> Files.isExecutable(f) && !Files.isDirectory(f));
    }

    /** A usage error, which ends as {@code brisk par: MESSAGE} and status 255. */
    private static RuntimeException usage(String message) {
        return new UsageError(message);
    }

    /** Bad usage found once the command line was parsed. */
    static final class UsageError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageError(String message) {
            super(message);
        }
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
}
