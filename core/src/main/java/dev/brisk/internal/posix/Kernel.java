// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

/**
 * brisk's system call as a JNI native method (x86-64 Linux), the way {@link Syscall} makes its
 * calls where it can: {@link #CODE} (assembled from {@code core/src/main/native/jni-x86_64.S})
 * in a shared object that this class writes itself, 4 KiB of ELF with one symbol, loaded with
 * {@link System#load}. The file lives in the user's own directory under {@code java.io.tmpdir}
 * ({@code brisk-jni-UID}, 0700, used only when it is the user's and closed to everyone else, so
 * no other user can put another file in its place), written by the first run and loaded as it
 * is by the next ones ({@link #cached}): a run that is killed leaves nothing half-done behind.
 *
 * <p>Why not the FFM linker: a cold JVM spends ~30 ms of its start in the linker's first downcall
 * (the lambda forms and the binding class it generates, the class-file API that generates them,
 * interpreted), and a JVM-wide AOT cache cannot keep any of it; the JVM binds a JNI method in
 * well under a millisecond (0.5 ms here, with the file written), and each call costs a
 * little less than the linker's (1.03 against 1.12 µs for {@code getppid} here, most of it the
 * kernel's). Nothing here needs a compiler or a library beside the jar.
 *
 * <p>{@link #load} returns false, and {@link Syscall} uses the FFM linker as before, off x86-64
 * Linux, under {@code -Dbrisk.syscall=ffm} or {@code libc}, or where the shared object cannot be
 * written or mapped executable (a {@code noexec} temporary directory). Thread-safe.
 */
final class Kernel {
    /** The assembled code of {@code jni-x86_64.S}. */
    static final String CODE = "4889d04889cf4c89c64c89ca4c8b5424084c8b4424104c8b4c24180f05c3";
    /** The JNI name of {@link #call}. */
    static final String SYMBOL = "Java_dev_brisk_internal_posix_Kernel_call";

    private Kernel() {}

    /** System call {@code nr}: its result, or {@code -errno}. Only after {@link #load} returned true. */
    static native long call(long nr, long a, long b, long c, long d, long e, long f);

    /** Loads {@link #call}'s code; whether it runs here (checked with a real call). */
    static boolean load() {
        String arch = System.getProperty("os.arch");
        if (!"Linux".equals(System.getProperty("os.name")) || !"amd64".equals(arch) && !"x86_64".equals(arch)) {
            return false;
        }
        try {
            Path file = cached(sharedObject(HexFormat.of().parseHex(CODE), SYMBOL));
            if (file == null) {
                return false;
            }
            System.load(file.toString());
            // a call that works and one that fails (close(-1): EBADF; no unknown call number,
            // which a seccomp filter could answer by killing the process)
            return call(39 /* getpid */, 0, 0, 0, 0, 0, 0) > 0 && call(3 /* close */, -1, 0, 0, 0, 0, 0) == -Errno.EBADF;
        } catch (IOException | RuntimeException | LinkageError e) {
            return false; // not writable, a noexec mount, no native access: the FFM linker then
        }
    }

    private static final java.nio.file.attribute.FileAttribute<Set<java.nio.file.attribute.PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    /**
     * {@code so} as a file in the user's own directory {@code brisk-jni-UID} under
     * {@code java.io.tmpdir} (made 0700 on first use), named by its content's hash: written once,
     * through a temporary name and an atomic rename (never half a file under the name), and used
     * as it is by every later run whose bytes it holds. Null where that directory cannot be
     * trusted: not a directory of this user's, or open to anyone else.
     */
    static Path cached(byte[] so) throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir", "/tmp"));
        int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        Path dir = tmp.resolve("brisk-jni-" + uid);
        try {
            Files.createDirectory(dir, OWNER_ONLY);
        } catch (FileAlreadyExistsException earlier) {
            // made by an earlier run: checked below
        }
        Map<String, Object> a = Files.readAttributes(dir, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
        int mode = (Integer) a.get("mode");
        if ((Integer) a.get("uid") != uid || (mode & 0170000) != 0040000 || (mode & 0077) != 0) {
            return null;
        }
        Path file = dir.resolve("libbrisk-" + Integer.toHexString(Arrays.hashCode(so)) + ".so");
        try {
            if (Arrays.equals(Files.readAllBytes(file), so)) {
                return file;
            }
        } catch (NoSuchFileException first) {
            // the first run of these bytes: written below
        }
        Path part = dir.resolve(file.getFileName() + "." + Long.toHexString(System.nanoTime()) + ".part");
        try (SeekableByteChannel out = Files.newByteChannel(part, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), OWNER_ONLY)) {
            out.write(ByteBuffer.wrap(so));
        }
        Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    private static final int PAGE = 4096, EHDR = 64, PHDR = 56, PHNUM = 4, SYM = 24;

