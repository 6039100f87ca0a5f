// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import dev.brisk.internal.shell.ShellQuote;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One warm shell on a host behind one channel (see {@link Transport}), running the jobs of
 * several slots at once: {@link AgentScript} on the far side, frames back. Each job's exit
 * status, stdout and stderr come back exact and separate.
 *
 * <p>Thread-safe: each slot's thread calls {@link #run} for its own slot; requests are written
 * under one lock and one reader thread hands each frame to the call waiting for it. When the
 * channel ends, every waiting call fails with {@link HostLostException}, and so does every
 * later one.
 */
public final class RemoteShell implements AutoCloseable {
    /** Whose run this channel serves: its unexpected end counts in that caller's channel troubles. */
    private final dev.brisk.internal.posix.Caller caller = dev.brisk.internal.posix.Caller.current();

    /**
     * How one job ended on the host. {@code status}: the shell's {@code $?} (128+N for a signal);
     * the caller closes the payloads (those beyond memory are files).
     */
    public record Result(int status, Payload out, Payload err) {}

    private final Transport transport;
    private final Process process;
    private final OutputStream control;
    private final InputStream frames;
    private final Thread reader;
    /** Channels of this JVM that ended other than by {@link #close}: what a watch of their hosts waits for. */
    private final Thread errors;
    private final Map<JobKey, CompletableFuture<Result>> running = new ConcurrentHashMap<>();
    private final Map<Long, CompletableFuture<List<byte[]>>> fetching = new ConcurrentHashMap<>();
    private final Map<Long, List<byte[]>> fetched = new ConcurrentHashMap<>();
    private final Map<Long, CompletableFuture<Void>> pinging = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong pings = new java.util.concurrent.atomic.AtomicLong();
    private final CompletableFuture<int[]> hello = new CompletableFuture<>();
    private final StringBuffer stderrTail = new StringBuffer();
    private final String boundary;
    private final byte[] separator;
    private volatile String lost;
    private volatile AgentRequests requests = AgentRequests.forVersion(AgentScript.VERSION);

    private RemoteShell(Transport transport, Process process) {
        this.transport = transport;
        this.process = process;
        this.control = process.getOutputStream();
        this.frames = new BufferedInputStream(process.getInputStream(), 1 << 16);
        this.reader = Thread.ofPlatform().daemon().name("brisk-remote-" + transport.host()).unstarted(this::readFrames);
        this.errors = Thread.ofPlatform().daemon().name("brisk-remote-err-" + transport.host()).unstarted(this::readErrors);
        byte[] random = new byte[16];
        new java.security.SecureRandom().nextBytes(random);
        this.boundary = java.util.HexFormat.of().formatHex(random);
        this.separator = AgentScript.separator(boundary);
    }

    /**
     * Opens the channel, starts the agent and waits for its hello.
     *
     * @param echoShim shell code that makes {@code echo} behave as bash's, or empty
     * @param environment variables to export to every job
     * @throws IOException (a {@link HostLostException}) when the host cannot be reached in {@code timeout}
     */
    public static RemoteShell open(Transport transport, String echoShim, Map<String, byte[]> environment,
                                   Duration timeout) throws IOException {
        return open(transport, echoShim, environment, timeout, !"sh".equals(dev.brisk.internal.posix.Environ.get("BRISK_REMOTE_AGENT")));
    }

