// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.ItemSource;
import dev.brisk.exec.PipeRecords;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --pipepart}'s blocks of a seekable file, split where GNU parallel 20221122's
 * {@code find_split_positions} splits it: from each multiple of the block size past the last
 * split, the first record boundary (an end followed by a start) ends a part; under
 * {@code --regexp} the last boundary in the first 128 KiB read there that holds one. Each part
 * is read when its job is due. With {@code --header}, the header found where the parts would
 * start ({@link BlockHeader}) goes before each part, and the parts start after it, as GNU's
 * {@code pipe_part_files} cuts them. Not thread-safe: one reader.
 */
public final class FileParts implements ItemSource {
    private static final int READ = 131_072;

    private final FileChannel file;
    private final List<Long> positions = new ArrayList<>();
    private final byte[] header;
    private int next;

    public FileParts(Path path, long blockSize, PipeRecords rules) throws IOException {
        this(path, blockSize, rules, 0, null);
    }

    /**
     * The parts of {@code path} past its first {@code skip} bytes ({@code --skip-first-line})
     * and, unless {@code header} is null, past the header that regular expression matches there
     * ({@code --header}: {@code :} one line, a number N lines), which goes before each part.
     *
     * @throws IllegalArgumentException if {@code header} is not a regular expression
     */
    public FileParts(Path path, long blockSize, PipeRecords rules, long skip, String header) throws IOException {
        file = FileChannel.open(path, StandardOpenOption.READ);
        try {
            long from = Math.min(skip, file.size());
            // the channel is not closed through the stream: this object closes it
            this.header = header == null ? new byte[0]
                    : BlockHeader.find(Channels.newInputStream(file.position(from)), header, blockSize).head();
            split(file.size(), blockSize, rules, from + this.header.length);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    private void split(long size, long block, PipeRecords rules, long skip) throws IOException {
        byte[] end = rules.end();
        byte[] boundary = Bytes.concat(end, rules.start());
        // GNU parallel's m:^(.*$recend)$recstart:s here: . matches a newline, ^ only at the start
        Pattern regexp = !rules.regexp() ? null
                : Pattern.compile("^(.*" + group(end) + ")" + group(rules.start()), Pattern.DOTALL | Pattern.UNIX_LINES);
        positions.add(skip);
        for (long pos = block + skip; pos < size; pos += block) {
            if (boundary.length == 0) {
                positions.add(pos);
                continue;
            }
            byte[] buf = new byte[0];
            for (long at = pos; at < size; ) {
                byte[] more = read(at, (int) Math.min(READ, size - at));
                at += more.length;
                buf = Bytes.concat(buf, more);
                int split = -1;
                if (regexp != null) {
                    Matcher m = regexp.matcher(new String(buf, StandardCharsets.ISO_8859_1));
                    if (m.find()) {
                        split = m.end(1);
                    }
                } else {
                    int i = indexOf(buf, boundary);
                    split = i < 0 ? -1 : i + end.length;
                }
                if (split >= 0) {
                    pos += split;
                    positions.add(pos);
                    break;
                }
            }
        }
        if (positions.getLast() != size) {
            positions.add(size);
        }
    }

    private static String group(byte[] regex) {
        return regex.length == 0 ? "" : "(?:" + new String(regex, StandardCharsets.ISO_8859_1) + ")";
    }

    @Override
    public byte[] next() throws IOException {
        if (next + 1 >= positions.size()) {
            return null;
        }
        long from = positions.get(next);
        long to = positions.get(++next);
        if (to - from > Integer.MAX_VALUE - 8 - header.length) {
            throw new IOException("a --pipepart block of " + (to - from) + " bytes is more than 2 GiB");
        }
        byte[] part = read(from, (int) (to - from));
        return header.length == 0 ? part : Bytes.concat(header, part);
    }

    @Override
    public long remaining() {
        return Math.max(0, positions.size() - 1 - next);
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    private byte[] read(long at, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        while (b.hasRemaining()) {
            if (file.read(b, at + b.position()) < 0) {
                break; // the file shrank: what is there
            }
        }
        return Arrays.copyOf(b.array(), b.position());
    }


    private static int indexOf(byte[] buf, byte[] what) {
        for (int i = 0; i + what.length <= buf.length; i++) {
            if (Arrays.equals(buf, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        return -1;
    }
}
