// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.meter.ByteSize;
import dev.brisk.meter.CopyResult;
import dev.brisk.meter.Input;
import dev.brisk.meter.Meter;
import dev.brisk.meter.MeterOptions;
import dev.brisk.meter.MeterOptions.Counting;
import dev.brisk.meter.MeterOptions.Transfer;
import dev.brisk.meter.Output;
import dev.brisk.meter.ProgressListener;
import dev.brisk.meter.RateLimiter;
import dev.brisk.meter.StatusLine;
import dev.brisk.meter.StatusLine.Field;
import dev.brisk.meter.StderrDisplay;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code brisk pv}: pv's pipe meter on {@link Meter}. Parses pv's flags, checks their values
 * with pv's messages, builds {@link MeterOptions} and a {@link StderrDisplay}, runs the copy and
 * returns pv's exit status ({@link PvExit}).
 */
@Command(name = "pv", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = 64, usageHelpWidth = 100,
        description = {"Concatenate FILE(s), or standard input, to standard output, with monitoring (like pv).",
                "Data moves by splice(2) when a side is a pipe, copy_file_range(2)/sendfile(2) from files."},
        footer = {"", "Exit status: 0 ok; else the OR of 2 (a file could not be opened), 4 (input is output),",
                "8 (no input could be opened), 16 (read or write error), 32 (interrupted); 64 bad usage."})
final class PvCommand implements Callable<Integer>, FastArgs.Table {
    private static final String PROGRAM = "brisk pv";
    private static final Pattern SECONDS = Pattern.compile("\\s*\\d+([.,]\\d*)?");