    /**
     * As {@link #open(Transport, String, Map, Duration)}; {@code perl}: use the Perl agent where
     * the host has perl (the default, unless {@code BRISK_REMOTE_AGENT=sh}), or always the sh one.
     */
    public static RemoteShell open(Transport transport, String echoShim, Map<String, byte[]> environment,
                                   Duration timeout, boolean perl) throws IOException {
        Process p = Prestart.take(transport.command());
        try {
            if (p == null) {
                p = CallerProcess.builder(transport.command()).start();
            }
        } catch (IOException e) {
            throw new HostLostException(transport.host(), "cannot run " + transport.command().getFirst() + ": "
                    + startFailure(e));
        }
        RemoteShell shell = new RemoteShell(transport, p);
        shell.reader.start();
        shell.errors.start();
        try {
            StringBuilder exports = new StringBuilder();
            for (Map.Entry<String, byte[]> e : environment.entrySet()) {
                exports.append(e.getKey()).append('=').append(ShellQuote.quoteLatin1(e.getValue())).append("; export ").append(e.getKey()).append('\n');
            }
            String script = AgentScript.text(ShellQuote.quoteLatin1(echoShim.getBytes(StandardCharsets.UTF_8)), shell.boundary,
                    exports.toString(), perl);
            byte[] boot = script.getBytes(StandardCharsets.ISO_8859_1);
            shell.send(boot);
            shell.hello.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return shell;
        } catch (ExecutionException e) {
            shell.close();
            throw new HostLostException(transport.host(), shell.reason());
        } catch (TimeoutException e) {
            shell.close();
            throw new HostLostException(transport.host(), "no answer in " + timeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            shell.close();
            Thread.currentThread().interrupt();
            throw new HostLostException(transport.host(), "interrupted");
        } catch (IOException e) {
            shell.close();
            throw new HostLostException(transport.host(), shell.reason());
        }
    }

    /**
     * The reason in ProcessBuilder's message: {@code Cannot run program "ssh": Exec failed, error:
     * 2 (No such file or directory)} (JDK 25) or {@code ...: error=2, No such file or directory}.
     */
    static String startFailure(IOException e) {
        String m = String.valueOf(e.getMessage()).strip();
        int open = m.lastIndexOf('(');
        if (m.contains("error") && open >= 0 && m.endsWith(")")) {
            return m.substring(open + 1, m.length() - 1);
        }
        int at = m.indexOf("error=");
        int comma = at < 0 ? -1 : m.indexOf(", ", at);
        return comma > 0 ? m.substring(comma + 2) : m;
    }

    /** The host's name. */
    public String host() {
        return transport.host();
    }

    /** The host's number of online processors, as the agent found it. */
    public int cores() {
        return hello.getNow(new int[] {1, 0})[0];
    }

    /** Whether jobs can get a process group of their own there ({@code setsid} exists). */
    public boolean groups() {
        return hello.getNow(new int[] {1, 0})[1] == 1;
    }

    /** The agent's protocol: 1 for the {@code sh} agent, 2 for the Perl one. */
    public int protocol() {
        return hello.getNow(new int[] {1, 0, 1})[2];
    }

    /** Whether the channel is still up. */
    public boolean alive() {
        return lost == null;
    }

    /**
     * Runs {@code script} for {@code slot} and waits for it. {@code group}: in a process group of
     * its own, so that {@link #signal} reaches all of it.
     *
     * @throws HostLostException when the channel ends first
     */
    public Result run(int slot, long seq, byte[] script, boolean group) throws IOException, InterruptedException {
        return await(submit(slot, seq, script, group ? Launch.GROUP : Launch.SUBSHELL));
    }

    /** How the host starts a job. */
    public enum Launch {
        /** In a subshell of the slot's shell, so that nothing the job does to its shell stays. */
        SUBSHELL,
        /** In a process group of its own, so that {@link #signal} reaches all of it. */
        GROUP,
        /**
         * In the slot's shell itself, without a subshell: only for a text that changes no shell
         * state and never exits the shell (a side-effect-free builtin, a pipeline, whose elements
         * have processes of their own). The Perl agent saves a fork per job; the sh agent runs it
         * in a subshell all the same.
         */
        SHELL,
        /**
         * As {@link #SHELL}, with standard input and the agent's other descriptors left as they
         * are: only for a builtin that reads no input and starts no process (echo, true, test),
         * which saves the shell the redirections' system calls.
         */
        BUILTIN
    }

    /**
     * Whether {@link Launch#SHELL} and {@link Launch#BUILTIN} jobs run in the slot's shell itself
     * (the Perl agent); the {@code sh} agent runs them in a subshell all the same.
     */
    public boolean runsInSlotShell() {
        return protocol() == PerlAgent.VERSION;
    }

    /** Whether a slot may be given its next job before its current one ends ({@link #submit}): the Perl agent queues it. */
    public boolean queues() {
        return protocol() == PerlAgent.VERSION;
    }

    /**
     * Sends job {@code seq} for {@code slot} and returns at once; {@link #await} gives its result.
     * A slot runs one job at a time; with {@link #queues} a second one may be sent while the
     * first runs, and starts on the host as soon as the first has ended, without waiting for brisk.
     *
     * @throws HostLostException when the channel is down
     */
    public Submitted submit(int slot, long seq, byte[] script, Launch launch) throws IOException {
        return submitAll(slot, List.of(new Job(seq, script, launch))).getFirst();
    }

    /** A job for {@link #submitAll}: its number, its text, how the host starts it. */
    public record Job(long seq, byte[] script, Launch launch) {}

    /**
     * As {@link #submit} for each of {@code jobs}, in order, in one write: each write is a message
     * through every relay on the way (srun and slurmstepd under {@code --slurm}, ssh and sshd under
     * {@code -S}) and a wake-up of the agent. On failure none of them stays submitted.
     *
     * @throws HostLostException when the channel is down
     */
    public List<Submitted> submitAll(int slot, List<Job> jobs) throws IOException {
        List<Submitted> r = new ArrayList<>(jobs.size());
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try {
            for (Job j : jobs) {
                JobKey key = new JobKey(slot, j.seq());
                CompletableFuture<Result> f = new CompletableFuture<>();
                if (running.putIfAbsent(key, f) != null) {
                    throw new IllegalStateException("job " + j.seq() + " of slot " + slot + " was sent already");
                }
                r.add(new Submitted(key, f));
                b.writeBytes(requests.job(j.seq(), slot, j.launch(), j.script()));
            }
            checkAlive();
            send(b.toByteArray());
            return r;
        } catch (IOException | RuntimeException e) {
            for (Submitted s : r) {
                running.remove(s.key(), s.result());
            }
            throw e;
        }
    }

    /**
     * Waits for a job sent by {@link #submit}.
     *
     * @throws HostLostException when the channel ends first
     */
    public Result await(Submitted job) throws IOException, InterruptedException {
        try {
            Result r = job.result().get();
            if (r.status() > 128) {
                confirm(r);
            }
            return r;
        } catch (ExecutionException e) {
            throw new HostLostException(host(), reason());
        } finally {
            running.remove(job.key(), job.result());
        }
    }

    /** A job sent and not yet awaited. */
    public record Submitted(JobKey key, CompletableFuture<Result> result) {}

    /**
     * A job's slot and number: the key of its frame. Its own equals and hashCode: a record's are
     * made by an invokedynamic bootstrap on their first call, which took 15-20 ms of the first
     * remote job's time (the AOT cache does not keep it).
     */
    public record JobKey(int slot, long seq) {
        @Override
        public boolean equals(Object o) {
            return o instanceof JobKey k && k.slot == slot && k.seq == seq;
        }

        @Override
        public int hashCode() {
            return 31 * slot + Long.hashCode(seq);
        }
    }

    /**
     * A job killed by a signal may have been killed by the end of the agent itself (scancel, a
     * time limit, a dying host signal every process at once, and the job's wrapper can report
     * before the agent's own signal lands): that job did not run, it was lost with its host. The
     * agent answers a ping only while it lives, so the result stands only when the answer comes.
     */
    private void confirm(Result r) throws IOException, InterruptedException {
        long n = pings.incrementAndGet();
        CompletableFuture<Void> pong = new CompletableFuture<>();
        pinging.put(n, pong);
        try {
            checkAlive();
            send(requests.ping(n));
            pong.get();
        } catch (ExecutionException | HostLostException e) {
            r.out().close();
            r.err().close();
            throw new HostLostException(host(), reason());
        } finally {
            pinging.remove(n);
        }
    }

    /**
     * Signals the job running for {@code slot} ({@code signal}: a name such as TERM), all its
     * process group; only a job run with {@code group} is sure to be reached. A no-op when the
     * channel is down.
     */
    public void signal(int slot, String signal) {
        try {
            send(requests.signal(slot, signal));
        } catch (IOException e) {
            // the channel is gone: the agent has killed its jobs
        }
    }

    /** Writes {@code content} to {@code path} on the host (relative paths: to the agent's directory, the login's home), creating {@code dir}. */
    public void put(byte[] dir, byte[] path, byte[] content) throws IOException {
        checkAlive();
        send(requests.put(dir, path, content));
    }

    /**
     * Fetches files from the host, in order: each one's content, or null where there is no
     * such regular file. {@code seq} names the request (a job's number).
     */
    public List<byte[]> get(long seq, List<byte[]> paths) throws IOException, InterruptedException {
        CompletableFuture<List<byte[]>> f = new CompletableFuture<>();
        fetched.put(seq, new ArrayList<>());
        fetching.put(seq, f);
        try {
            checkAlive();
            send(requests.get(seq, paths));
            return f.get();
        } catch (ExecutionException e) {
            throw new HostLostException(host(), reason());
        } finally {
            fetching.remove(seq);
            fetched.remove(seq);
        }
    }

    /** Removes files on the host ({@code --cleanup}). */
    public void remove(List<byte[]> paths) throws IOException {
        if (paths.isEmpty()) {
            return;
        }
        checkAlive();
        send(requests.remove(paths));
    }

    /** Why the channel ended: the last line the transport wrote on stderr, or what we saw. */
    public String reason() {
        String tail = stderrTail.toString().strip();
        int nl = tail.lastIndexOf('\n');
        String last = nl < 0 ? tail : tail.substring(nl + 1);
        if (!last.isEmpty()) {
            return last;
        }
        return lost != null ? lost : "connection closed";
    }

    /**
     * Closes the channel: the agent reads end of file, kills its jobs and exits. Waits up to two
     * seconds for the transport to end, then kills it.
     */
    @Override
    public void close() {
        markLost("closed");
        try {
            control.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(2, TimeUnit.SECONDS);
            }
            errors.join(500);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Kills the transport at once (Ctrl-C): the far side sees the channel end. */
    public void kill() {
        markLost("killed");
        process.destroyForcibly();
    }

    private void checkAlive() throws HostLostException {
        if (lost != null) {
            throw new HostLostException(host(), reason());
        }
    }

    private void send(byte[] bytes) throws IOException {
        synchronized (control) {
            try {
                control.write(bytes);
                control.flush();
            } catch (IOException e) {
                markLost(e.getMessage());
                throw new HostLostException(host(), reason());
            }
        }
    }

    private void markLost(String why) {
        if (lost == null) {
            lost = why == null ? "connection closed" : why;
            if (!"closed".equals(lost)) {
                caller.channelTroubles().incrementAndGet(); // not our own close(): the channel died
            }
        }
        HostLostException e = new HostLostException(transport.host(), why);
        hello.completeExceptionally(e);
        running.values().forEach(f -> f.completeExceptionally(e));
        fetching.values().forEach(f -> f.completeExceptionally(e));
        pinging.values().forEach(f -> f.completeExceptionally(e));
    }

    private void readErrors() {
        byte[] buf = new byte[4096];
        try (InputStream in = process.getErrorStream()) {
            for (int n; (n = in.read(buf)) > 0; ) {
                stderrTail.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                if (stderrTail.length() > 8192) {
                    stderrTail.delete(0, stderrTail.length() - 4096);
                }
            }
        } catch (IOException e) {
            // the transport is gone
        }
    }

    private void readFrames() {
        try {
            while (true) {
                String line = readLine();
                if (line == null) {
                    break;
                }
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "h" -> {
                        requests = AgentRequests.forVersion(Integer.parseInt(f[1]));
                        hello.complete(new int[] {Integer.parseInt(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[1])});
                    }
                    case "x" -> {
                        Payload out = readUntilSeparator();
                        Payload err = readUntilSeparator();
                        CompletableFuture<Result> w = running.get(new JobKey(Integer.parseInt(f[2]), Long.parseLong(f[1])));
                        if (w == null || !w.complete(new Result(Integer.parseInt(f[3]), out, err))) {
                            out.close();
                            err.close();
                        }
                    }
                    case "R" -> {
                        long seq = Long.parseLong(f[1]);
                        int size = Integer.parseInt(f[2]);
                        byte[] content = size < 0 ? null : frames.readNBytes(size);
                        if (content != null && content.length < size) {
                            throw new EOFException("channel ended inside a returned file");
                        }
                        List<byte[]> got = fetched.get(seq);
                        if (got != null) {
                            got.add(content);
                        }
                    }
                    case "p" -> {
                        CompletableFuture<Void> w = pinging.get(Long.parseLong(f[1]));
                        if (w != null) {
                            w.complete(null);
                        }
                    }
                    case "d" -> {
                        long seq = Long.parseLong(f[1]);
                        CompletableFuture<List<byte[]>> w = fetching.get(seq);
                        if (w != null) {
                            w.complete(fetched.getOrDefault(seq, List.of()));
                        }
                    }
                    default -> throw new IOException("unexpected frame from " + host() + ": " + line);
                }
            }
            markLost("connection closed");
        } catch (IOException | RuntimeException e) {
            markLost(e.getMessage());
        }
        try {
            errors.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private byte[] payload = new byte[8192];

    /**
     * The bytes up to the next separator, which is consumed: in memory, or beyond
     * {@link Payload#IN_MEMORY} bytes in a temporary file.
     */
    private Payload readUntilSeparator() throws IOException {
        int n = 0;
        int sepLen = separator.length;
        byte last = separator[sepLen - 1];
        java.io.OutputStream spill = null;
        java.nio.file.Path file = null;
        long spilled = 0;
        try {
            while (true) {
                int c = frames.read();
                if (c < 0) {
                    throw new EOFException("channel ended inside a job's output");
                }
                if (n == payload.length) {
                    if (n >= Payload.IN_MEMORY) {
                        // keep the last bytes, where the separator may be starting, and write the rest out
                        if (spill == null) {
                            file = java.nio.file.Files.createTempFile("brisk-remote-", ".out");
                            spill = new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(file), 1 << 16);
                        }
                        spill.write(payload, 0, n - sepLen);
                        spilled += n - sepLen;
                        System.arraycopy(payload, n - sepLen, payload, 0, sepLen);
                        n = sepLen;
                    } else {
                        payload = java.util.Arrays.copyOf(payload, Math.min(Payload.IN_MEMORY, Math.max(8192, payload.length * 2)));
                    }
                }
                payload[n++] = (byte) c;
                if ((byte) c == last && n >= sepLen
                        && java.util.Arrays.equals(payload, n - sepLen, n, separator, 0, sepLen)) {
                    if (spill == null) {
                        byte[] r = java.util.Arrays.copyOf(payload, n - sepLen);
                        if (payload.length > 1 << 20) {
                            payload = new byte[8192];
                        }
                        return Payload.of(r);
                    }
                    spill.write(payload, 0, n - sepLen);
                    spilled += n - sepLen;
                    spill.close();
                    spill = null;
                    payload = new byte[8192];
                    Payload p = Payload.spilled(file, spilled);
                    file = null;
                    return p;
                }
            }
        } finally {
            if (spill != null) {
                spill.close();
            }
            if (file != null) {
                java.nio.file.Files.deleteIfExists(file);
            }
        }
    }

    private final ByteArrayOutputStream lineBuf = new ByteArrayOutputStream(64);

    private String readLine() throws IOException {
        lineBuf.reset();
        for (int c; (c = frames.read()) != '\n'; ) {
            if (c < 0) {
                return null;
            }
            lineBuf.write(c);
        }
        return lineBuf.toString(StandardCharsets.ISO_8859_1);
    }

}
