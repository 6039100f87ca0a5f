// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.internal.posix.Caller;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Where files go on a remote host, by GNU parallel's rules for {@code --workdir},
 * {@code --transferfile} and {@code --return}: a relative path is relative to the work
 * directory (default: the login's home), an absolute one stays, and what follows {@code /./}
 * is relative to the work directory. Paths are bytes throughout.
 */
final class RemoteFiles {
    /** The work directory of {@code ...}: one per run, under {@code ~/.parallel/tmp}. */
    static final String UNIQUE = "...";

    private static final String STAMP = Long.toHexString(System.nanoTime() & 0xffffff);

    private RemoteFiles() {}

    /** The work directory as the host sees it (relative: to the home), or empty for the home itself. */
    static byte[] workdir(String wd) {
        if (wd == null) {
            return new byte[0];
        }
        if (wd.equals(UNIQUE)) {
            // the caller's pid: a warm server's concurrent calls each have their own
            return (".parallel/tmp/brisk-" + Caller.current().pid() + "-" + STAMP).getBytes(StandardCharsets.UTF_8);
        }
        if (wd.equals(".")) {
            String cwd = Caller.workingDirectory();
            String home = home();
            if (cwd.equals(home)) {
                return new byte[0];
            }
            if (cwd.startsWith(home + "/")) {
                return cwd.substring(home.length() + 1).getBytes(StandardCharsets.UTF_8);
            }
            return cwd.getBytes(StandardCharsets.UTF_8);
        }
        return wd.getBytes(StandardCharsets.UTF_8);
    }

    /** The caller's home: {@code $HOME}, as GNU parallel takes it, else the JVM's {@code user.home}. */
    static String home() {
        String h = Caller.current().getenv("HOME");
        return h != null && h.startsWith("/") ? h : System.getProperty("user.home");
    }

    /** Where the local {@code path} goes on the host, given the work directory {@code wd}. */
    static byte[] remotePath(byte[] path, byte[] wd) {
        int dot = indexOf(path, new byte[] {'/', '.', '/'});
        if (dot >= 0) {
            return join(wd, Arrays.copyOfRange(path, dot + 3, path.length));
        }
        if (path.length > 0 && path[0] == '/') {
            return path;
        }
        return join(wd, path);
    }

    /** The local path a returned {@code path} is written to: the part after {@code /./}, else the path itself. */
    static byte[] localPath(byte[] path) {
        int dot = indexOf(path, new byte[] {'/', '.', '/'});
        return dot >= 0 ? Arrays.copyOfRange(path, dot + 3, path.length) : path;
    }

    /** The directory part of {@code path}, or {@code .}. */
    static byte[] dirOf(byte[] path) {
        for (int i = path.length - 1; i >= 0; i--) {
            if (path[i] == '/') {
                return i == 0 ? new byte[] {'/'} : Arrays.copyOf(path, i);
            }
        }
        return new byte[] {'.'};
    }

    private static byte[] join(byte[] dir, byte[] rel) {
        if (dir.length == 0) {
            return rel;
        }
        byte[] r = Arrays.copyOf(dir, dir.length + 1 + rel.length);
        r[dir.length] = '/';
        System.arraycopy(rel, 0, r, dir.length + 1, rel.length);
        return r;
    }

    private static int indexOf(byte[] a, byte[] b) {
        outer:
        for (int i = 0; i + b.length <= a.length; i++) {
            for (int j = 0; j < b.length; j++) {
                if (a[i + j] != b[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
