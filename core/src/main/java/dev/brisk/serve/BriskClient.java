// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve;

import dev.brisk.internal.posix.UnixSocket;
import dev.brisk.serve.internal.Frame;
import dev.brisk.shell.Command;
import dev.brisk.shell.CommandResult;
import dev.brisk.shell.ShellException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A client of {@code brisk serve}: runs {@link Command}s on the server's warm shells and returns
 * the same {@link CommandResult}s as a local {@link dev.brisk.shell.ShellPool}.
 *
 * <p>Thread-safe: any number of threads may run commands at once over the one connection (each
 * request has its own id). A command's cwd, environment, stdin, timeout, output cap and output
 * sinks travel with it; stdin larger than one frame is streamed. The caller closes the client;
 * closing it (or this process dying) makes the server kill every command it still runs for it.
 *
 * <p>An interrupt cancels only the interrupted caller's command. The connection is a socket read
 * and written with system calls, not a {@link java.nio.channels.SocketChannel}: an interrupt that
 * reached a caller in the middle of a channel's write would close the channel (the rule of
 * {@link java.nio.channels.InterruptibleChannel}), and with it every other caller's commands.
 *
 * <pre>{@code
 * try (BriskClient c = BriskClient.connect()) {
 *     CommandResult r = c.run(Command.of("ls -l").timeout(Duration.ofSeconds(5)));
 * }
 * }</pre>
 */
public final class BriskClient implements AutoCloseable {
    private final UnixSocket channel;
    private final Object writeLock = new Object();
    private final Map<Integer, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final Thread reader;
    /** Why the connection ended: the first reason set wins (no lock: a writer may hold writeLock, blocked). */
    private final AtomicReference<String> closedBecause = new AtomicReference<>();
    /** How long connecting and the server's hello may take, unless the caller says. */
    private static final Duration HANDSHAKE = Duration.ofSeconds(10);

    private static final class Pending {
        final CompletableFuture<Object> done = new CompletableFuture<>();
        final OutputStream out;
        final OutputStream err;

        Pending(OutputStream out, OutputStream err) {
            this.out = out;
            this.err = err;
        }
    }

    private BriskClient(UnixSocket channel) throws IOException {
        this.channel = channel;
        Frame hello = Frame.read(channel, ByteBuffer.allocate(Frame.HEADER));
        if (hello == null) {
            throw new IOException("the server closed the connection before its hello");
        }
        String text = new String(hello.payload(), StandardCharsets.UTF_8);
        if (hello.type() == Frame.ERROR) {
            throw new IOException("the server refused the connection: " + text);
        }
        if (hello.type() != Frame.HELLO_TYPE || !text.startsWith("brisk-serve 1")) {
            throw new IOException("not a brisk serve protocol 1 hello: " + text);
        }
        channel.timeout(0); // from here on the server answers when commands end, which may be never
        this.reader = Thread.ofPlatform().daemon().name("brisk-client-reader").start(this::readLoop);
    }

    /**
     * Connects to the default socket ({@link SocketLocation#defaultPath()}). When no server
     * listens there, starts the user's brisk server as the {@code brisk} command does
     * ({@code brisk daemon start}: {@code $BRISK_COMMAND}, else {@code brisk} on PATH), then
     * connects once more.
     */
    public static BriskClient connect() throws IOException {
        Path socket = SocketLocation.defaultPath();
        try {
            return connect(socket);
        } catch (IOException e) {
            if (!startServer()) {
                throw e;
            }
            return connect(socket);
        }
    }

