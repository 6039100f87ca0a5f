// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.Place;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.Syscall;
import dev.brisk.internal.posix.UnixListener;
import dev.brisk.serve.internal.CallRequest;
import dev.brisk.serve.internal.SocketDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server half of brisk's native client (docs/DAEMON.md): listens on {@code daemon.sock} in
 * the user's socket directory and runs each client's command line in this JVM, on a thread of
 * its own that carries the client's process state: its descriptors, environment, limits and
 * ignored signals as the thread's {@link Caller}, its working directory and umask in the
 * thread's own file-system context ({@code unshare(CLONE_FS)} once per thread, {@code fchdir}
 * and {@code umask} per call), which the threads and children it starts inherit. Calls run
 * concurrently. The call threads (and the threads that read each call's signal frames) are
 * kept for a minute after a call and reused: a thread's start is a tenth of a small call's time.
 *
 * <p>A signal the client relays (SIGINT, SIGTERM, SIGHUP) ends its call as it ends a direct
 * run: the call's exit hooks run, the client gets 128+N, the call's descriptors are pointed at
 * {@code /dev/null} so nothing more reaches the caller, and the call's thread is interrupted.
 * A client that goes away counts as SIGHUP. A client of another build is answered {@code b}
 * and this server retires: it stops listening at once and exits when its calls end.
 *
 * <p>{@link #serve} returns once the server retired ({@link #retire}, a client of another
 * build, or {@code idle} without a call) and its last call ended.
 */
public final class CallServer implements AutoCloseable {
    /** What the server runs: the CLI, for brisk. */
    public interface Handler {
        /**
         * Null when {@code args} can run in the server, else why the client must run the JVM
         * itself (it must own the terminal, say), for the log.
         */
        String directReason(List<byte[]> args);

        /** Runs {@code args} on the calling thread, under its {@link Caller}; returns the exit status. */
        int call(List<byte[]> args) throws Exception;
    }

    private static final int CLONE_FS = 0x200, LOCK_EX = 2, LOCK_NB = 4, SIGHUP = 1, SIGINT = 2, SIGTERM = 15;
    private static final long HOOK_WAIT_MILLIS = 2000;
    /** How long a retiring server still accepts the connections made before its socket's name went. */
    private static final long DRAIN_MILLIS = 50;
    /** A call thread's file-system context is its own (unshare done), or why it could not be made so. */
    private static final ThreadLocal<String> OWN_FS = new ThreadLocal<>();
    /** Idle call and relay threads end after this long. */
    private static final long KEEP_ALIVE_SECONDS = 60;

    /** "/", where a call thread goes between calls (it holds no caller's directory busy). */
    private static final int ROOT_FD = Libc.openOrErrno("/".getBytes(StandardCharsets.US_ASCII),
            0x200000 | dev.brisk.internal.posix.Flags.O_DIRECTORY | dev.brisk.internal.posix.Flags.O_CLOEXEC, 0);
    /** The threads calls run on: each unshares its file-system context once, when it starts. */
    private final ExecutorService callThreads = threads("brisk-call-", true);
    /** The threads that read running calls' signal frames. */
    private final ExecutorService relayThreads = threads("brisk-call-signals-", false);

    private final Path dir;
    private final Path socket;
    private final String build;
    private final Handler handler;
    private final Duration idle;
    private final PrintStream log;
    private final UnixListener listener;
    private int lockFd;
    private final long startedNanos = System.nanoTime();
    private final AtomicLong served = new AtomicLong();
    private final AtomicInteger running = new AtomicInteger();
    private volatile long lastActivity = System.nanoTime();
    private volatile boolean retired;
    private final Object idleLock = new Object();
    private final int uid;
    private volatile java.util.function.BooleanSupplier busy = () -> false;

    private CallServer(Path dir, String build, Handler handler, Duration idle, PrintStream log, UnixListener listener,
            int lockFd, int uid) {
        this.dir = dir;
        this.socket = dir.resolve("daemon.sock");
        this.build = build;
        this.handler = handler;
        this.idle = idle;
        this.log = log;
        this.listener = listener;
        this.lockFd = lockFd;
        this.uid = uid;
    }

    /** Thrown by {@link #bind} when another server holds the directory's lock. */
    public static final class AlreadyRunning extends IOException {
        private static final long serialVersionUID = 1L;

        AlreadyRunning(String message) {
            super(message);
        }
    }

    /**
     * Prepares {@code dir} (chg's rule, as {@link SocketLocation#prepareDirectory}), takes its
     * {@code daemon.lock}, writes {@code daemon.pid} and listens on {@code daemon.sock}.
     *
     * @param idle how long the server stays up without a call
     * @param log where the server says what it does (one line per event)
     * @throws AlreadyRunning when another server holds the lock
     */
    public static CallServer bind(Path dir, String build, Handler handler, Duration idle, PrintStream log)
            throws IOException {
        SocketDirectory.prepare(dir);
        int uid = SocketDirectory.currentUid();
        byte[] lockPath = dir.resolve("daemon.lock").toString().getBytes(StandardCharsets.UTF_8);
        int lock = Libc.open(lockPath, 0x42 | 0x80000, 0600); // O_RDWR|O_CREAT|O_CLOEXEC
        long r = Syscall.call(Syscall.FLOCK, lock, LOCK_EX | LOCK_NB, 0, 0);
        if (r < 0) {
            Libc.close(lock);
            throw new AlreadyRunning("a brisk server already runs on " + dir);
        }
        Path sock = dir.resolve("daemon.sock");
        Files.deleteIfExists(sock);
        UnixListener listener;
        try {
            listener = UnixListener.bind(sock.toString().getBytes(StandardCharsets.UTF_8));
        } catch (PosixException e) {
            Libc.close(lock);
            throw e;
        }
        // written whole, then renamed: a reader never sees the file empty or half written
        Path pidTemp = dir.resolve("daemon.pid." + Libc.getpid());
        Files.writeString(pidTemp, Libc.getpid() + "\n");
        Files.move(pidTemp, dir.resolve("daemon.pid"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return new CallServer(dir, build, handler, idle, log, listener, lock, uid);
    }

    /** The socket clients connect to. */
    public Path socket() {
        return socket;
    }

    /** The build id this server answers. */
    public String build() {
        return build;
    }

    /** Calls served so far (ended or running). */
    public long callsServed() {
        return served.get();
    }

    /** Calls running now. */
    public int callsRunning() {
        return running.get();
    }

    /** How long this server has been up. */
    public Duration uptime() {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    /**
     * Also counts as activity while {@code busy} says so (the same process's {@code brisk
     * serve} socket with a client connected): the server is idle only when both are.
     */
    public void busyWhile(java.util.function.BooleanSupplier busy) {
        this.busy = busy;
    }

    /** The idle time after which the server exits. */
    public Duration idle() {
        return idle;
    }

    /**
     * Accepts calls until the server retires, then waits for its running calls to end. Each call
     * runs on a call thread of its own (a kept one, or a new one).
     */
    public void serve() throws IOException {
        Thread idleWatch = Thread.ofPlatform().daemon().name("brisk-daemon-idle").start(this::watchIdle);
        try {
            while (true) {
                int conn = listener.accept();
                if (conn < 0) {
                    break;
                }
                running.incrementAndGet();
                lastActivity = System.nanoTime();
                served.incrementAndGet();
                callThreads.execute(() -> {
                    try {
                        handle(conn);
                    } finally {
                        lastActivity = System.nanoTime();
                        running.decrementAndGet();
                        synchronized (idleLock) {
                            idleLock.notifyAll();
                        }
                    }
                });
            }
        } finally {
            retire();
            synchronized (idleLock) {
                while (running.get() > 0) {
                    try {
                        idleLock.wait(1000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            idleWatch.interrupt();
            callThreads.shutdown();
            relayThreads.shutdown();
        }
    }

    /**
     * Platform threads kept {@value #KEEP_ALIVE_SECONDS} s after their last task; with {@code
     * ownFs}, each makes its file-system context its own when it starts (see {@link #OWN_FS}).
     */
    private static ExecutorService threads(String name, boolean ownFs) {
        Thread.Builder builder = Thread.ofPlatform().daemon().name(name, 1);
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(),
                task -> builder.unstarted(!ownFs ? task : () -> {
                    long r = Syscall.call(Syscall.UNSHARE, CLONE_FS, 0, 0, 0);
                    OWN_FS.set(r == 0 ? "" : "errno " + -r);
                    task.run();
                }));
    }

    private void watchIdle() {
        long idleNanos = idle.toNanos();
        synchronized (idleLock) {
            while (!retired) {
                long now = System.nanoTime();
                if (busy.getAsBoolean()) {
                    lastActivity = now;
                }
                long left = idleNanos - (now - lastActivity);
                if (running.get() == 0 && left <= 0) {
                    log.println("brisk daemon: idle for " + idle.toSeconds() + " s: exiting");
                    retire();
                    return;
                }
                try {
                    idleLock.wait(Math.max(1, Math.min(left / 1_000_000, 1000)));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /**
     * Stops listening: the socket's name, the pid file and the lock are given up at once (a new
     * server can start), the connections made before that are still taken for
     * {@value #DRAIN_MILLIS} ms, then the socket is closed; {@link #serve} returns when the
     * running calls end.
     */
    public void retire() {
        synchronized (this) {
            if (retired) {
                return;
            }
            retired = true;
        }
        try {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir.resolve("daemon.pid"));
        } catch (IOException e) {
            log.println("brisk daemon: " + e.getMessage());
        }
        if (lockFd >= 0) {
            Libc.close(lockFd);
            lockFd = -1;
        }
        // a client that connected just before the socket's name went is still accepted and served
        try {
            Thread.sleep(DRAIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        listener.close();
    }

    @Override
    public void close() {
        retire();
    }

    /** One client's call, on its own thread. */
    private void handle(int conn) {
        int[] fds = new int[4 + CallRequest.MAX_PASSED];
        java.util.Arrays.fill(fds, -1);
        int received = 0;
        try {
            long peer = UnixListener.peer(conn);
            if (UnixListener.peerUid(peer) != uid) {
                log.println("brisk daemon: refused a client of another user");
                return;
            }
            CallRequest request;
            try (Arena arena = Arena.ofConfined()) {
                // the header alone first: what follows the request (a signal frame) is the relay's
                MemorySegment buf = arena.allocate(8);
                long got = UnixListener.receive(conn, buf, buf.byteSize(), fds);
                received = (int) (got >>> 32);
                int n = (int) got;
                if (n < 8) {
                    n = readAtLeast(conn, buf, n, 8);
                }
                if (n < 8 || received < 4) {
                    log.println("brisk daemon: a truncated request (" + n + " bytes, " + received + " descriptors)");
                    return;
                }
                ByteBuffer head = buf.asSlice(0, 8).asByteBuffer();
                int magic = head.getInt();
                int length = head.getInt();
                if (magic != CallRequest.MAGIC || length < 0 || length > CallRequest.MAX_LENGTH) {
                    log.println("brisk daemon: not a brisk client's request");
                    return;
                }
                byte[] body = new byte[length];
                if (!readFully(conn, body, 0)) {
                    log.println("brisk daemon: a request that ends early");
                    return;
                }
                request = CallRequest.parse(ByteBuffer.wrap(body));
            }
            if (request.passed().length != received - 4) {
                log.println("brisk daemon: a request names " + request.passed().length + " passed descriptors and sent "
                        + (received - 4));
                return;
            }
            if (!request.build().equals(build)) {
                log.println("brisk daemon: a client of build " + request.build() + " (this is " + build + "): retiring");
                answer(conn, 'b', new byte[0]);
                retire();
                return;
            }
            String reason = Place.differs(UnixListener.peerPid(peer));
            if (reason == null) {
                reason = handler.directReason(request.args());
            }
            if (reason != null) {
                answer(conn, 'd', reason.getBytes(StandardCharsets.UTF_8));
                return;
            }
            run(conn, request, fds);
        } catch (IOException | RuntimeException e) {
            log.println("brisk daemon: a call failed: " + e);
        } finally {
            for (int i = 0; i < received; i++) {
                Libc.close(fds[i]);
            }
            Libc.close(conn);
        }
    }

    /** Runs a parsed call in the client's context and answers its status. */
    private void run(int conn, CallRequest request, int[] fds) throws IOException {
        String fsProblem = OWN_FS.get();
        if (fsProblem == null || fsProblem.isEmpty()) {
            long r = fsProblem == null ? -1 : Syscall.call(Syscall.FCHDIR, fds[0], 0, 0, 0);
            fsProblem = r == 0 ? null : "errno " + -r;
        }
        if (fsProblem != null) {
            answer(conn, 'd', ("the server could not take the caller's working directory: " + fsProblem)
                    .getBytes(StandardCharsets.UTF_8));
            return;
        }
        Syscall.call(Syscall.UMASK, request.umask(), 0, 0, 0);
        Caller caller = new Caller(request.pid(), fds[1], fds[2], fds[3], request.env(), request.limits(),
                request.pgrp(), request.ignored(), request.terminals(), request.foreground());
        List<byte[]> args = CallRequest.translate(request.args(), request.passed(),
                java.util.Arrays.copyOfRange(fds, 4, 4 + request.passed().length), new int[] {fds[1], fds[2], fds[3]});
        caller.arguments(args);
        Caller.set(caller);
        Call call = new Call(conn, caller, Thread.currentThread());
        Future<?> relay = relayThreads.submit(call::relay);
        int status;
        try {
            status = handler.call(args);
        } catch (Throwable t) {
            if (caller.signal() != 0) {
                status = caller.signalStatus();
            } else if (t instanceof InterruptedException) {
                status = 128 + SIGINT;
            } else {
                status = 1;
                try {
                    PrintStream err = dev.brisk.internal.posix.DescriptorStream.print(caller.stderr());
                    err.println("brisk: " + (t.getMessage() != null ? t.getMessage() : t.toString()));
                } catch (RuntimeException ignored) {
                    // the caller's stderr is gone: the status says it
                }
                log.println("brisk daemon: a call threw " + t);
            }
        } finally {
            Caller.set(Caller.SELF);
        }
        call.finish(status);
        UnixListener.shutdown(conn);
        try {
            relay.get(HOOK_WAIT_MILLIS * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            // the relay ended with the connection, or is past caring
        }
        call.leave();
        Thread.interrupted(); // a signal's interrupt was this call's: the thread goes on to others
        if (ROOT_FD >= 0) {
            Syscall.call(Syscall.FCHDIR, ROOT_FD, 0, 0, 0);
        }
        caller.close();
    }

    /** The state one running call shares with the thread that reads its client's signals. */
    private final class Call {
        private final int conn;
        private final Caller caller;
        private final Thread thread;
        private boolean answered;
        /** Set when the call's thread has left the call: a signal no longer interrupts it. */
        private boolean left;

        Call(int conn, Caller caller, Thread thread) {
            this.conn = conn;
            this.caller = caller;
            this.thread = thread;
        }

        /**
         * Answers the call's status once; once the client relayed an ending signal the status is
         * 128 + that signal, whichever of the call and the signal's hooks gets here first (the
         * hooks end the call's work, and a run that ends so would count it as failed jobs).
         */
        void finish(int status) {
            if (caller.signal() != 0) {
                status = caller.signalStatus();
            }
            // the answer is written under the lock: whoever comes second (the call's end after a
            // signal's answer) returns only once it is out, and only then shuts the connection
            synchronized (this) {
                if (answered) {
                    return;
                }
                answered = true;
                try {
                    answer(conn, 'x', ByteBuffer.allocate(4).putInt(status).array());
                } catch (IOException e) {
                    // the client is gone
                }
            }
        }

        /** Reads the client's signal frames until the connection ends. */
        void relay() {
            byte[] frame = new byte[9];
            while (true) {
                boolean whole;
                try {
                    whole = readFully(conn, frame, 0);
                } catch (IOException e) {
                    whole = false;
                }
                synchronized (this) {
                    if (answered) {
                        return;
                    }
                }
                if (!whole) {
                    signal(SIGHUP, false); // the client went away
                    return;
                }
                ByteBuffer b = ByteBuffer.wrap(frame);
                byte type = b.get();
                int len = b.getInt();
                int sig = b.getInt();
                if (type != 's' || len != 4) {
                    log.println("brisk daemon: a client sent a frame it may not send: dropping its call");
                    signal(SIGHUP, false);
                    return;
                }
                if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
                    signal(sig, true);
                    return;
                }
                // SIGWINCH, SIGTSTP, SIGCONT, SIGQUIT: nothing in the server (pv reads the
                // terminal's width at each redraw; the client stops itself on SIGTSTP)
            }
        }

        /** Ends the call as {@code sig} ends a direct run. */
        private void signal(int sig, boolean answer) {
            caller.signalled(sig);
            caller.runExitHooks(HOOK_WAIT_MILLIS);
            if (answer) {
                finish(caller.signalStatus());
            } else {
                synchronized (this) {
                    answered = true;
                }
            }
            caller.silence();
            synchronized (this) {
                if (!left) {
                    thread.interrupt();
                }
            }
        }

        /** The call's thread leaves the call (it goes on to other calls). */
        synchronized void leave() {
            left = true;
        }
    }

    private static void answer(int conn, char type, byte[] payload) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(5 + payload.length);
        b.put((byte) type).putInt(payload.length).put(payload);
        byte[] all = b.array();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(all.length);
            MemorySegment.copy(all, 0, seg, ValueLayout.JAVA_BYTE, 0, all.length);
            long done = 0;
            while (done < all.length) {
                long w = Syscall.call(Syscall.SENDTO, conn, seg.address() + done, all.length - done, 0x4000); // MSG_NOSIGNAL
                if (w < 0) {
                    if (w == -4) { // EINTR
                        continue;
                    }
                    throw new PosixException("send", null, (int) -w);
                }
                done += w;
            }
        }
    }

    /** Reads into {@code buf} until it holds {@code want} bytes (from {@code have}); returns what it holds. */
    private static int readAtLeast(int conn, MemorySegment buf, int have, int want) throws PosixException {
        while (have < want) {
            long n = Libc.read(conn, buf.asSlice(have), buf.byteSize() - have);
            if (n <= 0) {
                break;
            }
            have += (int) n;
        }
        return have;
    }

    /** Fills {@code into} from {@code from} on; false at an early end of stream. */
    private static boolean readFully(int conn, byte[] into, int from) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(Math.max(1, Math.min(into.length - from, 64 * 1024)));
            while (from < into.length) {
                long n = Libc.read(conn, buf, Math.min(buf.byteSize(), into.length - from));
                if (n <= 0) {
                    return false;
                }
                MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, into, from, (int) n);
                from += (int) n;
            }
            return true;
        }
    }
}
