// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.walk.WalkEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** find's actions: printing, running commands, quitting. */
final class Actions {
    private Actions() {}

    /** {@code -print} (newline) and {@code -print0} (NUL) after the path. */
    static final class Print extends Expr {
        private final int terminator;

        Print(int terminator) {
            this.terminator = terminator;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            c.write(e.pathBuffer(), 0, e.pathLength());
            c.write(terminator);
            return true;
        }

        @Override
        boolean hasAction() {
            return true;
        }
    }

    static final class PrintFormat extends Expr {
        private final Printf format;

        PrintFormat(Printf format) {
            this.format = format;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            format.print(c, e);
            return true;
        }

        @Override
        boolean hasAction() {
            return true;
        }
    }

    /**
     * {@code -delete}: removes the entry (a directory with {@code AT_REMOVEDIR}; the walk is in
     * post-order, so after its contents); true on success, else reports the failure, makes the
     * exit status 1 and is false. As GNU find, leaves a root named {@code .} alone.
     */
    static final class Delete extends Expr {
        @Override
        boolean eval(Ctx c, WalkEntry e) {
            byte[] p = e.pathBuffer();
            int len = e.pathLength();
            if (len == 1 && p[0] == '.') {
                return true;
            }
            String why = dev.brisk.internal.posix.PathCalls.unlink(p, len, e.type() == dev.brisk.walk.EntryType.DIRECTORY);
            if (why == null) {
                return true;
            }
            c.shared.failed = true;
            c.message("cannot delete " + Quote.q(p, 0, len) + ": " + why);
            return false;
        }

        @Override
        boolean hasAction() {
            return true;
        }
    }

    /**
     * {@code -fprint FILE}, {@code -fprint0 FILE}, {@code -fprintf FILE FORMAT}, {@code -fls FILE}:
     * {@code inner} (a print, printf or ls action) writing to the file instead of standard
     * output, whole records per thread as on standard output (the run writes them out at its
     * end); with no file ({@code /dev/stdout}) to standard output, with the other records.
     */
    static final class FilePrint extends Expr {
        private final FileOutput file;
        private final Expr inner;

        FilePrint(FileOutput file, Expr inner) {
            this.file = file;
            this.inner = inner;
        }

        @Override
        boolean needsOneThread() {
            return inner.needsOneThread();
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            if (file == null) {
                return inner.eval(c, e);
            }
            Ctx fc = file.output(c.shared).context();
            inner.eval(fc, e);
            fc.endRecord();
            if (file.unbuffered()) {
                fc.flush();
            }
            return true;
        }

        @Override
        boolean hasAction() {
            return true;
        }
    }

    /**
     * {@code -quit}: as in GNU find, nothing after it runs, not even the rest of the expression
     * for this entry ({@code find . -quit} prints nothing); the walk then stops and pending
     * {@code -exec ... +} batches run. The rest of the expression is left by {@link Stop}.
     */
    static final class Quit extends Expr {
        @Override
        boolean eval(Ctx c, WalkEntry e) {
            c.quit = true;
            throw Stop.STOP;
        }

        @Override
        boolean needsOneThread() {
            return true;
        }
    }

    /** Thrown by {@code -quit} out of the expression's evaluation: one shared instance, no stack trace. */
    static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Stop STOP = new Stop();