    /** Runs {@code brisk daemon start}; true when it says a server runs. */
    private static boolean startServer() {
        String brisk = System.getenv("BRISK_COMMAND");
        if (brisk == null || brisk.isEmpty()) {
            brisk = "brisk";
        }
        try {
            Process p = new ProcessBuilder(brisk, "daemon", "start").redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Connects to the server at {@code socket} and checks its hello, waiting at most 10 s for it.
     *
     * @throws IOException if nothing listens there, the server refuses this client, or the
     *         connection and the server's hello take more than 10 s
     */
    public static BriskClient connect(Path socket) throws IOException {
        return connect(socket, HANDSHAKE);
    }

    /**
     * Connects to the server at {@code socket} and checks its hello, waiting at most
     * {@code timeout} for room in its listening queue and then for the hello. Commands have no
     * such limit: theirs is {@link Command#timeout}.
     *
     * @throws IOException if nothing listens there, the server refuses this client, or the
     *         connection and the server's hello take more than {@code timeout}
     */
    public static BriskClient connect(Path socket, Duration timeout) throws IOException {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the connect timeout must be positive: " + timeout);
        }
        UnixSocket ch;
        try {
            ch = UnixSocket.connect(socket, Math.max(1, timeout.toMillis()));
        } catch (IOException e) {
            throw new IOException("cannot connect to brisk serve at " + socket + ": " + e.getMessage(), e);
        }
        try {
            return new BriskClient(ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw new IOException("cannot connect to brisk serve at " + socket + ": " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code command} on the server and waits for its result. An interrupt cancels it (the
     * server kills its process group) and throws {@link ShellException}.
     *
     * @throws ShellException if the server refused or aborted the request, or the connection failed
     */
    public CommandResult run(Command command) {
        return run(command, 0);
    }

    /** Opens a session on the server: a shell of its own where state persists between commands. */
    public Session session() {
        int id = nextId();
        Pending p = new Pending(null, null);
        pending.put(id, p);
        send(Frame.OPEN_SESSION, id, new byte[0]);
        await(id, p);
        return new Session(id);
    }

    private CommandResult run(Command command, int session) {
        int id = nextId();
        ByteArrayOutputStream out = command.stdoutSink() == null ? new ByteArrayOutputStream() : null;
        ByteArrayOutputStream err = command.stderrSink() == null ? new ByteArrayOutputStream() : null;
        Pending p = new Pending(out != null ? out : command.stdoutSink(), err != null ? err : command.stderrSink());
        pending.put(id, p);
        long start = System.nanoTime();
        byte[] stdin = command.stdin();
        boolean streamed = stdin != null && stdin.length > Frame.MAX_PAYLOAD / 2;
        ByteArrayOutputStream req = new ByteArrayOutputStream();
        field(req, 'c', command.script());
        if (command.cwd() != null) {
            field(req, 'd', command.cwd().toString().getBytes(StandardCharsets.UTF_8));
        }
        for (Map.Entry<String, String> e : command.environment().entrySet()) {
            field(req, 'e', (e.getKey() + "=" + e.getValue()).getBytes(StandardCharsets.UTF_8));
        }
        if (stdin != null) {
            field(req, streamed ? 's' : 'i', streamed ? new byte[0] : stdin);
        }
        if (command.timeout() != null) {
            field(req, 't', Long.toString(Math.max(1, command.timeout().toMillis())).getBytes(StandardCharsets.US_ASCII));
        }
        if (command.maxOutputBytes() >= 0) {
            field(req, 'm', Long.toString(command.maxOutputBytes()).getBytes(StandardCharsets.US_ASCII));
        }
        if (session != 0) {
            field(req, 'S', Integer.toString(session).getBytes(StandardCharsets.US_ASCII));
        }
        send(Frame.REQUEST, id, req.toByteArray());
        if (streamed) {
            for (int off = 0; off < stdin.length; off += Frame.MAX_PAYLOAD) {
                int n = Math.min(Frame.MAX_PAYLOAD, stdin.length - off);
                byte[] chunk = new byte[n];
                System.arraycopy(stdin, off, chunk, 0, n);
                send(Frame.STDIN, id, chunk);
            }
            send(Frame.STDIN, id, new byte[0]);
        }
        byte[] x = (byte[]) await(id, p);
        ByteBuffer b = ByteBuffer.wrap(x);
        int code = b.getInt();
        b.get();
        int flags = b.get();
        return new CommandResult(code, out != null ? out.toByteArray() : new byte[0],
                err != null ? err.toByteArray() : new byte[0], (flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0,
                Duration.ofNanos(System.nanoTime() - start));
    }

    private Object await(int id, Pending p) {
        try {
            return p.done.get();
        } catch (InterruptedException e) {
            try {
                send(Frame.CANCEL, id, new byte[0]);
            } catch (ShellException closing) {
                // the connection is gone, and the server killed the command with it
            } finally {
                pending.remove(id);
                Thread.currentThread().interrupt();
            }
            throw new ShellException("interrupted; the command was cancelled", e);
        } catch (ExecutionException e) {
            throw new ShellException(e.getCause().getMessage(), e.getCause());
        }
    }

    private int nextId() {
        int id = ids.incrementAndGet();
        return id == 0 ? ids.incrementAndGet() : id;
    }

    private static void field(ByteArrayOutputStream req, char tag, byte[] value) {
        req.write(tag);
        req.writeBytes(ByteBuffer.allocate(4).putInt(value.length).array());
        req.writeBytes(value);
    }

    /**
     * Writes one frame. A failed write leaves the stream mid-frame: the connection is shut down,
     * and the reader fails every pending command with the reason.
     */
    private void send(byte type, int id, byte[] payload) {
        synchronized (writeLock) {
            String closed = closedBecause.get();
            if (closed != null) {
                throw new ShellException("the connection to brisk serve is closed: " + closed);
            }
            try {
                Frame.write(channel, type, id, payload, 0, payload.length);
            } catch (IOException e) {
                String why = "writing to brisk serve failed: " + e.getMessage();
                closedBecause.compareAndSet(null, why);
                channel.shutdown();
                throw new ShellException(why, e);
            }
        }
    }

    private void readLoop() {
        ByteBuffer header = ByteBuffer.allocate(Frame.HEADER);
        String why = "the server closed the connection";
        try {
            for (Frame f; (f = Frame.read(channel, header)) != null; ) {
                Pending p = pending.get(f.id());
                switch (f.type()) {
                    case Frame.STDOUT, Frame.STDERR -> {
                        if (p != null) {
                            try {
                                (f.type() == Frame.STDOUT ? p.out : p.err).write(f.payload());
                            } catch (IOException | RuntimeException e) {
                                // the caller's sink failed: that command ends, the connection stays
                                pending.remove(f.id());
                                p.done.completeExceptionally(e);
                                try {
                                    send(Frame.CANCEL, f.id(), new byte[0]);
                                } catch (ShellException closing) {
                                    // the connection is ending anyway
                                }
                            }
                        }
                    }
                    case Frame.EXIT, Frame.OK -> {
                        if (p != null) {
                            pending.remove(f.id());
                            p.done.complete(f.payload());
                        }
                    }
                    case Frame.ERROR -> {
                        String m = new String(f.payload(), StandardCharsets.UTF_8);
                        if (f.id() == 0) {
                            why = "the server ended the connection: " + m;
                        } else if (p != null) {
                            pending.remove(f.id());
                            p.done.completeExceptionally(new ShellException(m));
                        }
                    }
                    default -> {
                        // a frame type this client does not know: skipped, as the protocol allows for lower case
                    }
                }
            }
        } catch (IOException e) {
            why = "reading from brisk serve failed: " + e.getMessage();
        } catch (RuntimeException | Error e) {
            why = "the client's reader failed: " + e;
            throw e;
        } finally {
            // the reason first (a caller that registers after the sweep then fails in send), then
            // every waiting caller, then the descriptor: no writer gets past the check to use it
            closedBecause.compareAndSet(null, why);
            String reason = closedBecause.get();
            for (Integer id : pending.keySet()) {
                Pending p = pending.remove(id);
                if (p != null) {
                    p.done.completeExceptionally(new ShellException(reason));
                }
            }
            channel.shutdown(); // a writer blocked on a full socket fails and lets go of the lock
            synchronized (writeLock) {
                channel.close();
            }
        }
    }

    /**
     * Closes the connection; the server kills whatever this client still runs, and commands still
     * waiting here fail. The reader thread frees the descriptor as it ends; this waits up to 5 s
     * for it (not when called from an output sink, which runs on that thread). Idempotent.
     */
    @Override
    public void close() {
        closedBecause.compareAndSet(null, "the client was closed");
        channel.shutdown();
        if (Thread.currentThread() != reader) {
            try {
                reader.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A shell of one's own on the server ({@link dev.brisk.shell.ShellSession}'s semantics: cd,
     * variables and functions persist). Thread-safe; commands run one at a time.
     */
    public final class Session implements AutoCloseable {
        private final int id;

        private Session(int id) {
            this.id = id;
        }

        /** Runs {@code command} in this session; see {@link BriskClient#run(Command)}. */
        public CommandResult run(Command command) {
            return BriskClient.this.run(command, id);
        }

        /** Closes the session's shell on the server. Idempotent as far as the server is concerned. */
        @Override
        public void close() {
            Pending p = new Pending(null, null);
            pending.put(id, p);
            try {
                send(Frame.CLOSE_SESSION, id, new byte[0]);
                await(id, p);
            } catch (ShellException e) {
                pending.remove(id);
                // already closed or the connection is gone: nothing is left to close
            }
        }
    }
}
