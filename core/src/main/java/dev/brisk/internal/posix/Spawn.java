// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * How to start a program with {@code posix_spawn(3)} (one vfork and one exec: no copy of the
 * JVM, no helper process), and the starts themselves. Every feature of brisk that runs a
 * program without a shell builds one of these: the pool's direct commands, {@code brisk par}'s
 * jobs and pipelines, {@code brisk find -exec}.
 *
 * <p>A spawn is described once (what the child does with each descriptor, in order: open a
 * file, {@code dup2} one of ours, or inherit; a directory to change to; close everything from a
 * descriptor up; a new session, a process group of its own or one to join; signal dispositions
 * and mask), then prepared once into glibc's file actions and attributes, and then each
 * {@link #start} is one foreign call. A prepared spawn is read-only, so threads share it. The
 * builder methods may not be called after the first start. {@link #close} frees the prepared
 * state (glibc allocates inside file actions); a spawn kept for the whole run need not be closed.
 *
 * <p>Programs are started by path; {@link ProgramPath} finds them on PATH. The environment is
 * a vector of "NAME=value" C strings ({@link #vector}), or {@link Environ#pointer()} to inherit
 * the caller's. A {@link WaitStatus} reaps the child. The calls are bound with {@link CFunction}'s
 * one shape on first use.
 *
 * <p>A child gets the process state of the {@link Caller} current on the thread that starts it,
 * read at each start (a prepared spawn is shared by the calls of a warm server): for
 * {@link Caller#SELF}, this process's, as after fork and exec. For a server's client, the child
 * gets, before this spawn's own steps, the client's stdin, stdout and stderr as its 0, 1 and 2
 * (where a step does not replace one first: a later {@code dup2(1, 2)} then means the client's
 * stdout, as it would in the client); after its file steps, the client's resource limits (a hard
 * limit above this process's own is lowered to ours, since raising one needs
 * {@code CAP_SYS_RESOURCE}; a limit the kernel still refuses fails the start with its errno, as
 * a failed step of posix_spawn does); and the client's ignored signals instead of ours (see
 * {@link #defaultSignals}). The working directory and umask come with the thread (a server's
 * call thread has its own, {@code unshare(CLONE_FS)}), the environment with {@code envp}.
 *
 * <p>Where brisk's own start does not run ({@link NativeSpawn}: aarch64,
 * {@code -Dbrisk.spawn=posix}, {@code -Dbrisk.syscall=libc}, old kernels), glibc's
 * {@code posix_spawn} starts the child and a client's state is partly given: its descriptors
 * and environment are, and the signals this process ignores but the client does not are at
 * their default; but posix_spawn can neither set resource limits nor ignore a signal, so the
 * child has this process's limits, and a signal the client ignores is ignored in the child only
 * where this process ignores it too.
 */
public final class Spawn implements AutoCloseable {
    private static final AddressLayout A = ValueLayout.ADDRESS;
    /** glibc's flags for posix_spawnattr_setflags. */
    private static final short SETPGROUP = 0x02, SETSIGDEF = 0x04, SETSIGMASK = 0x08, SETSID = 0x80;
    /** Generous sizes of glibc's opaque structs (80, 336 and 128 bytes on x86-64). */
    private static final long STRUCT = 1024;

    private static final class Calls {
        static final MethodHandle FA_INIT = CFunction.bind("posix_spawn_file_actions_init");
        static final MethodHandle FA_DESTROY = CFunction.bind("posix_spawn_file_actions_destroy");
        static final MethodHandle FA_OPEN = CFunction.bind("posix_spawn_file_actions_addopen");
        static final MethodHandle FA_DUP2 = CFunction.bind("posix_spawn_file_actions_adddup2");
        static final MethodHandle AT_INIT = CFunction.bind("posix_spawnattr_init");
        static final MethodHandle AT_DESTROY = CFunction.bind("posix_spawnattr_destroy");
        static final MethodHandle AT_FLAGS = CFunction.bind("posix_spawnattr_setflags");
        static final MethodHandle AT_PGROUP = CFunction.bind("posix_spawnattr_setpgroup");
        static final MethodHandle AT_SIGMASK = CFunction.bind("posix_spawnattr_setsigmask");
        static final MethodHandle AT_SIGDEF = CFunction.bind("posix_spawnattr_setsigdefault");
        static final MethodHandle SIGEMPTY = CFunction.bind("sigemptyset");
        static final MethodHandle SIGFILL = CFunction.bind("sigfillset");
        static final MethodHandle SIGDEL = CFunction.bind("sigdelset");
        static final MethodHandle SPAWN = CFunction.bind("posix_spawn");
    }

    /** glibc 2.29 and later. */
    private static final class Chdir {
        static final MethodHandle H = CFunction.bind("posix_spawn_file_actions_addchdir_np");
    }

    /** glibc 2.34 and later. */
    private static final class CloseFrom {
        static final MethodHandle H = CFunction.bind("posix_spawn_file_actions_addclosefrom_np");
    }

    private static final MemorySegment SH = Libc.cString(Arena.global(), "/bin/sh".getBytes(StandardCharsets.US_ASCII));

    private enum Op { OPEN, DUP2, CHDIR, CLOSE_FROM }

    /**
     * For {@link #defaultSignals}: every signal the caller was started with ignored stays ignored
     * (glibc's internal 32 and 33 are at their default, as after fork and exec).
     */
    public static final long CALLER_IGNORED = ~Signals.GLIBC_INTERNAL;

    private record Action(Op op, int fd, int from, byte[] path, int flags, int mode) {}

    private final List<Action> actions = new ArrayList<>();
    private short attrFlags;
    private int group;
    private long keepIgnored;
    private boolean scriptsWithSh;
    private final Arena arena = Arena.ofAuto();
    private MemorySegment fileActions;
    private MemorySegment attributes;
    /** The plan of {@link NativeSpawn} every start copies, or null (posix_spawn only). */
    private MemorySegment plan;
    /** The plan's actions ({@link NativeSpawn#ACTION} bytes each), which a client's start copies. */
    private MemorySegment planActions;
    /** Bit K: the child's descriptor K (0..2) is the one it inherits, where a client's replaces it. */
    private int inheritedStdio;
    private boolean posixOnly;
    private boolean closed;

    /**
     * Binds the {@code posix_spawn} family now (tens of milliseconds on a cold JVM), so that a
     * caller that times its children does not count the binding against the first one.
     */
    public static void bind() {
        Calls.SPAWN.type();
    }

    /** A spawn whose child inherits everything a plain {@code fork} and {@code exec} would give it. */
    public Spawn() {}

    /**
     * True when the C library has what {@link #chdir}, {@link #closeFrom} and {@link #pidfd}
     * need (glibc 2.34 or later) and the kernel gives pidfds (Linux 5.3 or later, and no seccomp
     * filter refusing them).
     */
    public static boolean fullyAvailable() {
        return Availability.ALL;
    }

    private static final class Availability {
        static final boolean ALL = CFunction.exists("posix_spawn_file_actions_addchdir_np")
                && CFunction.exists("posix_spawn_file_actions_addclosefrom_np") && pidfdWorks();

        private static boolean pidfdWorks() {
            try {
                Libc.close(pidfd(Libc.getpid()));
                return true;
            } catch (PosixException e) {
                return false;
            }
        }
    }

    private Spawn add(Action a) {
        mutable();
        actions.add(a);
        return this;
    }

    private void mutable() {
        if (fileActions != null) {
            throw new IllegalStateException("a started spawn cannot change");
        }
    }

    /** The child opens {@code path} with {@code flags} (mode 0666 for a created file) as descriptor {@code fd}. */
    public Spawn open(int fd, byte[] path, int flags) {
        return add(new Action(Op.OPEN, fd, -1, path.clone(), flags, 0666));
    }

    /** The child gets our descriptor {@code from} as its {@code fd} (without close-on-exec). */
    public Spawn dup2(int from, int fd) {
        return add(new Action(Op.DUP2, fd, from, null, 0, 0));
    }

    /** The child changes to {@code dir}; later relative opens and a relative program path are relative to it. */
    public Spawn chdir(byte[] dir) {
        return add(new Action(Op.CHDIR, -1, -1, dir.clone(), 0, 0));
    }

    /** The child closes every descriptor from {@code low} up, whatever its close-on-exec flag. */
    public Spawn closeFrom(int low) {
        return add(new Action(Op.CLOSE_FROM, low, -1, null, 0, 0));
    }

    /** The child leads a new session (so its pid is its process-group and session id, and it has no controlling terminal). */
    public Spawn newSession() {
        mutable();
        attrFlags = (short) ((attrFlags & ~SETPGROUP) | SETSID);
        return this;
    }

    /** The child leads a process group of its own. */
    public Spawn ownGroup() {
        return joinGroup(0);
    }

    /** The child joins process group {@code pgid} (0: a new one it leads). */
    public Spawn joinGroup(int pgid) {
        mutable();
        attrFlags = (short) ((attrFlags & ~SETSID) | SETPGROUP);
        group = pgid;
        return this;
    }

    /**
     * The child starts with an empty signal mask and every signal at its default disposition but
     * those in {@code keepIgnored} (bit N-1 for signal N) that the caller has ignored, which stay
     * ignored, as a shell keeps the signals it was started with ignored for its children:
     * {@link #CALLER_IGNORED} keeps all of them. "The caller" is the {@link Caller} current at each
     * start: for {@link Caller#SELF} this process (with brisk's own start, {@link NativeSpawn},
     * the signals it ignored when it prepared its first spawn: see {@code Ignored}); for a warm
     * server's client, the signals the client ignores, whatever this process does with them.
     * glibc's internal signals 32 and 33 are at their default too, as after fork and exec, unless
     * {@code keepIgnored} holds {@link Signals#GLIBC_INTERNAL}: then they are ignored, as in every
     * child of the JDK's ProcessBuilder.
     *
     * <p>Without this call the child keeps the caller's ignored signals and the starting thread's
     * mask, and glibc's 32 and 33 are ignored (posix_spawn's way).
     */
    public Spawn defaultSignals(long keepIgnored) {
        mutable();
        attrFlags |= SETSIGDEF | SETSIGMASK;
        this.keepIgnored = keepIgnored;
        return this;
    }

    /**
     * A file that is neither a binary nor has a {@code #!} line runs with {@code /bin/sh}, as
     * {@code execvp} and a POSIX shell run it (posix_spawn itself reports ENOEXEC).
     */
    public Spawn scriptsWithSh() {
        mutable();
        scriptsWithSh = true;
        return this;
    }

    /** Starts with glibc's posix_spawn even where brisk's own start ({@link NativeSpawn}) runs (tests compare the two). */
    Spawn posixSpawn() {
        mutable();
        posixOnly = true;
        return this;
    }

    /** Whether this spawn starts its programs with {@link NativeSpawn} (prepares it). */
    boolean startsNatively() {
        prepare();
        return plan != null && NativeSpawn.usable();
    }

    /** glibc's file actions and attributes for this spawn, made on first use. */
    private synchronized void prepare() {
        if (fileActions != null) {
            return;
        }
        if (closed) {
            throw new IllegalStateException("spawn closed");
        }
        MemorySegment fa = arena.allocate(STRUCT, 16);
        MemorySegment attr = arena.allocate(STRUCT, 16);
        long f = fa.address(), at = attr.address();
        int r = CFunction.call(Calls.FA_INIT, f, 0, 0, 0, 0, 0);
        r |= CFunction.call(Calls.AT_INIT, at, 0, 0, 0, 0, 0);
        if (r != 0) {
            throw new IllegalStateException("cannot set up posix_spawn: out of memory");
        }
        r |= addActions(f, arena);
        r |= CFunction.call(Calls.AT_FLAGS, at, attrFlags, 0, 0, 0, 0);
        if ((attrFlags & SETPGROUP) != 0) {
            r |= CFunction.call(Calls.AT_PGROUP, at, group, 0, 0, 0, 0);
        }
        if ((attrFlags & SETSIGDEF) != 0) {
            MemorySegment sigs = arena.allocate(STRUCT, 16);
            r |= CFunction.call(Calls.SIGEMPTY, sigs.address(), 0, 0, 0, 0, 0);
            r |= CFunction.call(Calls.AT_SIGMASK, at, sigs.address(), 0, 0, 0, 0);
            r |= toDefault(at, sigs, keepIgnored);
        }
        if (r != 0) {
            CFunction.call(Calls.FA_DESTROY, f, 0, 0, 0, 0, 0);
            CFunction.call(Calls.AT_DESTROY, at, 0, 0, 0, 0, 0);
            throw new IllegalStateException("cannot set up posix_spawn file actions or attributes");
        }
        inheritedStdio = (inherits(0) ? 1 : 0) | (inherits(1) ? 2 : 0) | (inherits(2) ? 4 : 0);
        if (!posixOnly && NativeSpawn.usable()) {
            plan = plan();
        }
        attributes = attr;
        fileActions = fa;
    }

    /** Adds this spawn's actions to glibc's file actions {@code f}, their strings in {@code a}; nonzero when one failed. */
    private int addActions(long f, Arena a) {
        int r = 0;
        for (Action x : actions) {
            r |= switch (x.op) {
                case OPEN -> CFunction.call(Calls.FA_OPEN, f, x.fd, Libc.cString(a, x.path).address(), x.flags, x.mode, 0);
                case DUP2 -> CFunction.call(Calls.FA_DUP2, f, x.from, x.fd, 0, 0, 0);
                case CHDIR -> CFunction.call(Chdir.H, f, Libc.cString(a, x.path).address(), 0, 0, 0, 0);
                case CLOSE_FROM -> CFunction.call(CloseFrom.H, f, x.fd, 0, 0, 0, 0);
            };
        }
        return r;
    }

    /**
     * Makes {@code sigs} the set of every signal but those in {@code kept} (bit N-1 for signal N)
     * and gives it to the attributes {@code at} as the signals to default; nonzero when a call failed.
     */
    private static int toDefault(long at, MemorySegment sigs, long kept) {
        long s = sigs.address();
        int r = CFunction.call(Calls.SIGFILL, s, 0, 0, 0, 0, 0);
        for (int sig = 1; sig <= 64; sig++) {
            if ((kept & (1L << (sig - 1))) != 0) {
                // glibc refuses its own internal signals (32, 33) here; they are handled below
                CFunction.call(Calls.SIGDEL, s, sig, 0, 0, 0, 0);
            }
        }
        // sigfillset leaves out glibc's signals 32 and 33 (and sigaddset refuses them), and
        // glibc's posix_spawn sets each of those two to SIG_IGN in the child unless the set to
        // default names it: their bits are set by hand (setsigdefault copies the set as it is), so
        // the child gets them at their default, as after fork and exec, unless they are kept
        // ignored (Signals.GLIBC_INTERNAL)
        long internal = Signals.GLIBC_INTERNAL & ~kept;
        sigs.set(ValueLayout.JAVA_LONG, 0, sigs.get(ValueLayout.JAVA_LONG, 0) | internal);
        return r | CFunction.call(Calls.AT_SIGDEF, at, s, 0, 0, 0, 0);
    }

    /**
     * Whether the child's descriptor {@code fd} is the one it inherits from the starting process
     * (so a client's replaces it): no step replaces or closes it before a step reads it.
     */
    private boolean inherits(int fd) {
        for (Action a : actions) {
            switch (a.op) {
                case DUP2 -> {
                    if (a.from == fd) {
                        return true;
                    }
                    if (a.fd == fd) {
                        return false;
                    }
                }
                case OPEN -> {
                    if (a.fd == fd) {
                        return false;
                    }
                }
                case CLOSE_FROM -> {
                    if (a.fd <= fd) {
                        return false;
                    }
                }
                case CHDIR -> {
                    // no descriptor
                }
            }
        }
        return true;
    }

    /**
     * The signals a child started for the client {@code c} has ignored: those of
     * {@link #defaultSignals}'s set that {@code c} ignores (without that call, all that it
     * ignores), and glibc's internal two where the set holds them (without it, always).
     */
    private long ignoredFor(Caller c) {
        long keep = (attrFlags & SETSIGDEF) != 0 ? keepIgnored : -1L;
        return keep & (c.ignoredSignals() | Signals.GLIBC_INTERNAL) & ~UNCATCHABLE;
    }

    /**
     * The client {@code c}'s resource limits as steps {resource, soft, hard}, for the resources
     * where they differ from ours; a hard limit above ours is lowered to ours (raising one needs
     * CAP_SYS_RESOURCE), a soft one to the hard one. Our limits are read now (16 calls).
     */
    private static long[][] limitSteps(Arena a, Caller c) {
        long[][] limits = c.limits();
        if (limits == null) {
            return new long[0][];
        }
        List<long[]> steps = new ArrayList<>();
        MemorySegment ours = a.allocate(16, 8);
        for (int res = 0; res < Math.min(limits.length, Caller.RLIMITS); res++) {
            long[] l = limits[res];
            if (l == null || l.length < 2 || Syscall.call(Syscall.PRLIMIT64, 0, res, 0, ours.address()) != 0) {
                continue;
            }
            long ourSoft = ours.get(ValueLayout.JAVA_LONG, 0), ourHard = ours.get(ValueLayout.JAVA_LONG, 8);
            long hard = Long.compareUnsigned(l[1], ourHard) > 0 ? ourHard : l[1];
            long soft = Long.compareUnsigned(l[0], hard) > 0 ? hard : l[0];
            if (soft != ourSoft || hard != ourHard) {
                steps.add(new long[] {res, soft, hard});
            }
        }
        return steps.toArray(new long[0][]);
    }

    /**
     * This spawn as a {@link NativeSpawn} plan (glibc's posix_spawn's steps, in its order), or
     * null where only posix_spawn does what it asks.
     */
    private MemorySegment plan() {
        if (!NativeSpawn.CloseRange.WORKS && actions.stream().anyMatch(a -> a.op == Op.CLOSE_FROM)) {
            return null;
        }
        MemorySegment p = NativeSpawn.template(arena);
        long flags = 0;
        if ((attrFlags & SETSID) != 0) {
            flags |= NativeSpawn.SETSID;
        } else if ((attrFlags & SETPGROUP) != 0) {
            flags |= NativeSpawn.SETPGID;
            p.set(ValueLayout.JAVA_LONG, NativeSpawn.PGROUP, group);
        }
        // every handled signal is at its default in the child (CLONE_CLEAR_SIGHAND); of the
        // ignored ones, posix_spawn defaults those its set to default names: all but the ones
        // kept ignored; glibc's two internal signals (handled here) it ignores unless that set
        // names them (see toDefault). A client's start sets both masks anew (startNative).
        if ((attrFlags & SETSIGDEF) != 0) {
            flags |= NativeSpawn.EMPTY_MASK;
            p.set(ValueLayout.JAVA_LONG, NativeSpawn.TO_DEFAULT, Ignored.AT_FIRST_SPAWN & ~keepIgnored & ~UNCATCHABLE);
            p.set(ValueLayout.JAVA_LONG, NativeSpawn.TO_IGNORE, keepIgnored & Signals.GLIBC_INTERNAL);
        } else {
            p.set(ValueLayout.JAVA_LONG, NativeSpawn.TO_IGNORE, Signals.GLIBC_INTERNAL);
        }
        p.set(ValueLayout.JAVA_LONG, NativeSpawn.FLAGS, flags);
        MemorySegment acts = arena.allocate(NativeSpawn.ACTION * Math.max(1, actions.size()), 8);
        for (int k = 0; k < actions.size(); k++) {
            Action a = actions.get(k);
            long at = k * NativeSpawn.ACTION;
            long path = a.path == null ? 0 : Libc.cString(arena, a.path).address();
            long op = switch (a.op) {
                case OPEN -> NativeSpawn.OPEN;
                case DUP2 -> NativeSpawn.DUP2;
                case CHDIR -> NativeSpawn.CHDIR;
                case CLOSE_FROM -> NativeSpawn.CLOSE_FROM;
            };
            acts.set(ValueLayout.JAVA_LONG, at, op);
            acts.set(ValueLayout.JAVA_LONG, at + 8, a.fd);
            acts.set(ValueLayout.JAVA_LONG, at + 16, a.from);
            acts.set(ValueLayout.JAVA_LONG, at + 24, path);
            acts.set(ValueLayout.JAVA_LONG, at + 32, a.flags);
        }
        p.set(ValueLayout.JAVA_LONG, NativeSpawn.NACTIONS, actions.size());
        p.set(ValueLayout.JAVA_LONG, NativeSpawn.ACTIONS, acts.address());
        planActions = acts;
        return p;
    }

    /** SIGKILL and SIGSTOP, which no call can change. */
    private static final long UNCATCHABLE = 1L << (Signals.SIGKILL - 1) | 1L << (Signals.SIGSTOP - 1);

    /**
     * The signals this process ignored when it prepared its first spawn (the kernel asked once,
     * not at every spawn: 64 calls): a signal this process's code sets to SIG_IGN after that
     * stays ignored in the children of brisk's own start (as in the children of the JDK's
     * ProcessBuilder), where posix_spawn would set it to its default.
     */
    private static final class Ignored {
        static final long AT_FIRST_SPAWN = NativeSpawn.ignoredNow();
    }

    /**
     * Starts {@code path} (no PATH search) with {@code argv} and {@code env} ("NAME=value";
     * null: this process's environment). Returns the child's pid, or {@code -errno} when it could
     * not start: nothing ran then (glibc reports a failed open, chdir or exec this way and reaps
     * the child).
     */
    public int start(byte[] path, List<byte[]> argv, List<byte[]> env) {
        try (Arena a = Arena.ofConfined()) {
            return start(a, Libc.cString(a, path), vector(a, argv), env == null ? Environ.pointer() : vector(a, env), 0);
        }
    }

    /**
     * Starts {@code path} (a C string) with the C vectors {@code argv} and {@code envp}, in
     * process group {@code joinGroup} when it is positive (whatever this spawn says of groups:
     * the later commands of a pipeline join the first one's group). Returns the child's pid or
     * {@code -errno}. Temporary memory comes from {@code a}.
     */
    public int start(Arena a, MemorySegment path, MemorySegment argv, MemorySegment envp, int joinGroup) {
        prepare();
        if (plan != null && NativeSpawn.usable()) {
            int r = startNative(a, path, argv, envp, joinGroup);
            if (r != Integer.MIN_VALUE) {
                return r;
            }
        }
        Caller caller = Caller.current();
        MemorySegment attr = attributes;
        MemorySegment fa = fileActions;
        if (joinGroup > 0 || !caller.self()) {
            // glibc's posix_spawnattr_t is plain data: a copy is an attribute object
            attr = a.allocate(STRUCT, 16);
            MemorySegment.copy(attributes, 0, attr, 0, STRUCT);
            long at = attr.address();
            short flags = joinGroup > 0 ? (short) ((attrFlags & ~SETSID) | SETPGROUP) : attrFlags;
            if (!caller.self()) {
                // the signals we ignore and the client does not at their default (the ones it
                // ignores and we do not, posix_spawn cannot ignore)
                flags |= SETSIGDEF;
                if (toDefault(at, a.allocate(STRUCT, 16), ignoredFor(caller)) != 0) {
                    throw new IllegalStateException("cannot set up posix_spawn attributes");
                }
                fa = clientFileActions(a, caller);
            }
            CFunction.call(Calls.AT_FLAGS, at, flags, 0, 0, 0, 0);
            if (joinGroup > 0) {
                CFunction.call(Calls.AT_PGROUP, at, joinGroup, 0, 0, 0, 0);
            }
        }
        MemorySegment pid = a.allocate(ValueLayout.JAVA_INT);
        int r;
        try {
            r = CFunction.call(Calls.SPAWN, pid.address(), path.address(), fa.address(), attr.address(),
                    argv.address(), envp.address());
            if (r == Errno.ENOEXEC && scriptsWithSh) {
                MemorySegment shArgs = shArgv(a, path, argv);
                r = CFunction.call(Calls.SPAWN, pid.address(), SH.address(), fa.address(), attr.address(),
                        shArgs.address(), envp.address());
            }
        } finally {
            if (fa != fileActions) {
                CFunction.call(Calls.FA_DESTROY, fa.address(), 0, 0, 0, 0, 0);
            }
        }
        if (r != 0) {
            return -r;
        }
        int[] p = new int[1];
        MemorySegment.copy(pid, ValueLayout.JAVA_INT, 0, p, 0, 1);
        return p[0];
    }

    /**
     * glibc's file actions for a start for the client {@code c}, in {@code a}: the client's
     * standard descriptors where the child would inherit ours, then this spawn's actions. The
     * caller destroys them after the start.
     */
    private MemorySegment clientFileActions(Arena a, Caller c) {
        MemorySegment fa = a.allocate(STRUCT, 16);
        long f = fa.address();
        if (CFunction.call(Calls.FA_INIT, f, 0, 0, 0, 0, 0) != 0) {
            throw new IllegalStateException("cannot set up posix_spawn: out of memory");
        }
        int r = 0;
        for (int fd = 0; fd <= 2; fd++) {
            if ((inheritedStdio & (1 << fd)) != 0) {
                r |= CFunction.call(Calls.FA_DUP2, f, c.descriptor(fd), fd, 0, 0, 0);
            }
        }
        if ((r | addActions(f, a)) != 0) {
            CFunction.call(Calls.FA_DESTROY, f, 0, 0, 0, 0, 0);
            throw new IllegalStateException("cannot set up posix_spawn file actions");
        }
        return fa;
    }

    /** {@code sh}'s argv for a script without {@code #!}: "sh", its path, then its own arguments but the first. */
    private static MemorySegment shArgv(Arena a, MemorySegment path, MemorySegment argv) {
        long n = 0;
        while (argv.getAtIndex(A, n).address() != 0) {
            n++;
        }
        MemorySegment shArgs = a.allocate(A, n + 2);
        shArgs.setAtIndex(A, 0, SH);
        shArgs.setAtIndex(A, 1, path);
        MemorySegment.copy(argv, A.byteSize(), shArgs, 2 * A.byteSize(), A.byteSize() * n);
        return shArgs;
    }

    /** {@link #start} through {@link NativeSpawn}: the pid, {@code -errno}, or MIN_VALUE when the kernel refused it. */
    private int startNative(Arena a, MemorySegment path, MemorySegment argv, MemorySegment envp, int joinGroup) {
        MemorySegment p = a.allocate(NativeSpawn.SIZE, 16);
        MemorySegment.copy(plan, 0, p, 0, NativeSpawn.SIZE);
        p.set(ValueLayout.JAVA_LONG, NativeSpawn.PATH, path.address());
        p.set(ValueLayout.JAVA_LONG, NativeSpawn.ARGV, argv.address());
        p.set(ValueLayout.JAVA_LONG, NativeSpawn.ENVP, envp.address());
        if (joinGroup > 0) {
            long flags = p.get(ValueLayout.JAVA_LONG, NativeSpawn.FLAGS) & ~NativeSpawn.SETSID;
            p.set(ValueLayout.JAVA_LONG, NativeSpawn.FLAGS, flags | NativeSpawn.SETPGID);
            p.set(ValueLayout.JAVA_LONG, NativeSpawn.PGROUP, joinGroup);
        }
        Caller caller = Caller.current();
        if (!caller.self()) {
            forClient(a, p, caller);
        }
        int r = NativeSpawn.start(p);
        if (r == -Errno.ENOEXEC && scriptsWithSh) {
            MemorySegment shArgs = shArgv(a, path, argv);
            p.set(ValueLayout.JAVA_LONG, NativeSpawn.PATH, SH.address());
            p.set(ValueLayout.JAVA_LONG, NativeSpawn.ARGV, shArgs.address());
            r = NativeSpawn.start(p);
        }
        // the plan's actions and strings live in this spawn's arena: kept until the child has exec'd
        java.lang.ref.Reference.reachabilityFence(this);
        return r;
    }

    /**
     * Makes the plan copy {@code p} start a child for the client {@code c}: its ignored signals
     * (the ones we ignore and it does not to SIG_DFL, the ones it ignores to SIG_IGN), its standard
     * descriptors where the child would inherit ours, then this spawn's actions, then its limits.
     */
    private void forClient(Arena a, MemorySegment p, Caller c) {
        long ignored = ignoredFor(c);
        p.set(ValueLayout.JAVA_LONG, NativeSpawn.TO_DEFAULT, Ignored.AT_FIRST_SPAWN & ~ignored & ~UNCATCHABLE);
        p.set(ValueLayout.JAVA_LONG, NativeSpawn.TO_IGNORE, ignored);
        long[][] limits = limitSteps(a, c);
        int stdio = Integer.bitCount(inheritedStdio);
        long n = stdio + actions.size() + limits.length;
        MemorySegment acts = a.allocate(NativeSpawn.ACTION * Math.max(1, n), 8);
        long at = 0;
        for (int fd = 0; fd <= 2; fd++) {
            if ((inheritedStdio & (1 << fd)) != 0) {
                action(acts, at, NativeSpawn.DUP2, fd, c.descriptor(fd), 0);
                at += NativeSpawn.ACTION;
            }
        }
        MemorySegment.copy(planActions, 0, acts, at, NativeSpawn.ACTION * actions.size());
        at += NativeSpawn.ACTION * actions.size();
        for (long[] l : limits) {
            action(acts, at, NativeSpawn.PRLIMIT, l[0], l[1], l[2]);
            at += NativeSpawn.ACTION;
        }
        p.set(ValueLayout.JAVA_LONG, NativeSpawn.NACTIONS, n);
        p.set(ValueLayout.JAVA_LONG, NativeSpawn.ACTIONS, acts.address());
    }

    /** Writes the action {op, fd, from, path} at {@code at} of {@code acts} (open flags 0). */
    private static void action(MemorySegment acts, long at, long op, long fd, long from, long path) {
        acts.set(ValueLayout.JAVA_LONG, at, op);
        acts.set(ValueLayout.JAVA_LONG, at + 8, fd);
        acts.set(ValueLayout.JAVA_LONG, at + 16, from);
        acts.set(ValueLayout.JAVA_LONG, at + 24, path);
        acts.set(ValueLayout.JAVA_LONG, at + 32, 0);
    }

    /** A NULL-terminated vector of C strings made of {@code items}, in {@code a}. */
    public static MemorySegment vector(Arena a, List<byte[]> items) {
        MemorySegment v = a.allocate(A, items.size() + 1L);
        for (int k = 0; k < items.size(); k++) {
            v.setAtIndex(A, k, Libc.cString(a, items.get(k)));
        }
        return v; // allocate zeroes: the last entry is NULL
    }

    /** A descriptor that polls readable when process {@code pid} (our child) has ended. */
    public static int pidfd(int pid) throws PosixException {
        long fd = Syscall.call(Syscall.PIDFD_OPEN, pid, 0, 0, 0);
        if (fd < 0) {
            throw new PosixException("pidfd_open", Integer.toString(pid), (int) -fd);
        }
        return (int) fd;
    }

    /** Frees glibc's part of the prepared state; the spawn cannot start anything after. */
    @Override
    public synchronized void close() {
        if (fileActions != null) {
            CFunction.call(Calls.FA_DESTROY, fileActions.address(), 0, 0, 0, 0, 0);
            CFunction.call(Calls.AT_DESTROY, attributes.address(), 0, 0, 0, 0, 0);
            fileActions = null;
            attributes = null;
        }
        closed = true;
    }
}
