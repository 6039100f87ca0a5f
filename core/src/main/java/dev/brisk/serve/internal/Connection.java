// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve.internal;

import dev.brisk.internal.shell.ShellQuote;
import dev.brisk.shell.Command;
import dev.brisk.shell.CommandResult;
import dev.brisk.shell.ShellPool;
import dev.brisk.shell.ShellSession;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One client connection: reads its frames on the calling thread, runs its requests on the
 * server's runner threads, and writes their frames back, one whole frame at a time.
 *
 * <p>Protocol errors get an error frame; those after which the byte stream cannot be trusted
 * (unknown frame type, oversized or truncated frame, a reused id) also end the connection, and
 * ending it, as a client's disconnect does, cancels every request and closes every session the
 * connection started. Nothing here touches other connections.
 */
public final class Connection implements Runnable {
    /** What every connection of a server shares. */
    public record Context(ShellPool pool, ExecutorService runners, Limits limits, AtomicInteger sessions,
                          AtomicLong held) {}

    private record Session(ShellSession shell, ReentrantLock lock) {}

    private final SocketChannel channel;
    private final Context context;
    private final Object writeLock = new Object();
    private final Map<Integer, Object> live = new ConcurrentHashMap<>();
    private final AtomicInteger ownSessions = new AtomicInteger();
    private final ByteBuffer header = ByteBuffer.allocate(Frame.HEADER);
    private Request ready; // only the reading thread touches it
    private long held; // bytes of this connection's live requests: payloads and streamed stdin
    private final AtomicReference<Runnable> onClose = new AtomicReference<>(() -> {});
    private volatile boolean closed;

    public Connection(SocketChannel channel, Context context) {
        this.channel = channel;
        this.context = context;
    }

    /** Sets what to do once, when the connection ends. */
    public void onClose(Runnable action) {
        onClose.set(action);
    }

    /** Refuses the client: one error frame, then the connection is closed. */
    public static void refuse(SocketChannel channel, String message) {
        try (channel) {
            Frame.writeError(channel, 0, message);
        } catch (IOException ignored) {
            // the client went first
        }
    }

    /**
     * Serves the connection on the calling thread, which must be a platform thread of the
     * server's runners: it reads frames until one makes a request ready, hands reading over to
     * another runner, and runs that request itself (so a request's path from the socket to its
     * shell passes no thread hand-off).
     */
    @Override
    public void run() {
        byte[] hello = Frame.HELLO.getBytes(StandardCharsets.US_ASCII);
        try {
            write(Frame.HELLO_TYPE, 0, hello, 0, hello.length);
        } catch (IOException e) {
            close();
            return;
        }
        read();
    }

    private void read() {
        boolean handedOver = false;
        try {
            while (!closed) {
                Frame f = Frame.read(channel, header);
                if (f == null) {
                    break;
                }
                String fatal = handle(f);
                if (fatal != null) {
                    error(0, fatal);
                    break;
                }
                if (ready != null) {
                    Request r = ready;
                    byte[] stdin = r.endStdin();
                    ready = null;
                    try {
                        context.runners().execute(this::read);
                    } catch (RejectedExecutionException e) {
                        live.remove(r.id);
                        error(r.id, "the server is shutting down");
                        break;
                    }
                    handedOver = true;
                    execute(r, stdin);
                    return;
                }
            }
        } catch (Frame.TooLargeException e) {
            error(0, e.getMessage());
        } catch (EOFException e) {
            error(0, "truncated frame: " + e.getMessage());
        } catch (IOException e) {
            // the client is gone (or the server is closing); clean up below
        } finally {
            if (!handedOver) {
                close();
            }
        }
    }

