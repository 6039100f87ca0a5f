// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.ItemSource;
import dev.brisk.exec.PipeRecords;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code --pipe}'s input spread over jobs that run all at once and each read a stream, not one
 * block: GNU parallel 20221122's {@code --round-robin} (blocks to whichever job is ready for
 * more; each of up to N jobs starts with a block of its own, {@code --header}'s match before it;
 * {@link Turn#IN_TURN}, GNU's with {@code -k}, block K to job K mod N), {@code --tee} (all of the input to
 * every job), {@code --shard} and {@code --bin} (each line to the job its key picks, see
 * {@link LineKey}). Job K reads FIFO {@link #fifo fifo(K)} in a private directory; a thread per
 * job writes it, one more reads the input. A job that ends unread ends its writer (EPIPE), and
 * the rest of its share is dropped. {@link #close} ends every thread and removes the FIFOs.
 */
public final class StreamSpread implements AutoCloseable {
    /** How the input goes to the jobs. */
    public enum Mode {
        /** {@code --round-robin}: records cut into blocks, each to one job. */
        ROUND_ROBIN,
        /** {@code --tee}: everything to every job. */
        TEE,
        /** {@code --shard}, {@code --bin}: each line to the job of its key. */
        BY_KEY
    }

    /**
     * How {@link Mode#ROUND_ROBIN} hands blocks out.
     *
     * @param turn which job gets each block past the first N
     * @param header {@code --header}'s regular expression ({@code :} one line, N lines), whose
     *     match at the start of the input goes before each job's first block; null: none
     */
    public record RoundRobin(Turn turn, String header) {
        public RoundRobin {
            java.util.Objects.requireNonNull(turn, "turn");
        }
    }

    /** Which {@link Mode#ROUND_ROBIN} job gets a block past the first N. */
    public enum Turn {
        /** Whichever job's writer is ready for more (GNU parallel's non-blocking writes). */
        AS_READY,
        /**
         * The jobs in turn, block K to job K mod N (a job that ended passes its turn on): GNU
         * parallel's {@code --round-robin -k}, whose blocking writes give each job its whole block
         * before the next block goes to the next job.
         */
        IN_TURN
    }

    private static final Object END = new Object();
    private static final int CHUNK = 1 << 16;

    private final Path dir;
    private final int jobs;
    private final Mode mode;
    private final Turn turn;
    private final String header;
    private final List<Writer> writers = new ArrayList<>();
    /** Blocks for any round-robin job once each has had its first. */
    private final BlockingQueue<Object> shared = new ArrayBlockingQueue<>(4);
    private final Thread reader;
    private final Object lock = new Object();
    /** Round robin: how many jobs have their first block; -1 more once the input ended. */
    private int started;
    private boolean ended;
    private volatile boolean closed;

    /**
     * Starts spreading {@code in} over {@code jobs} FIFOs in a new directory under {@code tmpdir}.
     *
     * @param records how {@link Mode#ROUND_ROBIN} cuts blocks (and warns through {@code warnings})
     * @param robin which {@link Mode#ROUND_ROBIN} job gets each block past the first N, and what
     *     goes before each job's first block
     * @param key with {@link Mode#BY_KEY}: which job each line goes to (a key that names a column
     *     reads the header line here, first)
     * @throws IllegalArgumentException if the header has no column of the key's name, or
     *     {@code robin}'s header is not a regular expression
     */
    public StreamSpread(InputStream in, Mode mode, RoundRobin robin, int jobs, PipeRecords records, LineKey key, Path tmpdir,
                        Consumer<String> warnings) throws IOException {
        this.jobs = jobs;
        this.mode = mode;
        this.turn = robin.turn();
        this.header = robin.header();
        if (header != null) {
            BlockHeader.pattern(header);
        }
        if (mode == Mode.BY_KEY && key.needsHeader()) {
            // as GNU parallel: the header names the key's column, and goes to no job
            key.header(readLine(in, new ByteArrayOutputStream()));
        }
        dir = Files.createTempDirectory(tmpdir, "par", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (int k = 1; k <= jobs; k++) {
            Libc.mkfifo(fifo(k).toString().getBytes(StandardCharsets.UTF_8), 0600);
        }
        if (mode != Mode.ROUND_ROBIN) {
            for (int k = 1; k <= jobs; k++) {
                writers.add(new Writer(k, null));
            }
        }
        reader = Thread.ofPlatform().daemon().name("brisk-pipe-spread").start(() -> {
            try {
                switch (mode) {
                    case ROUND_ROBIN -> roundRobin(in, records, warnings);
                    case TEE -> tee(in);
                    case BY_KEY -> byKey(in, key);
                }
            } catch (IOException | RuntimeException e) {
                warnings.accept("cannot read the input: " + e.getMessage());
            } catch (InterruptedException e) {
                // closed
            } finally {
                finish();
            }
        });
    }

    /** The FIFO job {@code k} (1 to jobs) reads its input from. */
    public Path fifo(int k) {
        return dir.resolve(Integer.toString(k));
    }

    /** The directory of the FIFOs. */
    public Path directory() {
        return dir;
    }

    /**
     * The jobs to run, as empty items: for {@link Mode#ROUND_ROBIN} one per job that has a first
     * block (the next waits for it), else {@code jobs} of them.
     */
    public ItemSource items() {
        return new ItemSource() {
            private int given;

            @Override
            public byte[] next() throws IOException {
                if (given >= jobs || mode == Mode.ROUND_ROBIN && !awaitStarted(given + 1)) {
                    return null;
                }
                given++;
                return new byte[0];
            }

            @Override
            public void close() {}
        };
    }

    private boolean awaitStarted(int k) throws IOException {
        synchronized (lock) {
            while (started < k && !ended) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted");
                }
            }
            return started >= k;
        }
    }

    private void roundRobin(InputStream in, PipeRecords records, Consumer<String> warnings)
            throws IOException, InterruptedException {
        // as GNU parallel's set_block: the header goes before a job's first block only
        byte[] head = new byte[0];
        InputStream rest = in;
        if (header != null) {
            BlockHeader.Found found = BlockHeader.find(in, header, records.blockSize());
            head = found.head();
            rest = found.rest(in);
        }
        try (ItemSource blocks = records.blocks(rest, warnings)) {
            for (long k = 0; ; k++) {
                byte[] b = blocks.next();
                if (b == null) {
                    return;
                }
                if (writers.size() < jobs) {
                    Writer w = new Writer(writers.size() + 1, head.length == 0 ? b : Bytes.concat(head, b));
                    synchronized (lock) {
                        writers.add(w);
                        started++;
                        lock.notifyAll();
                    }
                } else if (turn == Turn.IN_TURN) {
                    // the next job in turn that has not ended takes it
                    for (int i = 0; i < jobs; i++) {
                        Writer w = writers.get((int) ((k + i) % jobs));
                        if (put(w.queue, b, w)) {
                            break;
                        }
                    }
                } else {
                    put(shared, b, null);
                }
            }
        }
    }

    private void tee(InputStream in) throws IOException, InterruptedException {
        byte[] buf = new byte[CHUNK];
        for (int n; (n = in.read(buf)) > 0; ) {
            byte[] chunk = java.util.Arrays.copyOf(buf, n);
            for (Writer w : writers) {
                put(w.queue, chunk, w);
            }
        }
    }

    private void byKey(InputStream input, LineKey key) throws IOException, InterruptedException {
        InputStream in = new BufferedInputStream(input, CHUNK);
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        ByteArrayOutputStream[] pending = new ByteArrayOutputStream[jobs];
        for (int k = 0; k < jobs; k++) {
            pending[k] = new ByteArrayOutputStream();
        }
        for (byte[] l; (l = readLine(in, line)) != null; ) {
            int k = key.job(l, jobs);
            pending[k].writeBytes(l);
            if (pending[k].size() >= CHUNK) {
                put(writers.get(k).queue, pending[k].toByteArray(), writers.get(k));
                pending[k].reset();
            }
        }
        for (int k = 0; k < jobs; k++) {
            if (pending[k].size() > 0) {
                put(writers.get(k).queue, pending[k].toByteArray(), writers.get(k));
            }
        }
    }

    /** The next line of {@code in} with its newline (the last may lack one), or null at the end. */
    static byte[] readLine(InputStream in, ByteArrayOutputStream line) throws IOException {
        line.reset();
        for (int b; (b = in.read()) >= 0; ) {
            line.write(b);
            if (b == '\n') {
                break;
            }
        }
        return line.size() == 0 ? null : line.toByteArray();
    }

    /**
     * Puts {@code item} on {@code queue} unless its writer ended ({@code owner}, null for the
     * shared queue); whether it did.
     */
    private boolean put(BlockingQueue<Object> queue, Object item, Writer owner) throws InterruptedException {
        while (!closed && (owner == null || !owner.dead)) {
            if (queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
                return true;
            }
            if (owner == null && writers.stream().allMatch(w -> w.dead)) {
                return false; // every round-robin job ended: the rest goes nowhere
            }
        }
        return false;
    }

    /** Whether the writers take their items from {@link #shared}. */
    private boolean fromShared() {
        return mode == Mode.ROUND_ROBIN && turn == Turn.AS_READY;
    }

    /** The input ended: each writer ends its FIFO once it has written what it holds. */
    private void finish() {
        synchronized (lock) {
            ended = true;
            lock.notifyAll();
        }
        try {
            for (Writer w : writers) {
                put(fromShared() ? shared : w.queue, END, fromShared() ? null : w);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the threads (a job that never opened its FIFO lets its writer go) and removes the FIFOs. */
    @Override
    public void close() {
        closed = true;
        reader.interrupt();
        List<Writer> all;
        synchronized (lock) {
            all = List.copyOf(writers);
        }
        for (Writer w : all) {
            w.release();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary directory left behind: nothing more to do
        }
    }

    /** One job's FIFO and the thread that writes it. */
    private final class Writer {
        /** A round-robin job's next block (one, as GNU holds one), or tee's or a key's chunks. */
        final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(mode == Mode.ROUND_ROBIN ? 1 : 4);
        final int number;
        final Thread thread;
        volatile boolean dead;

        Writer(int number, byte[] first) {
            this.number = number;
            // a platform thread: the FIFO's open and writes block in system calls
            thread = Thread.ofPlatform().daemon().name("brisk-pipe-spread-" + number).start(() -> write(first));
        }

        private void write(byte[] first) {
            int fd = -1;
            try (Arena arena = Arena.ofConfined()) {
                fd = Libc.open(fifo(number).toString().getBytes(StandardCharsets.UTF_8), Flags.O_WRONLY | Flags.O_CLOEXEC, 0);
                MemorySegment buf = arena.allocate(CHUNK);
                if (first != null) {
                    writeAll(fd, buf, first);
                }
                BlockingQueue<Object> from = fromShared() ? shared : queue;
                for (Object o; !closed && (o = from.take()) != END; ) {
                    writeAll(fd, buf, (byte[]) o);
                }
            } catch (PosixException e) {
                // EPIPE: the job ended without reading all of its input, as a job may
            } catch (InterruptedException e) {
                // closed
            } finally {
                dead = true;
                if (fd >= 0) {
                    Libc.close(fd);
                }
            }
        }

        private void writeAll(int fd, MemorySegment buf, byte[] b) throws PosixException {
            for (int off = 0; off < b.length; ) {
                int n = Math.min(CHUNK, b.length - off);
                MemorySegment.copy(b, off, buf, ValueLayout.JAVA_BYTE, 0, n);
                long at = 0;
                while (at < n) {
                    long w = Libc.write(fd, buf.asSlice(at), n - at);
                    if (w <= 0) {
                        throw new PosixException("write", null, 32);
                    }
                    at += w;
                }
                off += n;
            }
        }

        /** Lets a writer whose job never opened the FIFO go: opens and closes its read end. */
        void release() {
            thread.interrupt();
            if (!dead) {
                int fd = Libc.openOrErrno(fifo(number).toString().getBytes(StandardCharsets.UTF_8),
                        Flags.O_RDONLY | Flags.O_NONBLOCK | Flags.O_CLOEXEC, 0);
                if (fd >= 0) {
                    Libc.close(fd);
                }
            }
            try {
                thread.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