    @Option(names = {"-p", "--progress"}, description = "Show the progress bar.") boolean progress;
    @Option(names = {"-t", "--timer"}, description = "Show the elapsed time.") boolean timer;
    @Option(names = {"-e", "--eta"}, description = "Show the estimated time to completion.") boolean eta;
    @Option(names = {"-I", "--fineta"}, description = "Show the estimated local time of arrival.") boolean fineta;
    @Option(names = {"-r", "--rate"}, description = "Show the current rate.") boolean rate;
    @Option(names = {"-a", "--average-rate"}, description = "Show the average rate.") boolean averageRate;
    @Option(names = {"-b", "--bytes"}, description = "Show the byte (or line) count.") boolean bytes;
    @Option(names = {"-8", "--bits"}, description = "Show bits instead of bytes (decimal prefixes).") boolean bits;
    @Option(names = {"-k", "--si"}, description = "Decimal prefixes (kB, MB) instead of binary (KiB, MiB).") boolean si;
    @Option(names = {"-T", "--buffer-percent"}, description = "Show the buffer use (implies -C).") boolean bufferPercent;
    @Option(names = {"-A", "--last-written"}, paramLabel = "NUM", description = "Show the last NUM bytes written (implies -C).") String lastWritten;
    @Option(names = {"-F", "--format"}, paramLabel = "FORMAT", description = "Status line format: %%p %%t %%e %%I %%r %%a %%b %%T %%nA %%N %%%%.") String format;
    @Option(names = {"-n", "--numeric"}, description = "Print numbers, one per line (percent; bytes with -b; time prefix with -t).") boolean numeric;
    @Option(names = {"-q", "--quiet"}, description = "Show nothing (errors still print).") boolean quiet;
    @Option(names = {"-N", "--name"}, paramLabel = "NAME", description = "Prefix the status line with NAME.") String name;
    @Option(names = {"-c", "--cursor"}, description = "Draw on a row of its own (cursor positioning), so several meters in one pipeline show on separate lines.") boolean cursor;
    @Option(names = {"-i", "--interval"}, paramLabel = "SEC", description = "Seconds between updates (default 1, at least 0.1).") String interval;
    @Option(names = {"-m", "--average-rate-window"}, paramLabel = "SEC", description = "Window of the average rate and ETA (default 30).") String window;
    @Option(names = {"-w", "--width"}, paramLabel = "WIDTH", description = "Assume the terminal is WIDTH columns wide.") String width;
    @Option(names = {"-H", "--height"}, paramLabel = "HEIGHT", description = "Assume the terminal is HEIGHT rows high (used by -c; 0: ask the terminal).") String height;
    @Option(names = {"-f", "--force"}, description = "Draw even when standard error is not a terminal.") boolean force;
    @Option(names = {"-W", "--wait"}, description = "Show nothing and start the clock at the first byte.") boolean waitFirst;
    @Option(names = {"-D", "--delay-start"}, paramLabel = "SEC", description = "Show nothing until SEC seconds have passed.") String delay;
    @Option(names = {"-s", "--size"}, paramLabel = "SIZE", description = "Expected total: bytes (k/m/g/t suffixes), lines with -l, or @FILE for that file's size.") String size;
    @Option(names = {"-l", "--line-mode"}, description = "Count lines instead of bytes.") boolean lineMode;
    @Option(names = {"-0", "--null"}, description = "Lines end with NUL (implies -l).") boolean nul;
    @Option(names = {"-S", "--stop-at-size"}, description = "Stop after --size has been transferred.") boolean stopAtSize;
    @Option(names = {"-L", "--rate-limit"}, paramLabel = "RATE", description = "Limit to RATE bytes per second (k/m/g/t suffixes).") String rateLimit;
    @Option(names = {"-B", "--buffer-size"}, paramLabel = "BYTES", description = "Buffer size (implies -C).") String bufferSize;
    @Option(names = {"-C", "--no-splice"}, description = "Never use splice or other zero-copy calls.") boolean noSplice;
    @Option(names = {"-E", "--skip-errors"}, description = "Skip read errors, writing zeros (twice: report once per file).") boolean[] skipErrors = new boolean[0];
    @Option(names = {"-Y", "--sync"}, description = "fdatasync the output after every write.") boolean sync;
    @Option(names = {"-X", "--discard"}, description = "Write nothing: just count what is read.") boolean discard;
    @Option(names = {"-d", "--watchfd"}, paramLabel = "PID[:FD]", description = "Watch descriptor FD of process PID (without FD: each of its open regular files) instead of copying.") String watch;
    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of standard output.") String output;

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "Files to copy in turn (- is standard input; none: standard input).")
    List<String> files = new ArrayList<>();

    /** A bad option value: pv's one-line message, status 64. */
    private static final class BadValue extends Exception {
        private static final long serialVersionUID = 1L;

        BadValue(String option, String message) {
            super(option + ": " + message, null, false, false);
        }
    }

    @Override
    public Integer call() {
        MeterOptions options;
        StderrDisplay display;
        try {
            options = meterOptions();
            display = display();
        } catch (BadValue e) {
            System.err.println(PROGRAM + ": " + e.getMessage());
            return PvExit.USAGE.bit();
        }
        if (watch != null) {
            return watch(options, display);
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
        ProgressListener listener = display != null ? display : new ProgressListener() {
            @Override
            public void onProgress(dev.brisk.meter.Progress p) {}

            @Override
            public void onProblem(String message) {
                System.err.println(PROGRAM + ": " + message);
            }
        };
        // SIGINT, SIGTERM, SIGHUP: end the status line and exit 32, as pv does (not the JVM's 128+n)
        java.util.concurrent.atomic.AtomicBoolean finished = new java.util.concurrent.atomic.AtomicBoolean();
        Thread onSignal = new Thread(() -> {
            if (!finished.get()) {
                if (display != null) {
                    display.interrupted();
                }
                Runtime.getRuntime().halt(PvExit.SIGNAL.bit());
            }
        });
        Runtime.getRuntime().addShutdownHook(onSignal);
        try {
            CopyResult result = new Meter(options, listener).copy(inputs, out);
            return PvExit.of(result);
        } catch (IOException e) {
            System.err.println(PROGRAM + ": " + e.getMessage());
            return PvExit.ACCESS.bit();
        } finally {
            finished.set(true);
        }
    }

    /** {@code -d PID:FD}: follows another process's file position until it closes the file. */
    private int watch(MeterOptions options, StderrDisplay display) {
        java.util.regex.Matcher m = Pattern.compile("(\\d+)(?::(\\d+))?").matcher(watch);
        String problem = null;
        if (!m.matches()) {
            problem = "-d: process ID or pid:fd pair expected";
        } else if (Long.parseLong(m.group(1)) < 1 || m.group(1).length() > 9) {
            problem = "-d: invalid process ID";
        } else if (!files.isEmpty()) {
            problem = "cannot transfer files when watching file descriptors";
        }
        if (problem != null) {
            System.err.println(PROGRAM + ": " + problem);
            return PvExit.USAGE.bit();
        }
        try {
            if (m.group(2) == null) {
                // every regular file of the process, one status line each named "  FD:PATH", as pv
                dev.brisk.meter.DescriptorWatch.watchAll(options, Integer.parseInt(m.group(1)), (fd, path) -> {
                    try {
                        StderrDisplay d = display(String.format("%4d:%s", fd, path));
                        return d == null ? null : d.cursor(height == null ? 0 : (int) Math.min(integer("-H", height), 100_000));
                    } catch (BadValue e) {
                        throw new AssertionError(e); // checked before the watch
                    }
                });
                return 0;
            }
            new dev.brisk.meter.DescriptorWatch(options, display).watch(Integer.parseInt(m.group(1)),
                    (int) Math.min(Integer.MAX_VALUE, Long.parseLong(m.group(2))));
            return 0;
        } catch (IOException e) {
            System.err.println(PROGRAM + ": " + e.getMessage());
            return PvExit.ACCESS.bit();
        } catch (InterruptedException e) {
            return PvExit.SIGNAL.bit();
        }
    }

    private MeterOptions meterOptions() throws BadValue {
        MeterOptions.Builder b = MeterOptions.builder();
        Counting counting = nul ? Counting.NUL_LINES : lineMode ? Counting.LINES : Counting.BYTES;
        b.counting(counting).stopAtSize(stopAtSize).sync(sync).discard(discard).waitFirstByte(waitFirst);
        if (size != null) {
            b.size(size.startsWith("@") ? sizeOfFile(size.substring(1)) : integer("-s", size));
        }
        if (rateLimit != null) {
            long limit = integer("-L", rateLimit);
            if (limit > 0) {
                b.rateLimiter(new RateLimiter(limit));
            }
        }
        boolean readWrite = noSplice || bufferPercent || lastWritten != null;
        if (bufferSize != null) {
            long n = integer("-B", bufferSize);
            if (n > (1 << 30)) {
                throw new BadValue("-B", "buffer size too large (at most 1G)");
            }
            b.bufferSize((int) n);
            readWrite = true;
        }
        b.transfer(readWrite ? Transfer.READ_WRITE : Transfer.AUTO);
        b.skipErrors(Math.min(2, skipErrors.length));
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

    /** The display, or null when quiet. */
    private StderrDisplay display() throws BadValue {
        return display(name);
    }

    /** The display with the status-line name {@code name}, or null when quiet. */
    private StderrDisplay display(String name) throws BadValue {
        int cols = width == null ? 0 : (int) Math.min(integer("-w", width), 100_000);
        int rows = height == null ? 0 : (int) Math.min(integer("-H", height), 100_000);
        long delayNanos = delay == null ? 0 : (long) (seconds("-D", delay) * 1e9);
        if (quiet) {
            return null;
        }
        Set<Field> fields = EnumSet.noneOf(Field.class);
        if (progress) fields.add(Field.PROGRESS);
        if (timer) fields.add(Field.TIMER);
        if (eta) fields.add(Field.ETA);
        if (fineta) fields.add(Field.FINETA);
        if (rate) fields.add(Field.RATE);
        if (averageRate) fields.add(Field.AVERAGE_RATE);
        if (bytes) fields.add(Field.BYTES);
        if (bufferPercent) fields.add(Field.BUFFER_PERCENT);
        if (lastWritten != null) fields.add(Field.LAST_WRITTEN);
        if (fields.isEmpty() && !numeric && format == null) {
            fields.addAll(EnumSet.of(Field.PROGRESS, Field.TIMER, Field.ETA, Field.RATE, Field.BYTES));
        }
        if (name != null) {
            fields.add(Field.NAME);
        }
        int tail = lastWritten == null ? 1 : Math.clamp(integer("-A", lastWritten), 1, 256);
        String fmt = format != null && !numeric ? format : StatusLine.formatOf(fields, tail);
        StatusLine.Units units = bits ? StatusLine.Units.BITS : si ? StatusLine.Units.DECIMAL : StatusLine.Units.BINARY;
        StatusLine line = new StatusLine(fmt, name, lineMode || nul, units, numeric, Clock.systemDefaultZone());
        StderrDisplay display = new StderrDisplay(line, PROGRAM, 2, numeric, force, cols, delayNanos);
        return cursor ? display.cursor(rows) : display;
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

    private static long sizeOfFile(String file) throws BadValue {
        try {
            return Files.size(Path.of(file));
        } catch (IOException | RuntimeException e) {
            throw new BadValue("-s", "failed to stat file " + file + ": "
                    + (e instanceof java.nio.file.NoSuchFileException ? "No such file or directory" : e.getMessage()));
        }
    }

    /**
     * {@code brisk pv}'s options for {@link FastArgs}: each {@code @Option} field's name, then its names
     * as the annotation gives them (FastArgsTest checks that the two agree). Read instead of the
     * annotations, whose parsing generates a proxy class per annotation type at start-up.
     */
    @Override
    public String[][] fastOptions() {
        return new String[][] {
            {"progress", "-p", "--progress"},
            {"timer", "-t", "--timer"},
            {"eta", "-e", "--eta"},
            {"fineta", "-I", "--fineta"},
            {"rate", "-r", "--rate"},
            {"averageRate", "-a", "--average-rate"},
            {"bytes", "-b", "--bytes"},
            {"bits", "-8", "--bits"},
            {"si", "-k", "--si"},
            {"bufferPercent", "-T", "--buffer-percent"},
            {"lastWritten", "-A", "--last-written"},
            {"format", "-F", "--format"},
            {"numeric", "-n", "--numeric"},
            {"quiet", "-q", "--quiet"},
            {"name", "-N", "--name"},
            {"cursor", "-c", "--cursor"},
            {"interval", "-i", "--interval"},
            {"window", "-m", "--average-rate-window"},
            {"width", "-w", "--width"},
            {"height", "-H", "--height"},
            {"force", "-f", "--force"},
            {"waitFirst", "-W", "--wait"},
            {"delay", "-D", "--delay-start"},
            {"size", "-s", "--size"},
            {"lineMode", "-l", "--line-mode"},
            {"nul", "-0", "--null"},
            {"stopAtSize", "-S", "--stop-at-size"},
            {"rateLimit", "-L", "--rate-limit"},
            {"bufferSize", "-B", "--buffer-size"},
            {"noSplice", "-C", "--no-splice"},
            {"skipErrors", "-E", "--skip-errors"},
            {"sync", "-Y", "--sync"},
            {"discard", "-X", "--discard"},
            {"watch", "-d", "--watchfd"},
            {"output", "-o", "--output"}
        };
    }

    @Override
    public String fastOperands() {
        return "files";
    }
}