    /** Handles one frame; returns a message when the connection must end. */
    private String handle(Frame f) throws IOException {
        int id = f.id();
        switch (f.type()) {
            case Frame.REQUEST -> {
                if (id == 0) {
                    return "request id 0 is reserved";
                }
                if (live.containsKey(id)) {
                    return "id " + Integer.toUnsignedString(id) + " is already in use by a running request or open session";
                }
                if (live.size() >= context.limits().inFlight()) {
                    error(id, "too many requests in flight on this connection (limit " + context.limits().inFlight() + ")");
                    return null;
                }
                RequestFields fields;
                try {
                    fields = RequestFields.parse(f.payload());
                } catch (IllegalArgumentException e) {
                    error(id, "bad request: " + e.getMessage());
                    return null;
                }
                if (fields.session() != 0 && !(live.get(fields.session()) instanceof Session)) {
                    error(id, "no open session " + fields.session() + " on this connection");
                    return null;
                }
                if (!hold(f.payload().length)) {
                    error(id, overLimit());
                    return null;
                }
                Request r = new Request(id, fields, this);
                r.addHeld(f.payload().length);
                live.put(id, r);
                if (!fields.streamedStdin()) {
                    submit(r);
                }
            }
            case Frame.STDIN -> {
                if (live.get(id) instanceof Request r && r.gathering()) {
                    if (f.payload().length == 0) {
                        submit(r);
                    } else if (hold(f.payload().length)) {
                        r.addHeld(f.payload().length);
                        r.appendStdin(f.payload());
                    } else {
                        live.remove(id);
                        r.endStdin();
                        release(r.takeHeld());
                        error(id, overLimit());
                    }
                }
                // input for a request that has ended or never gathered input is dropped
            }
            case Frame.CANCEL -> {
                if (live.get(id) instanceof Request r) {
                    if (r.gathering()) {
                        live.remove(id);
                        r.endStdin();
                        release(r.takeHeld());
                        error(id, "cancelled");
                    } else {
                        r.cancel();
                    }
                }
            }
            case Frame.OPEN_SESSION -> {
                if (id == 0) {
                    return "session id 0 is reserved";
                }
                if (live.containsKey(id)) {
                    return "id " + Integer.toUnsignedString(id) + " is already in use by a running request or open session";
                }
                openSession(id);
            }
            case Frame.CLOSE_SESSION -> {
                if (live.get(id) instanceof Session s) {
                    live.remove(id);
                    s.shell().close();
                    ownSessions.decrementAndGet();
                    context.sessions().decrementAndGet();
                    write(Frame.OK, id, new byte[0], 0, 0);
                } else {
                    error(id, "no open session " + Integer.toUnsignedString(id) + " on this connection");
                }
            }
            default -> {
                return "unknown frame type " + Frame.describe(f.type());
            }
        }
        return null;
    }

    private void openSession(int id) throws IOException {
        if (ownSessions.get() >= context.limits().sessionsPerConnection()) {
            error(id, "too many sessions on this connection (limit " + context.limits().sessionsPerConnection() + ")");
            return;
        }
        if (context.sessions().incrementAndGet() > context.limits().sessions()) {
            context.sessions().decrementAndGet();
            error(id, "too many sessions in the server (limit " + context.limits().sessions() + ")");
            return;
        }
        try {
            live.put(id, new Session(context.pool().session(), new ReentrantLock()));
            ownSessions.incrementAndGet();
            write(Frame.OK, id, new byte[0], 0, 0);
        } catch (RuntimeException e) {
            context.sessions().decrementAndGet();
            error(id, "cannot open a session: " + e.getMessage());
        }
    }

    /** Counts {@code n} more bytes held for this connection; false if over a limit (nothing counted). */
    private synchronized boolean hold(long n) {
        if (held + n > context.limits().heldBytes()) {
            return false;
        }
        if (context.held().addAndGet(n) > context.limits().heldBytesTotal()) {
            context.held().addAndGet(-n);
            return false;
        }
        held += n;
        return true;
    }

    private synchronized void release(long n) {
        held -= n;
        context.held().addAndGet(-n);
    }

    private String overLimit() {
        return "request bytes held (payloads and streamed stdin of running requests) over the limit of "
                + context.limits().heldBytes() + " per connection or " + context.limits().heldBytesTotal() + " per server";
    }

