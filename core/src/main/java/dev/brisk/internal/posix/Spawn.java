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
 * ours. A {@link WaitStatus} reaps the child. The calls are bound with {@link CFunction}'s one
 * shape on first use.
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
     * those in {@code keepIgnored} (bit N-1 for signal N), which keep theirs: signals this process
     * was started with ignored, say, as a shell keeps them ignored for its children. glibc's
     * internal signals 32 and 33 are at their default too, as after fork and exec, unless
     * {@code keepIgnored} holds {@link Signals#GLIBC_INTERNAL}: then they are ignored, as in every
     * child of the JDK's ProcessBuilder. (With brisk's own start, {@link NativeSpawn}, "ignored"
     * means ignored when this process prepared its first spawn: see {@code Ignored}.)
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
        for (Action a : actions) {
            r |= switch (a.op) {
                case OPEN -> CFunction.call(Calls.FA_OPEN, f, a.fd, Libc.cString(arena, a.path).address(), a.flags, a.mode, 0);
                case DUP2 -> CFunction.call(Calls.FA_DUP2, f, a.from, a.fd, 0, 0, 0);
                case CHDIR -> CFunction.call(Chdir.H, f, Libc.cString(arena, a.path).address(), 0, 0, 0, 0);
                case CLOSE_FROM -> CFunction.call(CloseFrom.H, f, a.fd, 0, 0, 0, 0);
            };
        }
        r |= CFunction.call(Calls.AT_FLAGS, at, attrFlags, 0, 0, 0, 0);
        if ((attrFlags & SETPGROUP) != 0) {
            r |= CFunction.call(Calls.AT_PGROUP, at, group, 0, 0, 0, 0);
        }
        if ((attrFlags & SETSIGDEF) != 0) {
            MemorySegment sigs = arena.allocate(STRUCT, 16);
            long s = sigs.address();
            r |= CFunction.call(Calls.SIGEMPTY, s, 0, 0, 0, 0, 0);
            r |= CFunction.call(Calls.AT_SIGMASK, at, s, 0, 0, 0, 0);
            r |= CFunction.call(Calls.SIGFILL, s, 0, 0, 0, 0, 0);
            for (int sig = 1; sig <= 64; sig++) {
                if ((keepIgnored & (1L << (sig - 1))) != 0) {
                    // glibc refuses its own internal signals (32, 33) here; they are handled below
                    CFunction.call(Calls.SIGDEL, s, sig, 0, 0, 0, 0);
                }
            }
            // sigfillset leaves out glibc's signals 32 and 33 (and sigaddset refuses them), and
            // glibc's posix_spawn sets each of those two to SIG_IGN in the child unless the set to
            // default names it: their bits are set by hand (setsigdefault copies the set as it
            // is), so the child gets them at their default, as after fork and exec, unless the
            // caller keeps them ignored (Signals.GLIBC_INTERNAL)
            long internal = Signals.GLIBC_INTERNAL & ~keepIgnored;
            sigs.set(ValueLayout.JAVA_LONG, 0, sigs.get(ValueLayout.JAVA_LONG, 0) | internal);
            r |= CFunction.call(Calls.AT_SIGDEF, at, s, 0, 0, 0, 0);
        }
        if (r != 0) {
            CFunction.call(Calls.FA_DESTROY, f, 0, 0, 0, 0, 0);
            CFunction.call(Calls.AT_DESTROY, at, 0, 0, 0, 0, 0);
            throw new IllegalStateException("cannot set up posix_spawn file actions or attributes");
        }
        if (!posixOnly && NativeSpawn.usable()) {
            plan = plan();
        }
        attributes = attr;
        fileActions = fa;
    }

    /**
     * This spawn as a {@link NativeSpawn} plan (glibc's posix_spawn's steps, in its order), or
     * null where only posix_spawn does what it asks.
     */
    private MemorySegment plan() {
        long internal = Signals.GLIBC_INTERNAL;
        if ((attrFlags & SETSIGDEF) != 0 && (keepIgnored & internal) != 0 && (keepIgnored & internal) != internal) {
            return null; // one of glibc's two internal signals kept ignored and not the other: no caller does
        }
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
        // kept ignored, glibc's two internal signals included unless kept (see prepare)
        if ((attrFlags & SETSIGDEF) != 0) {
            flags |= NativeSpawn.EMPTY_MASK;
            p.set(ValueLayout.JAVA_LONG, NativeSpawn.TO_DEFAULT, Ignored.AT_FIRST_SPAWN & ~keepIgnored & ~UNCATCHABLE);
            if ((keepIgnored & internal) == internal) {
                flags |= NativeSpawn.INTERNAL_IGNORED;
            }
        } else {
            // without a set to default, posix_spawn ignores its internal signals in the child
            flags |= NativeSpawn.INTERNAL_IGNORED;
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
        MemorySegment attr = attributes;
        if (joinGroup > 0) {
            // glibc's posix_spawnattr_t is plain data: a copy is an attribute object
            attr = a.allocate(STRUCT, 16);
            MemorySegment.copy(attributes, 0, attr, 0, STRUCT);
            long at = attr.address();
            CFunction.call(Calls.AT_FLAGS, at, (attrFlags & ~SETSID) | SETPGROUP, 0, 0, 0, 0);
            CFunction.call(Calls.AT_PGROUP, at, joinGroup, 0, 0, 0, 0);
        }
        MemorySegment pid = a.allocate(ValueLayout.JAVA_INT);
        int r = CFunction.call(Calls.SPAWN, pid.address(), path.address(), fileActions.address(), attr.address(),
                argv.address(), envp.address());
        if (r == Errno.ENOEXEC && scriptsWithSh) {
            MemorySegment shArgs = shArgv(a, path, argv);
            r = CFunction.call(Calls.SPAWN, pid.address(), SH.address(), fileActions.address(), attr.address(),
                    shArgs.address(), envp.address());
        }
        if (r != 0) {
            return -r;
        }
        int[] p = new int[1];
        MemorySegment.copy(pid, ValueLayout.JAVA_INT, 0, p, 0, 1);
        return p[0];
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
