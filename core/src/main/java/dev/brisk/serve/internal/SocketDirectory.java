// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve.internal;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The directory a server's socket lives in, held to chg's rule: created with mode 0700, and
 * refused when it is not a directory owned by this user or when its group or others may do
 * anything with it. Stateless.
 */
public final class SocketDirectory {
    private SocketDirectory() {}

    /** This process's user id (the owner of {@code /proc/self}). */
    public static int currentUid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    /**
     * Creates {@code dir} (mode 0700, parents as needed) or checks the one there.
     *
     * @throws IOException with a one-line message when the directory is unsafe or cannot be made
     */
    public static void prepare(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Path parent = dir.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            } catch (FileAlreadyExistsException e) {
                // made by a server starting at the same time: checked below like any other
            }
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("refusing the socket directory " + dir + ": not a directory");
        }
        int owner = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        int uid = currentUid();
        if (owner != uid) {
            throw new IOException("refusing the socket directory " + dir + ": owned by uid " + owner + ", not by uid " + uid);
        }
        int mode = (Integer) Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        if ((mode & 077) != 0) {
            throw new IOException(String.format("refusing the socket directory %s: mode %04o lets group or others in"
                    + " (chmod 700 it)", dir, mode & 07777));
        }
    }
}