    /**
     * An x86-64 ELF shared object whose one dynamic symbol {@code name} is {@code code}: the ELF
     * header, four program headers (the code's page R-X, the dynamic section's page RW, the
     * dynamic section, a non-executable stack), a SysV hash table, the symbol and string
     * tables, the code, and on the second page the dynamic section. No section headers, no
     * relocations: the dynamic loader needs neither.
     */
    static byte[] sharedObject(byte[] code, String name) {
        byte[] strtab = ("\0" + name + "\0").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        int hashAt = EHDR + PHDR * PHNUM;
        int symAt = align(hashAt + 5 * 4, 8);
        int strAt = symAt + 2 * SYM;
        int codeAt = align(strAt + strtab.length, 16);
        int textEnd = codeAt + code.length;
        int dynAt = PAGE;
        int dynSize = 6 * 16;
        ByteBuffer b = ByteBuffer.allocate(dynAt + dynSize).order(ByteOrder.LITTLE_ENDIAN);
        // ELF header: 64-bit, little-endian, version 1, System V ABI; a shared object for x86-64
        b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        b.putShort((short) 3).putShort((short) 62).putInt(1).putLong(0).putLong(EHDR).putLong(0).putInt(0);
        b.putShort((short) EHDR).putShort((short) PHDR).putShort((short) PHNUM).putShort((short) 64)
                .putShort((short) 0).putShort((short) 0);
        phdr(b, 1, 5, 0, textEnd, PAGE); // PT_LOAD, R+X
        phdr(b, 1, 6, dynAt, dynSize, PAGE); // PT_LOAD, R+W
        phdr(b, 2, 6, dynAt, dynSize, 8); // PT_DYNAMIC
        b.putInt(0x6474e551).putInt(6).putLong(0).putLong(0).putLong(0).putLong(0).putLong(0).putLong(16); // PT_GNU_STACK, RW
        // SysV hash: one bucket, holding symbol 1; chains end at 0
        b.position(hashAt);
        b.putInt(1).putInt(2).putInt(1).putInt(0).putInt(0);
        // symbols: the null symbol, then name: global function, default visibility, in a section
        // (any index but undefined and absolute), at the code
        b.position(symAt + SYM);
        b.putInt(1).put((byte) 0x12).put((byte) 0).putShort((short) 1).putLong(codeAt).putLong(code.length);
        b.position(strAt);
        b.put(strtab);
        b.position(codeAt);
        b.put(code);
        b.position(dynAt);
        b.putLong(4).putLong(hashAt); // DT_HASH
        b.putLong(5).putLong(strAt); // DT_STRTAB
        b.putLong(6).putLong(symAt); // DT_SYMTAB
        b.putLong(10).putLong(strtab.length); // DT_STRSZ
        b.putLong(11).putLong(SYM); // DT_SYMENT
        b.putLong(0).putLong(0); // DT_NULL
        return b.array();
    }

    private static void phdr(ByteBuffer b, int type, int flags, long at, long size, long align) {
        b.putInt(type).putInt(flags).putLong(at).putLong(at).putLong(at).putLong(size).putLong(size).putLong(align);
    }

    private static int align(int v, int a) {
        return (v + a - 1) & -a;
    }
}