        private Stop() {
            super(null, null, false, false);
        }
    }

    /**
     * {@code -exec}, {@code -execdir}, {@code -ok}, {@code -okdir}: with {@code ;} one command per
     * entry, true when it exits 0; with {@code +} entries batched up to the argument limit, always
     * true (a failed batch makes find's status 1). Used from one thread only.
     */
    static final class Exec extends Expr {
        private static final byte[] BRACES = {'{', '}'};
        private final ExecRunner runner;
        private final List<byte[]> template;
        private final boolean batch, inDir, ask;
        private final long limit;
        /** The kernel's room for a batch's names beside the command's words and the environment. */
        private final long kernelLimit;
        /** The bytes of the command's own words, each with its NUL (GNU counts them in the batch). */
        private final long initialChars;
        private final List<byte[]> pending = new ArrayList<>();
        /** The pending names' bytes as GNU counts them (with a NUL each), and as the kernel does (with a pointer too). */
        private long pendingChars, pendingCost;
        private byte[] pendingDir;

        Exec(ExecRunner runner, List<byte[]> template, boolean batch, boolean inDir, boolean ask) {
            this.runner = runner;
            this.template = template;
            this.batch = batch;
            this.inDir = inDir;
            this.ask = ask;
            long fixed = 0, chars = 0;
            for (byte[] t : batch ? template.subList(0, template.size() - 2) : template) {
                fixed += ExecRunner.argumentCost(t.length);
                chars += t.length + 1;
            }
            this.initialChars = chars;
            this.kernelLimit = batch ? ExecRunner.argumentSpace() - 4096 - fixed : 0;
            this.limit = batch ? ExecRunner.gnuBatchLimit() : 0;
        }

        @Override
        boolean hasAction() {
            return true;
        }

        @Override
        boolean needsOneThread() {
            return true;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            byte[] dir = inDir ? dirOf(e) : null;
            byte[] arg = inDir ? dotSlashName(e) : e.path();
            if (batch) {
                if (!pending.isEmpty() && (initialChars + pendingChars + arg.length + 1 > limit
                        || pendingCost + ExecRunner.argumentCost(arg.length) > kernelLimit
                        || !Arrays.equals(dir, pendingDir))) {
                    runBatch(c);
                }
                pending.add(arg);
                pendingChars += arg.length + 1;
                pendingCost += ExecRunner.argumentCost(arg.length);
                pendingDir = dir;
                return true;
            }
            List<byte[]> argv = new ArrayList<>(template.size());
            for (byte[] t : template) {
                argv.add(replace(t, arg));
            }
            c.flush();
            c.output.sync();
            if (ask && !confirm(c.shared, template.getFirst(), Arrays.copyOf(e.pathBuffer(), e.pathLength()))) {
                return false;
            }
            return runner.run(argv, dir, c) == 0;
        }

        @Override
        boolean finish(Ctx c) {
            return pending.isEmpty() || runBatch(c);
        }

        private boolean runBatch(Ctx c) {
            List<byte[]> argv = new ArrayList<>(template.subList(0, template.size() - 2)); // without {} +
            argv.addAll(pending);
            pending.clear();
            pendingChars = 0;
            pendingCost = 0;
            c.flush();
            c.output.sync();
            boolean ok = runner.run(argv, pendingDir, c) == 0;
            if (!ok) {
                c.shared.failed = true;
            }
            return ok;
        }

        /**
         * GNU find's question, {@code < PROGRAM ... PATH > ? } (both as given, byte for byte), on
         * the run's standard error, and whether the answer, a line of its standard input, is yes.
         */
        private static boolean confirm(RunState run, byte[] program, byte[] path) {
            ByteArrayOutputStream q = new ByteArrayOutputStream();
            q.writeBytes(new byte[] {'<', ' '});
            q.writeBytes(program);
            q.writeBytes(" ... ".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            q.writeBytes(path);
            q.writeBytes(" > ? ".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            synchronized (run.err) {
                run.err.write(q.toByteArray(), 0, q.size());
                run.err.flush();
            }
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            try {
                for (int b; (b = run.input().read()) >= 0 && b != '\n'; ) {
                    line.write(b);
                }
            } catch (IOException e) {
                return false;
            }
            byte[] l = line.toByteArray();
            return l.length > 0 && (l[0] == 'y' || l[0] == 'Y');
        }

        /** {@code t} with every {@code {}} replaced by {@code arg}. */
        private static byte[] replace(byte[] t, byte[] arg) {
            if (indexOf(t, 0) < 0) {
                return t;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(t.length + arg.length);
            int from = 0;
            for (int i; (i = indexOf(t, from)) >= 0; from = i + 2) {
                out.write(t, from, i - from);
                out.write(arg, 0, arg.length);
            }
            out.write(t, from, t.length - from);
            return out.toByteArray();
        }

        private static int indexOf(byte[] t, int from) {
            for (int i = from; i + 1 < t.length; i++) {
                if (t[i] == BRACES[0] && t[i + 1] == BRACES[1]) {
                    return i;
                }
            }
            return -1;
        }

        /** The directory holding {@code e} ("." when the path has no slash, "/" for the root "/"). */
        private static byte[] dirOf(WalkEntry e) {
            byte[] p = e.pathBuffer();
            int end = Predicates.nameStart(e);
            while (end > 1 && p[end - 1] == '/') {
                end--;
            }
            if (end == 0) {
                return new byte[] {p[0] == '/' ? (byte) '/' : (byte) '.'}; // the root "/" runs in "/" itself
            }
            return Arrays.copyOf(p, end);
        }

        private static byte[] dotSlashName(WalkEntry e) {
            int from = Predicates.nameStart(e), to = Predicates.nameEnd(e);
            if (to - from == 1 && e.pathBuffer()[from] == '/') {
                return new byte[] {'/'};
            }
            byte[] r = new byte[to - from + 2];
            r[0] = '.';
            r[1] = '/';
            System.arraycopy(e.pathBuffer(), from, r, 2, to - from);
            return r;
        }
    }
}
