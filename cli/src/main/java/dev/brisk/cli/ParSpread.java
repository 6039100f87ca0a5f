// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.exec.ColumnRules;
import dev.brisk.exec.PipeRecords;
import dev.brisk.exec.internal.LineKey;
import dev.brisk.exec.internal.StreamSpread;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * {@code brisk par --pipe}'s {@code --round-robin}, {@code --tee}, {@code --shard} and
 * {@code --bin} over {@link StreamSpread}: which of them a command line asks for, and each job's
 * command reading its FIFO, as GNU parallel's jobs read theirs.
 */
final class ParSpread {
    private ParSpread() {}

    /** The spread of a command line's options, or null for none; the options are checked first. */
    static StreamSpread.Mode mode(boolean roundRobin, boolean tee, String shard, String bin) {
        int n = (roundRobin ? 1 : 0) + (tee ? 1 : 0) + (shard != null ? 1 : 0) + (bin != null ? 1 : 0);
        if (n > 1 && !(roundRobin && n == 2)) {
            throw new ParCommand.UsageError("--tee, --shard and --bin exclude each other");
        }
        return tee ? StreamSpread.Mode.TEE : shard != null || bin != null ? StreamSpread.Mode.BY_KEY
                : roundRobin ? StreamSpread.Mode.ROUND_ROBIN : null;
    }

    /**
     * Starts spreading {@code in} over {@code jobs} jobs.
     *
     * @param robin how {@code --round-robin} hands the blocks out: as GNU parallel's, to the jobs
     *     in turn with {@code -k}, {@code --header}'s match before each job's first
     * @param colsep {@code --colsep}, or null for GNU's {@code ,}
     */
    static StreamSpread start(InputStream in, StreamSpread.Mode mode, StreamSpread.RoundRobin robin, int jobs, PipeRecords records,
                              String shard, String bin, String colsep, Path tmpdir, Consumer<String> warnings)
            throws IOException {
        LineKey key = null;
        if (mode == StreamSpread.Mode.BY_KEY) {
            key = new LineKey(shard != null ? shard : bin, ColumnRules.separator((colsep == null ? "," : colsep)
                    .getBytes(StandardCharsets.UTF_8)), shard != null ? LineKey.Pick.HASH : LineKey.Pick.NUMBER);
        }
        return new StreamSpread(in, mode, robin, jobs, records, key, tmpdir, warnings);
    }

    /** {@code command} reading job {@code $PARALLEL_SEQ}'s FIFO of {@code spread} as its stdin. */
    static byte[] reading(StreamSpread spread, byte[] command) {
        String dir = spread.directory().toString();
        byte[] head = ("exec <'" + dir.replace("'", "'\\''") + "'/\"$PARALLEL_SEQ\"\n").getBytes(StandardCharsets.UTF_8);
        byte[] text = java.util.Arrays.copyOf(head, head.length + command.length);
        System.arraycopy(command, 0, text, head.length, command.length);
        return text;
    }
}
