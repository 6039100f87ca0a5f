// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

/**
 * What an open descriptor refers to, as far as choosing a transfer path needs: its kind, its
 * size (regular files), and its identity (device and inode, to catch input = output).
 */
public record FdInfo(Kind kind, long size, long device, long inode, int blockSize) {

    /** The file types the copy loop treats differently. */
    public enum Kind {
        REGULAR, PIPE, CHAR_DEVICE, BLOCK_DEVICE, DIRECTORY, SOCKET, OTHER;

        static Kind of(int mode) {
            return switch (mode & 0170000) {
                case 0100000 -> REGULAR;
                case 0010000 -> PIPE;
                case 0020000 -> CHAR_DEVICE;
                case 0060000 -> BLOCK_DEVICE;
                case 0040000 -> DIRECTORY;
                case 0140000 -> SOCKET;
                default -> OTHER;
            };
        }
    }

    /** True if both describe the same file (same device and inode). */
    public boolean sameFile(FdInfo other) {
        return other != null && device == other.device && inode == other.inode;
    }
}
