// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

/** The type of a walked entry, as {@code d_type} or the mode bits of a stat call give it. */
public enum EntryType {
    FILE('f'), DIRECTORY('d'), SYMLINK('l'), FIFO('p'), SOCKET('s'), BLOCK_DEVICE('b'),
    CHAR_DEVICE('c'), UNKNOWN('U');

    private final char letter;

    EntryType(char letter) {
        this.letter = letter;
    }

    /** The letter find's {@code -type} uses for this type ({@code U} for unknown). */
    public char letter() {
        return letter;
    }

    /** The type named by the {@code S_IFMT} bits of {@code mode}. */
    public static EntryType ofMode(int mode) {
        return switch (mode & 0170000) {
            case 0100000 -> FILE;
            case 0040000 -> DIRECTORY;
            case 0120000 -> SYMLINK;
            case 0010000 -> FIFO;
            case 0140000 -> SOCKET;
            case 0060000 -> BLOCK_DEVICE;
            case 0020000 -> CHAR_DEVICE;
            default -> UNKNOWN;
        };
    }
}
