package dev.brisk.exec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The regular files under a directory, as an {@link ItemSource}, for {@code --walk}. Names are
 * bytes exactly as the file system holds them (invalid UTF-8 and newlines included).
 *
 * <p>For now the walk is GNU {@code find DIR -type f -print0} read as NUL-separated bytes, which
 * keeps names exact; it moves to brisk's own walker ({@code dev.brisk.walk}) once that lands,
 * behind this same interface. Not thread-safe; {@link ItemSource#close} ends the walk.
 */
public final class TreeItems {
    private TreeItems() {}

    /**
     * Starts walking {@code dir} (files only, every depth, names as {@code dir/...}); extra
     * {@code findTests} (such as {@code -name '*.jpg'}) narrow the walk, as find's tests.
     *
     * @throws IOException if find cannot be started
     */
    public static ItemSource files(Path dir, List<String> findTests) throws IOException {
        Objects.requireNonNull(dir, "dir");
        String start = dir.toString().startsWith("-") ? "./" + dir : dir.toString();
        List<String> argv = new ArrayList<>(List.of("find", start, "-type", "f"));
        argv.addAll(findTests);
        argv.add("-print0");
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        InputStream in = p.getInputStream();
        ItemSource split = ItemSource.delimited(in, (byte) 0);
        return new ItemSource() {
            @Override
            public byte[] next() throws IOException {
                return split.next();
            }

            @Override
            public void close() throws IOException {
                p.destroy();
                in.close();
            }
        };
    }
}
