// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import dev.brisk.find.Find;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The regular files under a directory, as an {@link ItemSource}, for {@code --walk}. Names are
 * bytes exactly as the file system holds them (invalid UTF-8 and newlines included).
 *
 * <p>The walk is brisk's own {@code find DIR -type f [TESTS] -print0} ({@link Find}, on the
 * native walker), run on a background thread into a pipe that the source reads NUL-separated:
 * the pipe's capacity bounds what a walk can run ahead of the jobs. Errors met on the way
 * (permission denied, a vanished directory) go to the stream the caller gives, one line each as
 * find reports them, and the walk goes on. Not thread-safe; {@link ItemSource#close} stops the
 * walk.
 */
public final class TreeItems {
    private TreeItems() {}

    /**
     * Starts walking {@code dir} (files only, every depth, names as {@code dir/...}); extra
     * {@code findTests} (such as {@code -name '*.jpg'}) narrow the walk, as find's tests; what
     * the walk cannot read is reported on {@code errors} (written from the walk's thread, not
     * closed).
     *
     * @throws IOException if the pipe cannot be made
     */
    public static ItemSource files(Path dir, List<String> findTests, OutputStream errors) throws IOException {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(findTests, "findTests");
        Objects.requireNonNull(errors, "errors");
        String start = dir.toString().startsWith("-") ? "./" + dir : dir.toString();
        List<byte[]> args = new ArrayList<>();
        for (String a : List.of(start, "-type", "f")) {
            args.add(a.getBytes(StandardCharsets.UTF_8));
        }
        for (String a : findTests) {
            args.add(a.getBytes(StandardCharsets.UTF_8));
        }
        args.add("-print0".getBytes(StandardCharsets.UTF_8));
        Pipe pipe = Pipe.open();
        OutputStream out = Channels.newOutputStream(pipe.sink());
        InputStream in = Channels.newInputStream(pipe.source());
        PrintStream err = new PrintStream(errors, true, StandardCharsets.UTF_8);
        Thread walker = Thread.ofPlatform().daemon().name("brisk-par-walk").start(() -> {
            try (out) {
                Find.run(args, out, err);
            } catch (IOException e) {
                // the reader closed its end: the walk was stopped
            }
        });
        ItemSource split = ItemSource.delimited(in, (byte) 0);
        return new ItemSource() {
            @Override
            public byte[] next() throws IOException {
                return split.next();
            }

            @Override
            public void close() throws IOException {
                in.close();
                walker.interrupt();
            }
        };
    }
}
