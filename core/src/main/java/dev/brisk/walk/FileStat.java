// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

/**
 * The attributes of a file, as {@code statx(2)} reports them. Times are seconds and nanoseconds
 * since the epoch; {@code dev} and {@code rdev} are {@code makedev(major, minor)} values.
 */
public record FileStat(int mode, long nlink, int uid, int gid, long size, long blocks, long ino,
        long dev, long rdev, long atimeSec, int atimeNsec, long mtimeSec, int mtimeNsec,
        long ctimeSec, int ctimeNsec) {

    /** The entry type the mode bits name. */
    public EntryType type() {
        return EntryType.ofMode(mode);
    }

    /** The permission bits, including set-user-ID, set-group-ID and sticky ({@code mode & 07777}). */
    public int permissions() {
        return mode & 07777;
    }
}
