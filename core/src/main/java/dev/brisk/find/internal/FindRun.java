// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Caller;
import dev.brisk.walk.Visit;
import dev.brisk.walk.WalkEntry;
import dev.brisk.walk.WalkError;
import dev.brisk.walk.WalkResult;
import dev.brisk.walk.WalkVisitor;
import dev.brisk.walk.Walker;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Runs one find command line: parses it, walks each root with the expression as the visitor,
 * runs the last {@code -exec ... +} batches, and returns find's exit status. Blocks until done.
 *
 * <p>Everything a run reads of its process is its {@link Caller}'s (the current thread's, which
 * the walk's threads inherit): environment, locale, time zone, standard input; its working
 * directory and umask are its thread's. So runs of several clients' calls may go on at once in
 * one server JVM. A client's run registers an exit hook: when the client relays a signal the
 * walk stops, the running {@code -exec} command gets the signal, and nothing more runs.
 */
public final class FindRun implements WalkVisitor {
    /** Exit status when standard output was closed under us (as a shell reports death by SIGPIPE). */
    public static final int BROKEN_PIPE = 141;
    private static final byte[] PREFIX = {'f', 'i', 'n', 'd', ':', ' '};
    private static final int SIGTERM = 15;

    private final Plan plan;
    private final Output output;
    private final RunState shared = new RunState();
    private final PrintStream err;
    private final boolean postOrder;
    private final Walker walker;

    private FindRun(Plan plan, Walker walker, OutputStream out, PrintStream err) {
        this.plan = plan;
        this.walker = walker;
        this.output = new Output(out, shared);
        this.err = err;
        shared.err = err;
        shared.sequential = plan.options().threads() == 1;
        this.postOrder = plan.options().order() == dev.brisk.walk.Order.POST_ORDER;
    }

    /** Runs find with {@code args} (bytes, after the word {@code find}); returns 0, or 1 after any error. */
    public static int run(List<byte[]> args, OutputStream out, PrintStream err) {
        Caller caller = Caller.current();
        if (!caller.self()) {
            Accounts.revalidate(); // a long-lived server's table may be older than /etc/passwd
        }
        Plan plan;
        try {
            plan = Parser.parse(args);
        } catch (UsageError e) {
            byte[] m = e.bytes();
            err.write(PREFIX, 0, PREFIX.length);
            err.write(m, 0, m.length);
            err.write('\n');
            err.flush();
            return 1;
        } catch (Parser.DebugHelp help) {
            for (String w : help.warnings) {
                err.println("find: " + w);
            }
            err.flush();
            byte[] text = Parser.DebugHelp.TEXT.getBytes(StandardCharsets.US_ASCII);
            try {
                out.write(text);
                out.flush();
            } catch (java.io.IOException e) {
                return writeFailed(e, err);
            }
            return 0;
        }
        try {
            for (String w : plan.warnings()) {
                err.println("find: " + w);
            }
            for (String e : plan.errors()) {
                err.println("find: " + e);
            }
            Walker walker;
            try {
                walker = Walker.of(plan.options());
            } catch (IllegalStateException e) {
                err.println("find: " + e.getMessage());
                return 1;
            }
            if (plan.debug()) {
                err.println("find: engine " + walker.engine());
            }
            FindRun run = new FindRun(plan, walker, out, err);
            if (caller.self()) {
                return run.walk(); // a direct run ends with the JVM: its signals need no hook
            }
            Thread hook = Thread.ofPlatform().name("brisk-find-stop").unstarted(() -> run.stop(caller.signal()));
            caller.addExitHook(hook);
            if (caller.signal() != 0) {
                run.stop(caller.signal()); // relayed before the hook was there to hear it
            }
            try {
                return run.walk();
            } finally {
                caller.removeExitHook(hook);
                run.output.release();
            }
        } finally {
            for (FileOutput f : plan.files()) {
                f.close();
            }
            if (plan.runner() != null) {
                plan.runner().close();
            }
        }
    }

