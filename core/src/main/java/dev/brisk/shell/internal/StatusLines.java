// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

/**
 * The parser of a worker shell's status channel (its stdout, FIFO {@code s}): one line per
 * event, which may arrive split across reads. {@code p PGID}: the subshell that runs the next
 * command (or the current one) leads process group PGID; {@code u}: the pre-forked subshell
 * found its worker dead and ran nothing; {@code x STATUS}: the command ended with STATUS (128+N
 * for signal N, as the shell shows it). Not thread-safe: the worker's poll loop feeds it.
 */
final class StatusLines {
    /** What the lines say, as they complete. */
    interface Listener {
        void processGroup(int pgid);

        void notStarted();

        void exited(int status);
    }

    private final StringBuilder line = new StringBuilder();

    /** Takes {@code n} more bytes of the channel; calls {@code l} for each line they complete. */
    void feed(byte[] bytes, int n, Listener l) {
        for (int i = 0; i < n; i++) {
            char c = (char) (bytes[i] & 0xff);
            if (c != '\n') {
                line.append(c);
                continue;
            }
            String text = line.toString();
            line.setLength(0);
            if (text.startsWith("p ")) {
                l.processGroup(Integer.parseInt(text.substring(2).trim()));
            } else if (text.equals("u")) {
                l.notStarted();
            } else if (text.startsWith("x ")) {
                l.exited(Integer.parseInt(text.substring(2).trim()));
            }
        }
    }
}
