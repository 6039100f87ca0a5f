// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static dev.brisk.cli.OptionTable.counted;
import static dev.brisk.cli.OptionTable.flag;
import static dev.brisk.cli.OptionTable.list;
import static dev.brisk.cli.OptionTable.value;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorStream;
import dev.brisk.internal.posix.Environ;
import dev.brisk.meter.BarStyle;
import dev.brisk.meter.ByteSize;
import dev.brisk.meter.CopyResult;
import dev.brisk.meter.Input;
import dev.brisk.meter.LiveSettings;
import dev.brisk.meter.Meter;
import dev.brisk.meter.MeterOptions.Counting;
import dev.brisk.meter.MeterOptions.Transfer;
import dev.brisk.meter.MeterOptions;
import dev.brisk.meter.Output;
import dev.brisk.meter.ProgressListener;
import dev.brisk.meter.RateLimiter;
import dev.brisk.meter.RateStats;
import dev.brisk.meter.StatusLine;
import dev.brisk.meter.StatusLine.Field;
import dev.brisk.meter.StatusLine;
import dev.brisk.meter.StderrDisplay;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * {@code brisk pv}: pv's pipe meter on {@link Meter}. Parses pv's flags, checks their values
 * with pv's messages, builds {@link MeterOptions} and a {@link StderrDisplay}, runs the copy and
 * returns pv's exit status ({@link PvExit}).
 *
 * <p>Over 500 lines because it declares every pv option brisk takes ({@link #OPTIONS}, each with
 * its help text) and maps them to {@code MeterOptions};
 * the modes that are not a plain copy ({@code -d}, {@code -Q}, {@code -R}, {@code -M}) live in classes of their own.
 *
 * <p>It runs as this process ({@link Caller#SELF}) or as a warm server's call for a client
 * ({@link #call(String[])} on the call thread, whose {@link Caller} is the client's): every
 * descriptor, environment variable, process ID and exit hook it uses is the current caller's,
 * and nothing of it is JVM-wide, so calls run side by side. A direct run ends on SIGINT, SIGTERM
 * or SIGHUP by halting the JVM with pv's status 32 (the status line ended first); a server's call
 * instead stops its copy and returns when the server runs the client's exit hooks.
 */
final class PvCommand {
    private static final String PROGRAM = "brisk pv";
    private static final Pattern SECONDS = Pattern.compile("\\s*\\d+([.,]\\d*)?");

    boolean progress;
    boolean timer;
    boolean eta;
    boolean fineta;
    boolean rate;
    boolean averageRate;
    boolean bytes;
    boolean bits;
    boolean si;
    boolean bufferPercent;
    String lastWritten;
    String format;
    boolean numeric;
    boolean quiet;
    String name;
    boolean cursor;
    String interval;
    String window;
    String width;
    String height;
    boolean force;
    boolean waitFirst;
    String delay;
    String size;
    boolean lineMode;
    boolean nul;
    boolean stopAtSize;
    String rateLimit;
    String bufferSize;
    boolean noSplice;
    int skipErrors;
    boolean sync;
    boolean discard;
    List<String> watch = new ArrayList<>();
    String output;
    boolean gauge;
    String barStyle;
    String extraDisplay;
    boolean stats;
    String errorSkipBlock;
    boolean directIo;
    boolean sparse;
    String storeAndForward;
    String pidfile;
    /** The -R marker written before the pidfile ({@link PvRemote#listen}), or null. */
    PvRemote.Listening listening;
    String query;
    String remote;
    String monitor;
    List<String> files = new ArrayList<>();

    /**
     * {@code brisk pv}'s options, each declared once: the fast parser, help, the man page,
     * completions and docs/PV.md's list are derived from it ({@link OptionTable}). With
     * {@code -M}, the first operand ends the options: the command's own are not ours.
     */
    static final OptionTable<PvCommand> OPTIONS = new OptionTable<>(PROGRAM, List.of(
        flag("-p --progress", c -> c.progress = true, "Show the progress bar."),
        flag("-t --timer", c -> c.timer = true, "Show the elapsed time."),
        flag("-e --eta", c -> c.eta = true, "Show the estimated time to completion."),
        flag("-I --fineta", c -> c.fineta = true, "Show the estimated local time of arrival."),
        flag("-r --rate", c -> c.rate = true, "Show the current rate."),
        flag("-a --average-rate", c -> c.averageRate = true, "Show the average rate."),
        flag("-b --bytes", c -> c.bytes = true, "Show the byte (or line) count."),
        flag("-8 --bits", c -> c.bits = true, "Show bits instead of bytes (decimal prefixes)."),
        flag("-k --si", c -> c.si = true, "Decimal prefixes (kB, MB) instead of binary (KiB, MiB)."),
        flag("-T --buffer-percent", c -> c.bufferPercent = true, "Show the buffer use (implies -C)."),
        value("-A --last-written", "NUM", (c, v) -> c.lastWritten = v, "Show the last NUM bytes written (implies -C)."),
        value("-F --format", "FORMAT", (c, v) -> c.format = v, "Status line format: %%p %%t %%e %%I %%r %%a %%b %%T %%nA %%nL %%N %%%%, and their %%{long-name}s."),
        flag("-n --numeric", c -> c.numeric = true, "Print numbers, one per line (percent; bytes with -b; time prefix with -t)."),
        flag("-q --quiet", c -> c.quiet = true, "Show nothing (errors still print)."),
        value("-N --name", "NAME", (c, v) -> c.name = v, "Prefix the status line with NAME."),
        flag("-c --cursor", c -> c.cursor = true, "Draw on a row of its own (cursor positioning), so several meters in one pipeline show on separate lines."),
        value("-i --interval", "SEC", (c, v) -> c.interval = v, "Seconds between updates (default 1, at least 0.1)."),
        value("-m --average-rate-window", "SEC", (c, v) -> c.window = v, "Window of the average rate and ETA (default 30)."),
        value("-w --width", "WIDTH", (c, v) -> c.width = v, "Assume the terminal is WIDTH columns wide."),
        value("-H --height", "HEIGHT", (c, v) -> c.height = v, "Assume the terminal is HEIGHT rows high (used by -c; 0: ask the terminal)."),
        flag("-f --force", c -> c.force = true, "Draw even when standard error is not a terminal."),
        flag("-W --wait", c -> c.waitFirst = true, "Show nothing and start the clock at the first byte."),
        value("-D --delay-start", "SEC", (c, v) -> c.delay = v, "Show nothing until SEC seconds have passed."),
        value("-s --size", "SIZE", (c, v) -> c.size = v, "Expected total: bytes (k/m/g/t suffixes), lines with -l, or @FILE for that file's size."),
        flag("-l --line-mode", c -> c.lineMode = true, "Count lines instead of bytes."),
        flag("-0 --null", c -> c.nul = true, "Lines end with NUL (implies -l)."),
        flag("-S --stop-at-size", c -> c.stopAtSize = true, "Stop after --size has been transferred."),
        value("-L --rate-limit", "RATE", (c, v) -> c.rateLimit = v, "Limit to RATE bytes per second (k/m/g/t suffixes)."),
        value("-B --buffer-size", "BYTES", (c, v) -> c.bufferSize = v, "Buffer size (implies -C)."),
        flag("-C --no-splice", c -> c.noSplice = true, "Never use splice or other zero-copy calls."),
        counted("-E --skip-errors", c -> c.skipErrors++, "Skip read errors, writing zeros (twice: report once per file)."),
        flag("-Y --sync", c -> c.sync = true, "fdatasync the output after every write."),
        flag("-X --discard", c -> c.discard = true, "Write nothing: just count what is read."),
        list("-d --watchfd", "PID[:FD]", (c, v) -> c.watch.add(v), "Watch descriptor FD of process PID (without FD: each regular file it has or opens), =NAME (processes by name, pgrep), @LISTFILE (one per line); more after the options."),
        value("-o --output", "FILE", (c, v) -> c.output = v, "Write to FILE instead of standard output."),
        flag("-g --gauge", c -> c.gauge = true, "With -p and an unknown size, fill the bar to the rate as a share of the highest so far."),
        value("-u --bar-style", "STYLE", (c, v) -> c.barStyle = v, "Progress bar style: plain (default), block, granular, shaded."),
        value("-x --extra-display", "SPEC", (c, v) -> c.extraDisplay = v, "Also show progress in DEST[,DEST][:FORMAT]: windowtitle (window), processtitle (proctitle, process, proc)."),
        flag("-v --stats", c -> c.stats = true, "At the end, show the rate's min/avg/max/mdev."),
        value("-Z --error-skip-block", "BYTES", (c, v) -> c.errorSkipBlock = v, "With -E, skip to the end of a BYTES block at a read error (implies -E)."),
        flag("-K --direct-io", c -> c.directIo = true, "Open inputs and output with O_DIRECT (bypass the cache)."),
        flag("-O --sparse --sparse-output", c -> c.sparse = true, "Seek over zero blocks of a file output, keeping it sparse (implies -C)."),
        value("-U --store-and-forward", "FILE", (c, v) -> c.storeAndForward = v, "Read all input into FILE (- for a temporary file), then send FILE on."),
        value("-P --pidfile", "FILE", (c, v) -> c.pidfile = v, "Write the process ID to FILE while running."),
        value("-Q --query", "PID", (c, v) -> c.query = v, "Show the transfer of the running brisk pv PID (same user), with these display options."),
        value("-R --remote", "PID", (c, v) -> c.remote = v, "Make the running brisk pv PID (same user) act as though given these options (display, -L, -s, -i, -w, -H, -N, -F)."),
        value("-M --monitor", "MODE", (c, v) -> c.monitor = v, "Run the operands as COMMAND [ARG...] (options end at COMMAND) and meter its input (in: ours into it), its output (out: it to ours) or both (two rows).")),
            "FILE", "Files to copy in turn (- is standard input; none: standard input); with -M, the command and its arguments.",
            (c, w) -> c.files.add(w), c -> c.monitor != null, false, null);

    /** picocli's model of {@code brisk pv}, from {@link #OPTIONS}: for help, the version, usage errors and docs. */
    static picocli.CommandLine commandLine() {
        picocli.CommandLine.Model.CommandSpec spec = picocli.CommandLine.Model.CommandSpec.create().name("pv")
                .exitCodeOnInvalidInput(64);
        spec.usageMessage().width(100).description(
                "Concatenate FILE(s), or standard input, to standard output, with monitoring (like pv).",
                "Data moves by splice(2) when a side is a pipe, copy_file_range(2)/sendfile(2) from files.")
                .footer("", "Exit status: 0 ok; else the OR of 2 (a file could not be opened), 4 (input is output),",
                        "8 (no input could be opened), 16 (read or write error), 32 (interrupted); 64 bad usage.");
        return OPTIONS.commandLine(spec);
    }

    /** A bad option value: pv's one-line message, status 64. */
    static final class BadValue extends Exception {
        private static final long serialVersionUID = 1L;

        BadValue(String option, String message) {
            super(option + ": " + message, null, false, false);
        }
    }

    /** The current call's display, ended by a signal's hook. */
    private final AtomicReference<StderrDisplay> current = new AtomicReference<>();
    /** Set once the call has finished, or a signal's hook has ended it. */
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile Path pidPath;
    private volatile PrintStream err;

    /**
     * Runs {@code brisk pv ARGS} (the arguments after {@code pv}) for the current {@link Caller},
     * on its descriptors, and returns the exit status: the entry a warm server calls on a call's
     * thread, and {@code Main} for a direct run. Blocks until the copy ends; a relayed signal
     * ends it early (the server runs the caller's exit hooks, which stop the copy).
     */
    static int call(String[] args) {
        Caller caller = Caller.current();
        PrintWriter out = new PrintWriter(DescriptorStream.print(caller.stdout()), true);
        PrintWriter err = new PrintWriter(DescriptorStream.print(caller.stderr()), true);
        return call(args, out, err);
    }

    /** As {@link #call(String[])}, with the writers picocli's help, version and usage errors go to. */
    static int call(String[] args, PrintWriter out, PrintWriter err) {
        // brisk pv sits in pipelines where startup is part of the cost: parse its flags without
        // loading picocli's parser when they are plain, else build only its own command line
        PvCommand command = new PvCommand();
        int code;
        if (GetoptParser.parse(OPTIONS, command, args)) {
            code = command.call();
        } else {
            code = slowCall(args, out, err);
        }
        out.flush();
        err.flush();
        return code;
    }

    /** A command line {@link GetoptParser} left to picocli: help, the version, bad usage (status 64), or one picocli reads. */
    private static int slowCall(String[] args, PrintWriter out, PrintWriter err) {
        picocli.CommandLine cl = commandLine().setCommandName(PROGRAM);
        cl.setOut(out);
        cl.setErr(err);
        if (PvMonitor.requested(args)) {
            cl.setStopAtPositional(true); // pv -M: the first operand is a command, the rest its arguments
        }
        PvCommand command = new PvCommand();
        try {
            Integer help = picocli.CommandLine.executeHelpRequest(OPTIONS.parse(cl, command, args));
            if (help != null) {
                return help;
            }
        } catch (picocli.CommandLine.ParameterException e) {
            err.println(PROGRAM + ": " + e.getMessage()); // one line, as pv
            return PvExit.USAGE.bit();
        }
        try {
            return command.call();
        } catch (RuntimeException e) {
            err.println(PROGRAM + ": " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            return ExitCode.FAILURE.code();
        }
    }

    /**
     * Why {@code brisk pv ARGS} cannot run as a warm server's call, or null when it can: the
     * server then answers {@code d} and the client runs the JVM itself.
     */
    static String directReason(String[] args) {
        // the server answers a relayed signal with 128+N itself, where pv -M passes it on to its
        // command and goes on until the command ends, with its status
        String monitorReason = "pv -M: signals go to the command, and the status is the command's";
        PvCommand c = new PvCommand();
        if (!GetoptParser.parse(OPTIONS, c, args)) {
            if (PvMonitor.requested(args)) {
                return monitorReason; // a rough look at the words: when in doubt, directly
            }
            c = new PvCommand();
            try {
                OPTIONS.parse(commandLine(), c, args);
            } catch (picocli.CommandLine.ParameterException e) {
                return null; // a usage error: the server reports it as well
            }
        }
        if (c.monitor != null) {
            return monitorReason;
        }
        if (c.extraDisplay != null && !c.quiet && c.extraDestinations()[1]) {
            return "pv -x processtitle: the process title would be the server's";
        }
        return null;
    }

    /** Standard error of the caller, for pv's messages. */
    PrintStream err() {
        PrintStream e = err;
        if (e == null) {
            err = e = DescriptorStream.print(Caller.current().stderr());
        }
        return e;
    }

    /** Runs the parsed command line; see {@link #call(String[])}. */
    Integer call() {
        Caller caller = Caller.current();
        if (caller.self()) {
            return run(); // a signal's shutdown hook (the copy's, below) or the JVM's own default ends it
        }
        // a client's signal: end the status line, remove the pid file and stop whatever runs
        // (the copy, a -Q wait, -d's watches), never touching the caller's descriptors after
        Thread callThread = Thread.currentThread();
        boolean[] interrupted = {false};
        Thread onSignal = new Thread(() -> {
            synchronized (interrupted) {
                if (endEarly()) {
                    interrupted[0] = true;
                    callThread.interrupt();
                }
            }
        }, "brisk-pv-signal");
        caller.statusOnSignal(PvExit.SIGNAL.bit()); // as a direct pv's shutdown hook halts with
        caller.addExitHook(onSignal);
        try {
            return run();
        } finally {
            caller.removeExitHook(onSignal);
            synchronized (interrupted) {
                finished.set(true);
                if (interrupted[0]) {
                    Thread.interrupted(); // ours: the server's thread goes on without it
                }
            }
        }
    }

    /** Ends the call's display and removes its pid file, once; false when the call had finished. */
    private boolean endEarly() {
        if (finished.getAndSet(true)) {
            return false;
        }
        StderrDisplay d = current.get();
        if (d != null) {
            d.interrupted();
        }
        PidFile.remove(pidPath);
        return true;
    }

    private int run() {
        MeterOptions options;
        try {
            options = meterOptions();
            checkDisplay(); // every display value checked before anything starts
        } catch (BadValue e) {
            err().println(PROGRAM + ": " + e.getMessage());
            return PvExit.USAGE.bit();
        }
        if (monitor != null) {
            return PvMonitor.run(this, options);
        }
        if (remote != null) {
            String conflict = query != null ? "cannot use remote control and remote query together"
                    : !watch.isEmpty() ? "cannot use remote control when watching file descriptors"
                    : !files.isEmpty() ? "-R: files cannot be specified with this option" : null;
            if (conflict != null) {
                err().println(PROGRAM + ": " + conflict);
                return PvExit.USAGE.bit();
            }
            return PvRemote.send(this, remote);
        }
        if (query != null) {
            if (!files.isEmpty()) {
                err().println(PROGRAM + ": -Q: files cannot be specified with this option");
                return PvExit.USAGE.bit();
            }
            return PvQuery.run(this, query, options.interval().toNanos());
        }
        if (!watch.isEmpty()) {
            return PvWatch.run(this, options);
        }
        if (pidfile != null) {
            listening = PvRemote.listen(this); // before the PID can be read: see PvRemote.listen
            try {
                pidPath = PidFile.write(pidfile);
            } catch (IOException e) {
                err().println(PROGRAM + ": " + pidfile + ": " + e.getMessage());
                return 1; // pv: 1 is a problem with --remote, --query or --pidfile
            }
        }
        List<Input> inputs = new ArrayList<>();
        for (String f : files) {
            inputs.add(f.equals("-") ? Input.stdin() : Input.file(f.getBytes(StandardCharsets.UTF_8)));
        }
        if (inputs.isEmpty()) {
            inputs.add(Input.stdin());
        }
        Output out = discard ? Output.discard()
                : output != null ? Output.file(output.getBytes(StandardCharsets.UTF_8)) : Output.stdout();
        // a direct run's SIGINT, SIGTERM, SIGHUP: end the status line and exit 32, as pv does (not the JVM's 128+n)
        Main.endOnSignal(() -> endEarly() ? PvExit.SIGNAL.bit() : -1);
        RateStats rates = stats ? new RateStats() : null;
        try {
            if (storeAndForward != null) {
                return storeAndForward(options, inputs, out, current, rates);
            }
            return PvExit.of(copy(options, inputs, out, current, rates));
        } catch (IOException e) {
            err().println(PROGRAM + ": " + e.getMessage());
            return PvExit.ACCESS.bit();
        } catch (BadValue e) {
            throw new AssertionError(e); // checked above
        } finally {
            if (!finished.getAndSet(true)) { // else a signal ended the call: nothing more on its stderr
                if (rates != null) {
                    err().println(rates.summary(bits));
                }
                PidFile.remove(pidPath);
            }
        }
    }

    /** One metered copy with a fresh display (and the extra displays and statistics). */
    private CopyResult copy(MeterOptions options, List<Input> inputs, Output out,
            AtomicReference<StderrDisplay> current, RateStats rates)
            throws IOException, BadValue {
        return meter(options, name, "", current, rates, true).copy(inputs, out);
    }

    /**
     * A meter with a fresh display named {@code name}, whose numeric lines start with
     * {@code numericPrefix} (-M both tells its two meters apart so), set in {@code current}; when
     * {@code primary}, also the extra displays, the statistics and the -Q/-R responders, which
     * one meter per process carries.
     */
    Meter meter(MeterOptions options, String name, String numericPrefix,
            AtomicReference<StderrDisplay> current, RateStats rates, boolean primary)
            throws BadValue {
        StderrDisplay display = display(name, numericPrefix);
        current.set(display);
        ProgressListener listener = display != null ? display : new ProgressListener() {
            @Override
            public void onProgress(dev.brisk.meter.Progress p) {}

            @Override
            public void onProblem(String message) {
                err().println(PROGRAM + ": " + message);
            }
        };
        if (!primary) {
            return new Meter(options, listener);
        }
        ProgressListener titles = extraDisplay(display == null ? 80 : display.width());
        if (titles != null) {
            listener = ProgressListener.both(listener, titles);
        }
        if (rates != null) {
            listener = ProgressListener.both(listener, rates);
        }
        LiveSettings live = new LiveSettings();
        listener = ProgressListener.both(listener, PvQuery.responder());
        listener = ProgressListener.both(listener, PvRemote.responder(this, options.rateLimiter(), live, current));
        return new Meter(options, listener, live);
    }

    /**
     * {@code -U FILE}: all input into FILE first, then FILE to the output with its size known;
     * {@code -U -} uses a temporary file, removed afterwards. The statistics cover the second stage.
     */
    private int storeAndForward(MeterOptions options, List<Input> inputs, Output out,
            AtomicReference<StderrDisplay> current, RateStats rates)
            throws IOException, BadValue {
        boolean temporary = storeAndForward.equals("-");
        Path tmpdir = Environ.temporaryDirectory("TMP");
        Path store = temporary ? Files.createTempFile(tmpdir != null ? tmpdir : Path.of("/tmp"), "brisk-pv-", ".store")
                : Path.of(storeAndForward);
        try {
            CopyResult stored = copy(options, inputs, Output.file(store.toString().getBytes(StandardCharsets.UTF_8)),
                    current, null);
            if (stored.outcome() == CopyResult.Outcome.INTERRUPTED) {
                return PvExit.of(stored);
            }
            MeterOptions second = options.toBuilder().size(Files.size(store)).stopAtSize(false).build();
            CopyResult sent = copy(second, List.of(Input.file(store.toString().getBytes(StandardCharsets.UTF_8))), out,
                    current, rates);
            return PvExit.of(stored) | PvExit.of(sent);
        } finally {
            if (temporary) {
                Files.deleteIfExists(store);
            }
        }
    }

    /** {@code -x SPEC}: the window and/or process title display, or null. */
    private ProgressListener extraDisplay(int width) throws BadValue {
        if (extraDisplay == null || quiet) {
            return null;
        }
        int colon = extraDisplay.indexOf(':');
        boolean[] dests = extraDestinations();
        String fmt = colon >= 0 ? extraDisplay.substring(colon + 1) : terminalFormat(name);
        StatusLine line = new StatusLine(fmt, name, lineMode || nul, units(), false, clock(),
                new StatusLine.Look(barStyle(), gauge, true, false));
        return new dev.brisk.meter.TitleDisplay(line, 2, dests[0], dests[1], force, width);
    }

    /** {@code -x}'s destinations: {window title, process title}. */
    private boolean[] extraDestinations() {
        int colon = extraDisplay.indexOf(':');
        String dests = colon < 0 ? extraDisplay : extraDisplay.substring(0, colon);
        boolean[] which = new boolean[2];
        for (String d : dests.split(",")) {
            switch (d.strip()) {
                case "windowtitle", "window" -> which[0] = true;
                case "processtitle", "proctitle", "process", "proc" -> which[1] = true;
                default -> { } // pv ignores a destination it does not know
            }
        }
        return which;
    }

    /**
     * The clock of %I (the local time of arrival): the caller's time zone. A server's client
     * with a {@code TZ} other than the server's gets that zone ({@code Area/City}, with or
     * without pv's leading colon; empty is UTC, as in the C library); one the JDK cannot read
     * falls back to the server's.
     */
    private static Clock clock() {
        Caller caller = Caller.current();
        String tz = caller.getenv("TZ");
        if (caller.self() || tz == null || tz.equals(System.getenv("TZ"))) {
            return Clock.systemDefaultZone();
        }
        String id = tz.startsWith(":") ? tz.substring(1) : tz;
        try {
            return Clock.system(id.isEmpty() ? ZoneId.of("UTC") : ZoneId.of(id));
        } catch (DateTimeException e) {
            return Clock.systemDefaultZone();
        }
    }

    private StatusLine.Units units() {
        return bits ? StatusLine.Units.BITS : si ? StatusLine.Units.DECIMAL : StatusLine.Units.BINARY;
    }

    /** {@code -u}, checked by {@link #checkDisplay}: plain when not given. */
    private BarStyle barStyle() {
        BarStyle style = barStyle == null ? null : BarStyle.named(barStyle);
        return style == null ? BarStyle.PLAIN : style;
    }

    MeterOptions meterOptions() throws BadValue {
        MeterOptions.Builder b = MeterOptions.builder();
        Counting counting = nul ? Counting.NUL_LINES : lineMode ? Counting.LINES : Counting.BYTES;
        b.counting(counting).stopAtSize(stopAtSize).sync(sync).discard(discard).waitFirstByte(waitFirst);
        b.sparse(sparse).directIo(directIo);
        if (size != null) {
            b.size(size.startsWith("@") ? sizeOfPath(size.substring(1)) : integer("-s", size));
        }
        // always a limiter, so that -R can set a rate later; unlimited, it takes no lock per chunk
        long limit = rateLimit == null ? 0 : integer("-L", rateLimit);
        b.rateLimiter(limit > 0 ? new RateLimiter(limit) : RateLimiter.unlimited());
        boolean lastLine = showsPreviousLine();
        b.previousLine(lastLine);
        // %L needs the data in the buffer, so it implies -C as -A does (pv's own example pipes a file through it)
        boolean readWrite = noSplice || bufferPercent || lastWritten != null || sparse || directIo || lastLine;
        if (bufferSize != null) {
            long n = integer("-B", bufferSize);
            if (n > (1 << 30)) {
                throw new BadValue("-B", "buffer size too large (at most 1G)");
            }
            b.bufferSize((int) n);
            readWrite = true;
        }
        b.transfer(readWrite ? Transfer.READ_WRITE : Transfer.AUTO);
        int skip = Math.min(2, skipErrors);
        if (errorSkipBlock != null) {
            long block = integer("-Z", errorSkipBlock);
            b.skipBlock(block);
            skip = Math.max(skip, block > 0 ? 1 : 0); // pv: -Z without -E acts as one -E
        }
        b.skipErrors(skip);
        if (interval != null) {
            b.interval(Duration.ofNanos((long) (Math.max(0.1, seconds("-i", interval)) * 1e9)));
        }
        if (window != null) {
            b.averageWindow(Duration.ofNanos((long) (Math.max(1, seconds("-m", window)) * 1e9)));
        }
        if (lastWritten != null) {
            b.tailLength(Math.clamp(integer("-A", lastWritten), 1, 256));
        }
        return b.build();
    }

    /** Whether -F or the -x format shows pv's %L (the last line written). */
    private boolean showsPreviousLine() {
        String titleFormat = extraDisplay != null && extraDisplay.contains(":") ? extraDisplay.substring(extraDisplay.indexOf(':') + 1) : null;
        for (String f : new String[] {format, titleFormat}) {
            if (f != null && (f.contains("L") || f.contains("previous-line"))
                    && new StatusLine(f, null, false, StatusLine.Units.BINARY, false, Clock.systemUTC()).shows(Field.PREVIOUS_LINE)) {
                return true;
            }
        }
        return false;
    }

    /** The format the terminal display draws: -F, or the one the display switches make. */
    private String terminalFormat(String name) throws BadValue {
        if (format != null) {
            return format;
        }
        Set<Field> fields = EnumSet.noneOf(Field.class);
        if (progress) fields.add(Field.PROGRESS);
        if (timer) fields.add(Field.TIMER);
        if (eta) fields.add(Field.ETA);
        if (fineta) fields.add(Field.FINETA);
        if (rate) fields.add(Field.RATE);
        if (averageRate) fields.add(Field.AVERAGE_RATE);
        if (bytes || bits) fields.add(Field.BYTES); // pv: -8 switches the byte counter on
        if (bufferPercent) fields.add(Field.BUFFER_PERCENT);
        if (lastWritten != null) fields.add(Field.LAST_WRITTEN);
        if (fields.isEmpty() && !numeric) {
            fields.addAll(EnumSet.of(Field.PROGRESS, Field.TIMER, Field.ETA, Field.RATE, Field.BYTES));
        }
        if (name != null) {
            fields.add(Field.NAME);
        }
        int tail = lastWritten == null ? 1 : Math.clamp(integer("-A", lastWritten), 1, 256);
        return StatusLine.formatOf(fields, tail);
    }

    /** Checks the display's values (-u, -w, -H, -D, -A) without drawing or claiming a row. */
    private void checkDisplay() throws BadValue {
        // pv 1.10 draws an unknown style as plain without a word; the issue asks for a refusal
        if (barStyle != null && BarStyle.named(barStyle) == null) {
            throw new BadValue("-u", barStyle + ": unknown bar style (plain, block, granular, shaded)");
        }
        if (width != null) integer("-w", width);
        if (height != null) integer("-H", height);
        if (delay != null) seconds("-D", delay);
        terminalFormat(name);
    }

    /** The display with the status-line name {@code name}, or null when quiet. */
    StderrDisplay display(String name) throws BadValue {
        return display(name, "");
    }

    /** The display with the status-line name {@code name} and numeric lines after {@code numericPrefix}, or null when quiet. */
    StderrDisplay display(String name, String numericPrefix) throws BadValue {
        int rows = height == null ? 0 : (int) Math.min(integer("-H", height), 100_000);
        long delayNanos = delay == null ? 0 : (long) (seconds("-D", delay) * 1e9);
        StatusLine line = statusLine(name, numericPrefix);
        if (quiet) {
            return null;
        }
        StderrDisplay display = new StderrDisplay(line, PROGRAM, 2, numeric, force, width(), delayNanos);
        return cursor ? display.cursor(rows) : display;
    }

    /** The status line these options draw, named {@code name}. */
    StatusLine statusLine(String name) throws BadValue {
        return statusLine(name, "");
    }

    private StatusLine statusLine(String name, String numericPrefix) throws BadValue {
        String fmt = numeric ? numericPrefix + (format != null ? format : StatusLine.numericFormatOf(timer, bytes || bits, rate))
                : terminalFormat(name);
        return new StatusLine(fmt, name, lineMode || nul, units(), numeric, clock(),
                StatusLine.Look.forTerminal(barStyle(), gauge, 2));
    }

    /** The columns -w gives, or 0 to ask the terminal. */
    int width() throws BadValue {
        return width == null ? 0 : (int) Math.min(integer("-w", width), 100_000);
    }

    /** The update interval (-i, default 1 s, at least 0.1 s) in nanoseconds. */
    long intervalNanos() {
        try {
            return interval == null ? 1_000_000_000L : (long) (Math.max(0.1, seconds("-i", interval)) * 1e9);
        } catch (BadValue e) {
            return 1_000_000_000L; // checked before the copy started
        }
    }

    /**
     * What {@code -R} sends: the display switches, format, name and interval always (the target
     * takes them as though given on its command line), the rate limit, size, width and height
     * when given. Sizes are resolved here ({@code -s @PATH} against the sender's directory).
     */
    Map<String, String> remoteRequest() throws BadValue {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        String[][] switches = {{"progress", "" + progress}, {"timer", "" + timer}, {"eta", "" + eta},
            {"fineta", "" + fineta}, {"rate", "" + rate}, {"averageRate", "" + averageRate},
            {"bytes", "" + (bytes || bits)}, {"bufferPercent", "" + bufferPercent}};
        for (String[] kv : switches) {
            if (kv[1].equals("true")) {
                m.put(kv[0], "true");
            }
        }
        checkDisplay();
        if (lastWritten != null) m.put("lastWritten", lastWritten);
        if (format != null) m.put("format", format);
        if (name != null) m.put("name", name);
        m.put("interval", Long.toString(intervalNanos()));
        MeterOptions o = meterOptions();
        if (o.rateLimiter() != null && o.rateLimiter().bytesPerSecond() > 0) m.put("rateLimit", Long.toString(o.rateLimiter().bytesPerSecond()));
        if (o.size() > 0) m.put("size", Long.toString(o.size()));
        if (width() > 0) m.put("width", width);
        if (height() > 0) m.put("height", height);
        return m;
    }

    /** Takes the options a {@code -R} request carries (see {@link #remoteRequest}) in place of ours. */
    void adoptRemote(Map<String, String> m) {
        progress = m.containsKey("progress");
        timer = m.containsKey("timer");
        eta = m.containsKey("eta");
        fineta = m.containsKey("fineta");
        rate = m.containsKey("rate");
        averageRate = m.containsKey("averageRate");
        bytes = m.containsKey("bytes");
        bufferPercent = m.containsKey("bufferPercent");
        lastWritten = m.get("lastWritten");
        format = m.get("format");
        name = m.get("name");
        interval = Double.toString(Long.parseLong(m.getOrDefault("interval", "1000000000")) / 1e9);
        if (m.containsKey("width")) width = m.get("width");
        if (m.containsKey("height")) height = m.get("height");
    }

    /** The rows -H gives, or 0 to ask the terminal. */
    int height() throws BadValue {
        return height == null ? 0 : (int) Math.min(integer("-H", height), 100_000);
    }

    private static long integer(String option, String text) throws BadValue {
        try {
            return ByteSize.parse(text);
        } catch (IllegalArgumentException e) {
            throw new BadValue(option, "integer argument expected");
        }
    }

    private static double seconds(String option, String text) throws BadValue {
        if (!SECONDS.matcher(text).matches()) {
            throw new BadValue(option, "numeric argument expected");
        }
        return Double.parseDouble(text.strip().replace(',', '.'));
    }

    /**
     * {@code -s @PATH}: a file's size, or the total of the regular files under a directory
     * (symbolic links not followed, unreadable parts left out); pv's message when PATH is missing.
     */
    private static long sizeOfPath(String path) throws BadValue {
        Path p = Path.of(path);
        try {
            if (!Files.isDirectory(p)) {
                return Files.size(p);
            }
            long[] total = {0};
            Files.walkFileTree(p, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a) {
                    if (a.isRegularFile()) {
                        total[0] += a.size();
                    }
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e) {
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
            });
            return total[0];
        } catch (IOException | RuntimeException e) {
            String why = e instanceof java.nio.file.NoSuchFileException ? "No such file or directory"
                    : e instanceof java.nio.file.AccessDeniedException ? "Permission denied" : e.getMessage();
            throw new BadValue(path, "failed to stat file: " + why);
        }
    }
}