    /** See {@link dev.brisk.find.Find#writeFailed}. */
    public static int writeFailed(java.io.IOException failure, PrintStream err) {
        int errno = failure instanceof dev.brisk.internal.posix.PosixException p ? p.errno() : 0;
        if (errno == dev.brisk.internal.posix.Errno.EPIPE) {
            return BROKEN_PIPE;
        }
        err.println("find: write error: " + (errno != 0 ? dev.brisk.internal.posix.Errno.message(errno) : failure.getMessage()));
        err.flush();
        return 1;
    }

    /**
     * Ends the run early, as {@code signal} (SIGTERM when 0) would end a direct find: the walk
     * stops within a directory, the running command gets the signal and no other starts, and
     * nothing more is written. Any thread.
     */
    private void stop(int signal) {
        int sig = signal > 0 ? signal : SIGTERM;
        shared.stopSignal = sig;
        walker.cancel();
        if (plan.runner() != null) {
            plan.runner().signal(sig);
        }
    }

    private int walk() {
        long errors = plan.errors().size();
        for (byte[] root : plan.roots()) {
            if (shared.stopSignal() != 0) {
                break;
            }
            shared.rootLength = root.length;
            WalkResult r = walker.walk(List.of(root), this);
            errors += r.errors();
            if (r.stopped()) {
                break;
            }
        }
        int signal = shared.stopSignal();
        if (signal != 0) {
            return 128 + signal; // killed, a direct find would neither flush nor run its batches
        }
        Ctx c = output.context();
        boolean ok = plan.expr().finish(c);
        if (output.broken) {
            return BROKEN_PIPE;
        }
        // GNU's cleanup: the -fprint files are closed first, and one that fails ends find there
        // (its error() flushes standard output before it writes the message)
        for (FileOutput f : plan.files()) {
            String message = f.finish();
            if (message != null) {
                output.flushAll();
                err.println("find: " + message);
                reportWriteError();
                err.flush();
                return output.broken ? BROKEN_PIPE : 1;
            }
        }
        output.flushAll();
        if (output.broken) {
            return BROKEN_PIPE;
        }
        if (output.failedSinceSync()) {
            err.println("find: " + Quote.q("standard output") + ": " + output.lastError());
        }
        if (shared.outputTooLarge) {
            // C's printf refused a width beyond an int: GNU find reports the stream's error at exit
            err.println("find: " + Quote.q("standard output") + ": Value too large for defined data type");
            shared.failed = true;
        }
        boolean writeFailed = reportWriteError();
        err.flush();
        return errors == 0 && ok && !shared.failed && !writeFailed ? 0 : 1;
    }

    /**
     * GNU's last word on a standard output that failed at any time (gnulib's close_stdout at exit):
     * {@code write error}, with the reason when closing it fails too (a closed descriptor).
     */
    private boolean reportWriteError() {
        if (output.failures() == 0) {
            return false;
        }
        err.println("find: write error" + (output.lastErrno() == dev.brisk.internal.posix.Errno.EBADF
                ? ": " + output.lastError() : ""));
        return true;
    }

    @Override
    public Visit visit(WalkEntry entry) {
        if (shared.stopSignal != 0) {
            return Visit.STOP;
        }
        Ctx c = output.context();
        c.prune = false;
        if (entry.depth() >= plan.minDepth()) {
            try {
                plan.expr().eval(c, entry);
            } catch (Actions.Stop quit) {
                // -quit: the rest of the expression does not run
            }
            c.endRecord();
            if (entry.depth() == 0) {
                c.flush(); // a root's record first, before the walk's threads write theirs
            }
        }
        if (c.quit || output.broken) {
            return Visit.STOP;
        }
        return c.prune && !postOrder ? Visit.SKIP_SUBTREE : Visit.CONTINUE;
    }

    @Override
    public void failed(WalkError error) {
        String line = error.message().startsWith("File system loop")
                ? "File system loop detected; " + Quote.q(error.path()) + " is part of the same file system loop as "
                        + (error.loopOf() != null ? Quote.q(error.loopOf()) : "an ancestor") + "."
                : Quote.q(error.path()) + ": " + error.message();
        output.context().message(line);
    }
}
