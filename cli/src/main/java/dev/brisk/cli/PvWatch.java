// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.internal.posix.Caller;
import dev.brisk.meter.DescriptorWatch;
import dev.brisk.meter.MeterOptions;
import dev.brisk.meter.StderrDisplay;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code brisk pv -d}: pv 1.9.42+'s watch arguments, any number of them (repeated {@code -d}, then
 * the operands): {@code PID:FD}, {@code PID} (every regular file it has open or opens),
 * {@code =NAME} (each process pgrep(1) finds by that name) and {@code @LISTFILE} (more arguments,
 * one per line; blank and {@code #} lines skipped, {@code @} lines refused). Bad arguments get
 * pv's messages and status 64; a target that cannot be watched is reported and the others go on.
 */
final class PvWatch {
    private static final String PROGRAM = "brisk pv";
    private static final Pattern PID_FD = Pattern.compile("(\\d+)(?::(\\d+))?");

    /** One watch: a process, and a descriptor or -1 for all its files. */
    private record Target(int pid, int fd) {}

    /** A bad watch argument: pv's message after the program name. */
    private static final class BadArgument extends Exception {
        private static final long serialVersionUID = 1L;

        BadArgument(String message) {
            super(message, null, false, false);
        }
    }

    private PvWatch() {}

    static int run(PvCommand cmd, MeterOptions options) {
        List<Target> targets = new ArrayList<>();
        try {
            List<String> args = new ArrayList<>(cmd.watch);
            args.addAll(cmd.files);
            for (String a : args) {
                parse(a, null, 0, targets, cmd);
            }
            if (cmd.output != null) {
                throw new BadArgument("-o: cannot transfer files when watching file descriptors");
            }
        } catch (BadArgument e) {
            cmd.err().println(PROGRAM + ": " + e.getMessage());
            return PvExit.USAGE.bit();
        }
        if (targets.isEmpty()) {
            return 0; // =NAME matched nothing: nothing to watch
        }
        AtomicInteger status = new AtomicInteger();
        boolean several = targets.size() > 1;
        List<Thread> threads = new ArrayList<>();
        for (Target t : targets) {
            Runnable watch = () -> {
                try {
                    watch(cmd, options, t, several);
                } catch (IOException e) {
                    cmd.err().println(PROGRAM + ": " + e.getMessage());
                    status.accumulateAndGet(PvExit.ACCESS.bit(), (x, y) -> x | y);
                } catch (InterruptedException e) {
                    status.accumulateAndGet(PvExit.SIGNAL.bit(), (x, y) -> x | y);
                } catch (PvCommand.BadValue e) {
                    throw new AssertionError(e); // checked before the watch
                }
            };
            if (!several) {
                watch.run();
                return status.get();
            }
            threads.add(Thread.ofPlatform().name("watch-" + t.pid + ":" + t.fd).start(watch));
        }
        try {
            for (Thread th : threads) {
                th.join();
            }
        } catch (InterruptedException e) {
            threads.forEach(Thread::interrupt); // a server's call: its watches end with it
            return PvExit.SIGNAL.bit();
        }
        return status.get();
    }

    private static void watch(PvCommand cmd, MeterOptions options, Target t, boolean several)
            throws IOException, InterruptedException, PvCommand.BadValue {
        int rows = cmd.height();
        if (t.fd < 0) {
            // every regular file of the process, one status line each named "  FD:PATH", as pv
            String prefix = several ? t.pid + ":" : "";
            DescriptorWatch.watchAll(options, t.pid, (fd, path) -> {
                try {
                    StderrDisplay d = cmd.display(prefix + String.format("%4d:%s", fd, path));
                    return d == null ? null : d.cursor(rows);
                } catch (PvCommand.BadValue e) {
                    throw new AssertionError(e); // checked before the watch
                }
            });
            return;
        }
        StderrDisplay d = cmd.display(several ? t.pid + ":" + t.fd : cmd.name);
        new DescriptorWatch(options, several && d != null ? d.cursor(rows) : d).watch(t.pid, t.fd);
    }

    /** Adds the targets of one argument; {@code list} names the list file it came from, or null. */
    private static void parse(String arg, String list, int line, List<Target> out, PvCommand cmd) throws BadArgument {
        String where = list == null ? "" : list + ":" + line + ": ";
        if (arg.startsWith("@")) {
            if (list != null) {
                throw new BadArgument("-d @: " + where + "list files may not contain @ lines");
            }
            if (arg.length() == 1) {
                throw new BadArgument("-d @: missing filename");
            }
            readList(arg.substring(1), out, cmd);
        } else if (arg.startsWith("=")) {
            if (arg.length() == 1) {
                throw new BadArgument("-d =: missing process name");
            }
            for (int pid : pgrep(arg.substring(1), cmd)) {
                out.add(new Target(pid, -1));
            }
        } else {
            Matcher m = PID_FD.matcher(arg);
            if (!m.matches()) {
                throw new BadArgument("-d: " + where + "process ID or pid:fd pair expected");
            }
            if (m.group(1).length() > 9 || Long.parseLong(m.group(1)) < 1) {
                throw new BadArgument("-d: " + where + "invalid process ID");
            }
            int fd = m.group(2) == null ? -1 : (int) Math.min(Integer.MAX_VALUE, Long.parseLong(m.group(2)));
            out.add(new Target(Integer.parseInt(m.group(1)), fd));
        }
    }

    private static void readList(String file, List<Target> out, PvCommand cmd) throws BadArgument {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new BadArgument("-d @: " + file + ": No such file or directory");
        } catch (IOException | RuntimeException e) {
            throw new BadArgument("-d @: " + file + ": " + (e instanceof java.nio.file.AccessDeniedException
                    ? "Permission denied" : e.getMessage()));
        }
        int n = 0;
        for (String l : lines) {
            n++;
            String a = l.replace("\r", "").stripLeading();
            if (!a.isEmpty() && !a.startsWith("#")) {
                parse(a.strip(), file, n, out, cmd);
            }
        }
    }

    /**
     * The processes pgrep(1) finds by {@code name}, as pv finds them (none when pgrep finds none),
     * but the caller itself; pgrep's messages go to the caller's standard error.
     */
    private static List<Integer> pgrep(String name, PvCommand cmd) throws BadArgument {
        List<Integer> pids = new ArrayList<>();
        try {
            Process p = new ProcessBuilder("pgrep", "--", name).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            for (String line : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.strip().matches("\\d{1,9}")) {
                    pids.add(Integer.parseInt(line.strip()));
                }
            }
            cmd.err().write(p.getErrorStream().readAllBytes()); // a few lines at most: read after its output
            cmd.err().flush();
            p.waitFor();
        } catch (IOException e) {
            throw new BadArgument("pgrep: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pids.remove(Integer.valueOf(Caller.current().pid()));
        return pids;
    }
}
