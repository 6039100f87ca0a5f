// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import dev.brisk.exec.internal.BlockCutter;
import dev.brisk.exec.internal.BlockHeader;
import dev.brisk.exec.internal.FileParts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * How {@code brisk par --pipe} cuts its input into records and the records into jobs' blocks, as
 * GNU parallel 20221122 cuts them: a record ends with {@code end} and the next starts with
 * {@code start}; a block is about {@code blockSize} bytes of whole records (grown by 30% while a
 * record is longer), or {@code recordsPerJob} records, or records of {@code linesPerRecord} lines.
 *
 * @param blockSize bytes read per block ({@code --block}, GNU parallel's default 1 MiB)
 * @param start what a record starts with ({@code --recstart}, default empty)
 * @param end what a record ends with ({@code --recend}, default a newline)
 * @param regexp whether {@code start} and {@code end} are regular expressions ({@code --regexp}),
 *     matched on the bytes as ISO-8859-1 characters, {@code ^} and {@code $} at each line
 * @param recordsPerJob records in each job ({@code -N}); 0: as many as fit the block
 * @param linesPerRecord lines in each record ({@code -L}, {@code -l}); 0: records end with {@code end}
 * @param removeSeparators whether each block loses its records' {@code end} and {@code start}
 *     ({@code --rrs}: every end-and-start inside it, a start at its beginning, an end at its end)
 * @param blockTimeout how long the reading of one block may take ({@code --block-timeout}): at
 *     the timeout the records read so far make the block (and a block too small for a record is
 *     not grown); {@link Duration#ZERO}: no timeout
 * @param csv whether a record ends only at a newline after an even number of {@code "}
 *     ({@code --csv}: a quoted CSV field may hold newlines)
 */
public record PipeRecords(long blockSize, byte[] start, byte[] end, boolean regexp, int recordsPerJob,
                          int linesPerRecord, boolean removeSeparators, Duration blockTimeout, boolean csv) {
    /** GNU parallel's default: records end with a newline, blocks of 1 MiB. */
    public static final PipeRecords LINES = new PipeRecords(1 << 20, new byte[0], new byte[] {'\n'}, false, 0, 0);

    /** Records without {@code --rrs}, {@code --block-timeout} or {@code --csv}. */
    public PipeRecords(long blockSize, byte[] start, byte[] end, boolean regexp, int recordsPerJob, int linesPerRecord) {
        this(blockSize, start, end, regexp, recordsPerJob, linesPerRecord, false, Duration.ZERO, false);
    }

    public PipeRecords {
        Objects.requireNonNull(blockTimeout, "blockTimeout");
        if (blockTimeout.isNegative()) {
            throw new IllegalArgumentException("blockTimeout must not be negative, got " + blockTimeout);
        }
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        start = start.clone();
        end = end.clone();
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be at least 1, got " + blockSize);
        }
        if (recordsPerJob < 0) {
            throw new IllegalArgumentException("recordsPerJob must not be negative, got " + recordsPerJob);
        }
        if (linesPerRecord < 0) {
            throw new IllegalArgumentException("linesPerRecord must not be negative, got " + linesPerRecord);
        }
        if (regexp) {
            try {
                Pattern.compile(new String(start, java.nio.charset.StandardCharsets.ISO_8859_1));
                Pattern.compile(new String(end, java.nio.charset.StandardCharsets.ISO_8859_1));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("regexp: not a regular expression: '" + e.getPattern() + "'");
            }
        }
    }

    @Override
    public byte[] start() {
        return start.clone();
    }

    @Override
    public byte[] end() {
        return end.clone();
    }

    /**
     * The blocks of {@code in}, each one job's standard input, as an {@link ItemSource} that
     * {@link JobOptions#pipe()} runs a job for each item of. {@code warnings} hears GNU
     * parallel's warning when a record is longer than the block ("A record was longer than
     * ..."). The source owns {@code in}.
     */
    public ItemSource blocks(InputStream in, Consumer<String> warnings) {
        return new BlockCutter(in, this, Objects.requireNonNull(warnings, "warnings"));
    }

    /**
     * Like {@link #blocks(InputStream, Consumer)}, after GNU parallel's {@code --header}: the
     * start of {@code in} that the regular expression {@code header} matches ({@code :} one
     * line, a number N lines; none if it does not match within the input) goes before every
     * block, and only the rest is cut into records.
     *
     * @throws IllegalArgumentException if {@code header} is not a regular expression
     * @throws IOException if the input cannot be read
     */
    public ItemSource blocks(InputStream in, String header, Consumer<String> warnings) throws IOException {
        Objects.requireNonNull(warnings, "warnings");
        return BlockHeader.blocks(in, Objects.requireNonNull(header, "header"), blockSize, rest -> new BlockCutter(rest, this, warnings));
    }

    /**
     * The blocks of the seekable {@code file} ({@code --pipepart}): split at the first record
     * boundary past each multiple of {@link #blockSize} (GNU parallel's {@code --pipepart}
     * splits, which differ from a stream's), each part read when its job is due.
     * {@link #recordsPerJob} and {@link #linesPerRecord} do not apply.
     *
     * @throws IOException if the file cannot be opened or read
     */
    public ItemSource parts(Path file) throws IOException {
        return parts(file, 0);
    }

    /**
     * Like {@link #parts(Path)}, the first {@code skip} bytes of {@code file} left out (GNU
     * parallel's {@code --skip-first-line}: its first line): the first part starts there, and
     * so do the block size's multiples.
     *
     * @throws IOException if the file cannot be opened or read
     */
    public ItemSource parts(Path file, long skip) throws IOException {
        return new FileParts(file, blockSize, this, skip, null);
    }

    /**
     * Like {@link #parts(Path, long)}, after GNU parallel's {@code --header}: the bytes past
     * {@code skip} that the regular expression {@code header} matches ({@code :} one line, a
     * number N lines; none if it does not match within the file) go before every part, and the
     * parts are cut from the rest (their block size's multiples start after the header).
     *
     * @throws IllegalArgumentException if {@code header} is not a regular expression
     * @throws IOException if the file cannot be opened or read
     */
    public ItemSource parts(Path file, long skip, String header) throws IOException {
        return new FileParts(file, blockSize, this, skip, Objects.requireNonNull(header, "header"));
    }
}
