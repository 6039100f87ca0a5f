// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import dev.brisk.internal.shell.ShellQuote;
import dev.brisk.internal.posix.EnvText;
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The files through which a worker's shell reads each command (see {@link WorkerScript}):
 * {@code c}, the command's text behind a prologue (cwd, environment), open for the worker's life
 * and rewritten for each command; and {@code iK}, command K's stdin, unlinked while a later
 * command runs, off the critical path. Used by the thread that drives the worker's command;
 * {@link #close} once no command runs.
 */
final class CommandFiles {
    private static final int CREATE = Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC;

    private final String dir;
    private final int scriptFd;
    private Arena scriptArena = Arena.ofShared();
    private MemorySegment scriptBuf = scriptArena.allocate(4096);
    /** The length of file {@code c} now. */
    private long scriptLength;
    /** Paths of finished commands' input files. */
    private final List<byte[]> stale = new ArrayList<>();

    private CommandFiles(String dir, int scriptFd) {
        this.dir = dir;
        this.scriptFd = scriptFd;
    }

    /** Creates file {@code c} (mode 0600) in {@code dir}. */
    static CommandFiles create(Path dir) throws PosixException {
        return new CommandFiles(dir.toString(), Libc.open(bytes(dir.resolve("c").toString()), CREATE, 0600));
    }

    /**
     * Writes {@code script} to {@code c}: as it is for a builtin the shell runs itself ({@code
     * bare}), else behind a prologue that clears the worker's own variables ({@code isolated})
     * and enters {@code cwd} (or null) and exports {@code env}, each step stopping the command
     * if it fails.
     */
    void writeCommand(byte[] script, boolean bare, boolean isolated, Path cwd, Map<String, String> env)
            throws PosixException {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        if (!bare) {
            if (isolated) {
                p.writeBytes("unset -v __brisk_dir __brisk_line; ".getBytes(StandardCharsets.US_ASCII));
            }
            if (cwd != null) {
                p.writeBytes(("command cd -- " + ShellQuote.quote(cwd.toString()) + " || return 1; ").getBytes(StandardCharsets.UTF_8));
            }
            for (Map.Entry<String, String> e : env.entrySet()) {
                // the value's bytes as the caller's environment held them (EnvText), not '?' for invalid UTF-8
                p.writeBytes(("command export " + e.getKey() + "=").getBytes(StandardCharsets.UTF_8));
                p.writeBytes(ShellQuote.quote(EnvText.encode(e.getValue())));
                p.writeBytes("; ".getBytes(StandardCharsets.US_ASCII));
            }
        }
        byte[] head = p.toByteArray();
        byte[] all = Arrays.copyOf(head, head.length + script.length + 1);
        System.arraycopy(script, 0, all, head.length, script.length);
        all[all.length - 1] = '\n';
        writeScript(all);
    }

    private void writeScript(byte[] content) throws PosixException {
        if (content.length > scriptBuf.byteSize()) {
            scriptArena.close();
            scriptArena = Arena.ofShared();
            scriptBuf = scriptArena.allocate(Math.max(content.length, scriptBuf.byteSize() * 2));
        }
        MemorySegment.copy(content, 0, scriptBuf, ValueLayout.JAVA_BYTE, 0, content.length);
        Libc.pwriteFully(scriptFd, scriptBuf, content.length, 0);
        if (content.length < scriptLength) {
            Libc.ftruncate(scriptFd, content.length); // only a shorter text leaves old bytes behind
        }
        scriptLength = content.length;
    }

    /** Writes command {@code k}'s stdin to file {@code iK}; its path, to be handed to {@link #done} after the command. */
    byte[] writeInput(long k, byte[] content) throws PosixException {
        byte[] path = bytes(dir + "/i" + k);
        int fd = Libc.open(path, CREATE, 0600);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment seg = a.allocate(Math.max(1, content.length));
            MemorySegment.copy(content, 0, seg, ValueLayout.JAVA_BYTE, 0, content.length);
            long off = 0;
            while (off < content.length) {
                long n = Libc.write(fd, seg.asSlice(off), content.length - off);
                if (n <= 0) {
                    throw new PosixException("write", Libc.display(path), Errno.EIO);
                }
                off += n;
            }
        } finally {
            Libc.close(fd);
        }
        return path;
    }

    /** An input file the shell has finished with: unlinked at the next {@link #tidy}. */
    void done(byte[] inputPath) {
        stale.add(inputPath);
    }

    /** Unlinks finished commands' input files: called while a command runs, off the critical path. */
    void tidy() {
        for (byte[] p : stale) {
            try {
                Libc.unlink(p);
            } catch (PosixException ignored) {
                // the directory goes when the worker does
            }
        }
        stale.clear();
    }

    /** Closes file {@code c} and frees its buffer; the files stay in the directory. */
    void close() {
        Libc.close(scriptFd);
        scriptArena.close();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
