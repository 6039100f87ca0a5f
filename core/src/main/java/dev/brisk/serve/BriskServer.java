// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve;

import dev.brisk.serve.internal.Connection;
import dev.brisk.serve.internal.Limits;
import dev.brisk.serve.internal.SocketDirectory;
import dev.brisk.shell.ShellPool;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * Serves a {@link ShellPool} to other programs, in any language, over a Unix-domain stream
 * socket, with the wire protocol of {@code docs/PROTOCOL.md}.
 *
 * <p>{@link #bind} checks the socket's directory (0700, owned by this user), takes the socket
 * (replacing one a dead server left, refusing while a live server holds it), starts the pool;
 * {@link #serve} accepts clients until {@link #close()} or the idle limit. Each connection's
 * peer uid is checked ({@code SO_PEERCRED}): another user gets one error frame and is
 * disconnected. {@code close()} kills every running command, closes the pool and removes the
 * socket. Thread-safe.
 *
 * <pre>{@code
 * try (BriskServer s = BriskServer.bind(new ServeOptions(SocketLocation.defaultPath(), 2, "bash", null))) {
 *     s.serve();
 * }
 * }</pre>
 */
public final class BriskServer implements AutoCloseable {
    private final ServeOptions options;
    private final ServerSocketChannel server;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final ShellPool pool;
    private final ThreadPoolExecutor runners;
    private final Connection.Context context;
    private final UserPrincipal owner;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connected = new AtomicInteger();
    private volatile long idleSince = System.nanoTime();
    private volatile boolean closed;

    private BriskServer(ServeOptions options, ServerSocketChannel server, FileChannel lockFile, FileLock lock,
                        ShellPool pool) throws IOException {
        this.options = options;
        this.server = server;
        this.lockFile = lockFile;
        this.lock = lock;
        this.pool = pool;
        this.owner = Files.getOwner(Path.of("/proc/self"));
        AtomicInteger n = new AtomicInteger();
        this.runners = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(null, r, "brisk-serve-run-" + n.incrementAndGet(), 512 * 1024);
            t.setDaemon(true);
            return t;
        });
        this.context = new Connection.Context(pool, runners, Limits.DEFAULT, new AtomicInteger(), new java.util.concurrent.atomic.AtomicLong());
    }

    /**
     * Takes the socket and starts the pool.
     *
     * @throws IOException with a one-line message: an unsafe directory, a live server on the
     *     socket, a path that is not a socket, or a socket that cannot be bound
     */
    public static BriskServer bind(ServeOptions options) throws IOException {
        Path socket = options.socket();
        Path dir = socket.getParent();
        SocketDirectory.prepare(dir);
        FileChannel lockFile = FileChannel.open(dir.resolve(socket.getFileName() + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = null;
        try {
            lock = lockFile.tryLock();
            if (lock == null) {
                throw new IOException("another brisk serve is running on " + socket);
            }
            if (Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
                if (!"s".equals(fileType(socket))) {
                    throw new IOException(socket + " exists and is not a socket; refusing to replace it");
                }
                Files.delete(socket); // left by a server that died: the lock says none holds it
            }
            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                server.bind(UnixDomainSocketAddress.of(socket), 128);
                Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
                ShellPool pool = ShellPool.builder().workers(options.workers()).shell(options.shell()).build();
                return new BriskServer(options, server, lockFile, lock, pool);
            } catch (IOException | RuntimeException e) {
                server.close();
                Files.deleteIfExists(socket);
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            if (lock != null) {
                lock.release();
            }
            lockFile.close();
            throw e;
        }
    }

    private static String fileType(Path p) throws IOException {
        int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        return (mode & 0170000) == 0140000 ? "s" : "other";
    }

    /** The socket's path. */
    public Path socket() {
        return options.socket();
    }

    /** The clients connected now. */
    public int connections() {
        return connected.get();
    }

    /** The pool behind the socket. */
    public ShellPool pool() {
        return pool;
    }

    /**
     * Accepts clients until {@link #close()} is called or, with an idle limit, no client has been
     * connected for that long (then it closes the server itself). Blocks.
     */
    public void serve() throws IOException {
        if (options.idleExit() != null) {
            Thread.ofPlatform().daemon().name("brisk-serve-idle").start(this::watchIdle);
        }
        while (!closed) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (ClosedChannelException e) {
                break;
            }
            accept(ch);
        }
        close();
    }

    private void accept(SocketChannel ch) {
        try {
            UnixDomainPrincipal peer = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
            if (!peer.user().equals(owner)) {
                Connection.refuse(ch, "permission denied: the server serves only its own user (" + owner.getName()
                        + "), not " + peer.user().getName());
                return;
            }
        } catch (IOException | UnsupportedOperationException e) {
            Connection.refuse(ch, "cannot check the peer's credentials: " + e.getMessage());
            return;
        }
        if (connected.incrementAndGet() > context.limits().connections()) {
            connected.decrementAndGet();
            Connection.refuse(ch, "too many clients connected (limit " + context.limits().connections() + ")");
            return;
        }
        Connection c = new Connection(ch, context);
        connections.add(c);
        c.onClose(() -> {
            connections.remove(c);
            if (connected.decrementAndGet() == 0) {
                idleSince = System.nanoTime();
            }
        });
        try {
            runners.execute(c);
        } catch (RejectedExecutionException e) {
            c.close();
        }
    }

    private void watchIdle() {
        long limit = options.idleExit().toNanos();
        while (!closed) {
            long idleFor = System.nanoTime() - idleSince;
            if (connected.get() == 0 && idleFor >= limit) {
                close();
                return;
            }
            long wait = connected.get() == 0 ? limit - idleFor : limit;
            try {
                Thread.sleep(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(wait) + 1, 1000)));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Stops serving: the socket is removed, every connection closed (so every command they run
     * is killed and every session closed), and the pool closed. Idempotent; blocks a few seconds at most.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Files.deleteIfExists(options.socket());
        } catch (IOException ignored) {
            // nothing more to do about it
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
        for (Connection c : connections) {
            c.close();
        }
        pool.close();
        runners.shutdownNow();
        try {
            lock.release();
            lockFile.close();
        } catch (IOException ignored) {
            // the lock goes with the process anyway
        }
    }
}