    /** Marks {@code r} as the request the reading thread runs next. */
    private void submit(Request r) {
        ready = r;
    }

    private void execute(Request r, byte[] stdin) {
        RequestFields q = r.fields;
        CommandResult result = null;
        String failure = null;
        Request.Sink out = (Request.Sink) r.sink(Frame.STDOUT, q.maxOutput());
        Request.Sink err = (Request.Sink) r.sink(Frame.STDERR, q.maxOutput());
        if (r.begin()) {
            try {
                Command c = command(q, stdin).stdoutTo(out).stderrTo(err);
                if (q.session() != 0) {
                    if (!(live.get(q.session()) instanceof Session s)) {
                        throw new IllegalStateException("session " + q.session() + " was closed");
                    }
                    s.lock().lockInterruptibly();
                    try {
                        result = s.shell().run(c);
                    } finally {
                        s.lock().unlock();
                    }
                } else {
                    result = context.pool().run(c);
                }
            } catch (InterruptedException e) {
                failure = "cancelled";
            } catch (RuntimeException e) {
                failure = e.getMessage() != null ? e.getMessage() : e.toString();
            }
        }
        if (r.end()) {
            failure = "cancelled";
            result = null;
        }
        release(r.takeHeld());
        live.remove(r.id);
        if (result != null) {
            int code = result.exitCode();
            int signal = code > 128 && code < 128 + 65 ? code - 128 : 0;
            int flags = (result.timedOut() ? 1 : 0) | (out.truncated ? 2 : 0) | (err.truncated ? 4 : 0);
            byte[] p = ByteBuffer.allocate(6).putInt(code).put((byte) signal).put((byte) flags).array();
            try {
                write(Frame.EXIT, r.id, p, 0, p.length);
            } catch (IOException ignored) {
                // the client is gone; the reader cleans up
            }
        } else {
            error(r.id, failure != null ? failure : "cancelled");
        }
    }

    private static Command command(RequestFields q, byte[] stdin) {
        byte[] script = q.script();
        if (script == null) {
            ByteArrayOutputStream words = new ByteArrayOutputStream();
            for (byte[] w : q.argv()) {
                if (words.size() > 0) {
                    words.write(' ');
                }
                ShellQuote.appendAsParallel(words, w);
            }
            script = words.toByteArray();
        }
        Command c = Command.of(script);
        if (q.cwd() != null) {
            Path dir = Path.of(q.cwd());
            if (!dir.isAbsolute()) {
                throw new IllegalArgumentException("cwd must be an absolute path: '" + q.cwd() + "'");
            }
            c = c.cwd(dir);
        }
        for (String[] kv : q.env()) {
            c = c.env(kv[0], kv[1]);
        }
        if (stdin != null) {
            c = c.stdin(stdin);
        }
        if (q.timeoutMillis() > 0) {
            c = c.timeout(Duration.ofMillis(q.timeoutMillis()));
        }
        return c;
    }

    private void error(int id, String message) {
        byte[] m = message.getBytes(StandardCharsets.UTF_8);
        try {
            write(Frame.ERROR, id, m, 0, m.length);
        } catch (IOException ignored) {
            // the client is gone; the reader cleans up
        }
    }

    void write(byte type, int id, byte[] b, int off, int len) throws IOException {
        synchronized (writeLock) {
            Frame.write(channel, type, id, b, off, len);
        }
    }

    /** Ends the connection: the socket closes, requests are killed, sessions closed. Idempotent. */
    public void close() {
        closed = true;
        Runnable then = onClose.getAndSet(null);
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
        for (Integer id : live.keySet()) {
            Object o = live.remove(id);
            if (o instanceof Request r) {
                r.cancel();
                if (r.gathering()) {
                    r.endStdin();
                    release(r.takeHeld()); // never to run: nothing else releases it
                }
            } else if (o instanceof Session s) {
                s.shell().close();
                ownSessions.decrementAndGet();
                context.sessions().decrementAndGet();
            }
        }
        if (then != null) {
            then.run();
        }
    }
}
