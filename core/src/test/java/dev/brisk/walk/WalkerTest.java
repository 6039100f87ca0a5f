// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The walker over a real tree of awkward names, compared with GNU find's {@code -print0}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WalkerTest {
    @TempDir
    static Path tree;

    @BeforeAll
    static void build() throws Exception {
        String script = """
                set -e
                for d in a b c; do for e in 1 2 3; do mkdir -p $d/$e/deep; for f in x y z; do printf 12345 > $d/$e/$f; done; done; done
                printf n > "$(printf 'new\\nline')"; printf i > "$(printf 'bad\\xffname')"; printf d > ./-dash
                printf l > "$(head -c 255 /dev/zero | tr '\\0' L)"; ln -s a link; ln -s nowhere dangling; ln -s .. a/up
                mkfifo fifo
                """;
        Process p = new ProcessBuilder("bash", "-c", script).directory(tree.toFile()).inheritIO().start();
        assertThat(p.waitFor()).isZero();
    }

    /** GNU find's records for the tree; a leading "-L" goes before the root, the rest after it. */
    private static List<String> gnuFind(String... opts) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("find"));
        List<String> rest = new ArrayList<>(List.of(opts));
        if (!rest.isEmpty() && rest.getFirst().equals("-L")) {
            cmd.add(rest.removeFirst());
        }
        cmd.add(tree.toString());
        cmd.addAll(rest);
        cmd.add("-print0");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        p.waitFor();
        List<String> r = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == 0) {
                r.add(HexFormat.of().formatHex(out, start, i));
                start = i + 1;
            }
        }
        Collections.sort(r);
        return r;
    }

    private static List<String> walk(WalkOptions options) {
        List<String> r = Collections.synchronizedList(new ArrayList<>());
        Walker.of(options).walk(List.of(tree.toString().getBytes(StandardCharsets.UTF_8)), e -> {
            r.add(HexFormat.of().formatHex(e.pathBuffer(), 0, e.pathLength()));
            return Visit.CONTINUE;
        });
        List<String> sorted = new ArrayList<>(r);
        Collections.sort(sorted);
        return sorted;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void visitsWhatFindPrints(int threads) throws Exception {
        assertThat(walk(WalkOptions.DEFAULTS.withThreads(threads).withBackend(Backend.NATIVE))).isEqualTo(gnuFind());
    }

    /** As above, with the pool walking from the first directory on (brisk.walk.handoff=0). */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void visitsWhatFindPrintsWithThePoolFromTheStart(int threads) throws Exception {
        assertThat(withHandOff("0", () -> walk(WalkOptions.DEFAULTS.withThreads(threads).withBackend(Backend.NATIVE))))
                .isEqualTo(gnuFind());
    }

    /**
     * A parallel walk of a small tree runs on the calling thread alone (no pool is started: it
     * would cost more than the walk); one that proves big hands the rest to the pool's threads,
     * and both see what find prints.
     */
    @Test
    void aParallelWalkStartsItsPoolOnlyWhenTheTreeProvesBig(@TempDir Path t) throws Exception {
        for (int i = 0; i < 10; i++) {
            Files.createDirectories(t.resolve("small/d" + i));
            Files.writeString(t.resolve("small/d" + i + "/f"), "x");
        }
        for (int i = 0; i < 300; i++) {
            Files.createDirectories(t.resolve("big/d" + i + "/e"));
            Files.writeString(t.resolve("big/d" + i + "/f"), "x");
        }
        Thread me = Thread.currentThread();
        for (String name : List.of("small", "big")) {
            Path root = t.resolve(name);
            Map<String, Thread> seen = new java.util.concurrent.ConcurrentHashMap<>();
            // by the count of directories alone (not the clock: a busy machine may be slow)
            String oldMillis = System.getProperty("brisk.walk.handoff-ms");
            System.setProperty("brisk.walk.handoff-ms", "600000");
            try {
                withHandOff("64", () -> Walker.of(WalkOptions.DEFAULTS.withThreads(2).withBackend(Backend.NATIVE))
                        .walk(List.of(root.toString().getBytes(StandardCharsets.UTF_8)), e -> {
                            seen.put(new String(e.pathBuffer(), 0, e.pathLength(), StandardCharsets.UTF_8), Thread.currentThread());
                            return Visit.CONTINUE;
                        }));
            } finally {
                if (oldMillis == null) {
                    System.clearProperty("brisk.walk.handoff-ms");
                } else {
                    System.setProperty("brisk.walk.handoff-ms", oldMillis);
                }
            }
            Process p = new ProcessBuilder("find", root.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            List<String> find = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().sorted().toList();
            assertThat(p.waitFor()).isZero();
            assertThat(seen.keySet().stream().sorted().toList()).as(name).isEqualTo(find);
            java.util.Set<Thread> threads = new java.util.HashSet<>(seen.values());
            if (name.equals("small")) {
                assertThat(threads).as("the small tree's visits").containsExactly(me);
            } else {
                assertThat(threads).as("the big tree's visits").contains(me).hasSizeGreaterThan(1);
            }
        }
    }

    /** Runs {@code walk} with the system property brisk.walk.handoff set to {@code value}. */
    private static <T> T withHandOff(String value, java.util.function.Supplier<T> walk) {
        String old = System.getProperty("brisk.walk.handoff");
        System.setProperty("brisk.walk.handoff", value);
        try {
            return walk.get();
        } finally {
            if (old == null) {
                System.clearProperty("brisk.walk.handoff");
            } else {
                System.setProperty("brisk.walk.handoff", old);
            }
        }
    }

    @Test
    void followsLinksWithLoopsReportedAndMaxDepth() throws Exception {
        List<WalkError> errors = Collections.synchronizedList(new ArrayList<>());
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        WalkResult r = Walker.of(WalkOptions.DEFAULTS.withSymlinks(SymlinkMode.LOGICAL).withMaxDepth(3))
                .walk(List.of(tree.toString().getBytes(StandardCharsets.UTF_8)), new WalkVisitor() {
                    @Override
                    public Visit visit(WalkEntry e) {
                        seen.add(HexFormat.of().formatHex(e.pathBuffer(), 0, e.pathLength()));
                        return Visit.CONTINUE;
                    }

                    @Override
                    public void failed(WalkError error) {
                        errors.add(error);
                    }
                });
        Collections.sort(seen);
        assertThat(seen).isEqualTo(gnuFind("-L", "-maxdepth", "3"));
        assertThat(r.errors()).isEqualTo(errors.size()).isGreaterThan(0);
        assertThat(errors).allMatch(e -> e.message().startsWith("File system loop detected"));
    }

    @Test
    void portableEngineSeesTheValidNames() throws Exception {
        List<String> portable = walk(WalkOptions.DEFAULTS.withBackend(Backend.PORTABLE));
        assertThat(Walker.of(WalkOptions.DEFAULTS.withBackend(Backend.PORTABLE)).engine()).startsWith("portable");
        List<String> valid = gnuFind().stream()
                .filter(h -> !new String(HexFormat.of().parseHex(h), StandardCharsets.UTF_8).contains("\uFFFD")).toList();
        assertThat(portable).containsAll(valid);
    }

    @Test
    void skipStopAndPostOrder() {
        byte[] root = tree.toString().getBytes(StandardCharsets.UTF_8);
        List<String> names = new ArrayList<>();
        Walker.of(WalkOptions.DEFAULTS.withThreads(1)).walk(List.of(root), e -> {
            names.add(new String(e.name(), StandardCharsets.UTF_8));
            return e.type() == EntryType.DIRECTORY && e.depth() == 1 ? Visit.SKIP_SUBTREE : Visit.CONTINUE;
        });
        assertThat(names).doesNotContain("x", "deep");

        AtomicInteger count = new AtomicInteger();
        WalkResult stopped = Walker.of(WalkOptions.DEFAULTS.withThreads(2)).walk(List.of(root),
                e -> count.incrementAndGet() == 5 ? Visit.STOP : Visit.CONTINUE);
        assertThat(stopped.stopped()).isTrue();
        assertThat(count.get()).isLessThan(20);

        Map<String, Integer> order = new ConcurrentHashMap<>();
        AtomicInteger n = new AtomicInteger();
        Walker.of(WalkOptions.DEFAULTS.withOrder(Order.POST_ORDER)).walk(List.of(root), e -> {
            order.put(new String(e.path(), StandardCharsets.UTF_8), n.getAndIncrement());
            return Visit.CONTINUE;
        });
        String a = tree + "/a";
        assertThat(order.get(a)).isGreaterThan(order.get(a + "/1/x")).isGreaterThan(order.get(a + "/1"));
        assertThat(order.get(tree.toString())).isEqualTo(n.get() - 1);
    }

    @Test
    void statIsLazyAndRight() throws Exception {
        List<FileStat> stats = Collections.synchronizedList(new ArrayList<>());
        Walker.of(WalkOptions.DEFAULTS).walk(List.of((tree + "/b").getBytes(StandardCharsets.UTF_8)), e -> {
            if (e.type() == EntryType.FILE) {
                stats.add(e.stat());
            }
            return Visit.CONTINUE;
        });
        assertThat(stats).hasSize(9).allMatch(s -> s.size() == 5 && s.type() == EntryType.FILE && s.nlink() == 1);
        assertThat(Files.size(tree.resolve("b/1/x"))).isEqualTo(5);
    }

    @Test
    void streamYieldsSnapshotsAndCloses() {
        byte[] root = tree.toString().getBytes(StandardCharsets.UTF_8);
        Walker w = Walker.of(WalkOptions.DEFAULTS);
        try (Stream<WalkEntry> s = w.stream(List.of(root))) {
            List<WalkEntry> files = s.filter(e -> e.type() == EntryType.FILE).toList();
            assertThat(files).hasSize(31);
            assertThat(files).allMatch(e -> e.stat() != null && e.stat().size() >= 1);
        }
        try (Stream<WalkEntry> s = w.stream(List.of(root))) {
            assertThat(s.limit(3).count()).isEqualTo(3);
        }
    }

    @Test
    void errorsAreReportedAndTheWalkGoesOn() {
        List<WalkError> errors = new ArrayList<>();
        AtomicInteger seen = new AtomicInteger();
        WalkResult r = Walker.of(WalkOptions.DEFAULTS.withThreads(1)).walk(
                List.of("/no/such/root".getBytes(StandardCharsets.UTF_8), (tree + "/c").getBytes(StandardCharsets.UTF_8)),
                new WalkVisitor() {
                    @Override
                    public Visit visit(WalkEntry e) {
                        seen.incrementAndGet();
                        return Visit.CONTINUE;
                    }

                    @Override
                    public void failed(WalkError error) {
                        errors.add(error);
                    }
                });
        assertThat(r.errors()).isEqualTo(1);
        assertThat(errors.getFirst().toString()).isEqualTo("'/no/such/root': No such file or directory");
        assertThat(seen.get()).isEqualTo(1 + 3 * 5);
        ByteArrayOutputStream unused = new ByteArrayOutputStream();
        assertThat(unused.size()).isZero();
    }

    /** The descriptors of this process and what each is (readlink of /proc/self/fd). */
    private static List<String> openDescriptors() throws Exception {
        List<String> r = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            for (Path p : s.toList()) {
                try {
                    r.add(Files.readSymbolicLink(p).toString());
                } catch (java.io.IOException gone) {
                    // the listing's own descriptor
                }
            }
        }
        return r;
    }

    /**
     * A parallel walk opens subdirectories ahead through its workers' io_uring: it sees what
     * it sees without one (and what find prints), a subdirectory removed after it was read
     * fails as it fails without one, and nothing stays open after the walk.
     */
    @Test
    void theRingOpensAheadAndFailsLikeOpenat(@TempDir Path t) throws Exception {
        dev.brisk.internal.posix.Uring probe = dev.brisk.internal.posix.Uring.create(8);
        Assumptions.assumeTrue(probe != null, "no io_uring here");
        probe.close();
        for (int i = 0; i < 40; i++) {
            Files.createDirectories(t.resolve("r/s" + i + "/u"));
            Files.writeString(t.resolve("r/s" + i + "/f"), "x");
        }
        String tree = t.toString();
        List<String> before = openDescriptors();
        // the pool walks from the start: its worker opens r's subdirectories ahead, s7 among them
        List<String> withRing = withHandOff("0", () -> removingOne(tree, 2, true));
        assertThat(openDescriptors()).as("the walk left nothing open").isEqualTo(before);
        String old = System.getProperty("brisk.uring");
        System.setProperty("brisk.uring", "off");
        List<String> withoutRing;
        try {
            for (int i = 0; i < 40; i++) { // put s7 back
                Files.createDirectories(t.resolve("r/s" + i + "/u"));
                Files.writeString(t.resolve("r/s" + i + "/f"), "x");
            }
            withoutRing = withHandOff("0", () -> removingOne(tree, 2, false));
        } finally {
            if (old == null) {
                System.clearProperty("brisk.uring");
            } else {
                System.setProperty("brisk.uring", old);
            }
        }
        assertThat(withRing).isEqualTo(withoutRing).contains("error '" + tree + "/r/s7': No such file or directory")
                .hasSize(1 + 1 + 40 + 39 * 2 + 1);
    }

    /**
     * Walks {@code tree} on {@code threads} threads, removing r/s7 when it is visited (before
     * the walker opens it); the visits and errors, sorted. {@code ring}: whether a worker's
     * io_uring is open during the walk (checked), or none is.
     */
    private static List<String> removingOne(String tree, int threads, boolean ring) {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger ringsSeen = new AtomicInteger();
        Walker.of(WalkOptions.DEFAULTS.withThreads(threads).withBackend(Backend.NATIVE))
                .walk(List.of(tree.getBytes(StandardCharsets.UTF_8)), new WalkVisitor() {
                    @Override
                    public Visit visit(WalkEntry e) {
                        String p = new String(e.pathBuffer(), 0, e.pathLength(), StandardCharsets.UTF_8);
                        seen.add(p.substring(tree.length()));
                        try {
                            if (p.endsWith("/r/s7")) {
                                Files.delete(Path.of(p, "f"));
                                Files.delete(Path.of(p, "u"));
                                Files.delete(Path.of(p));
                            }
                            if (p.endsWith("/f") && openDescriptors().contains("anon_inode:[io_uring]")) {
                                ringsSeen.incrementAndGet();
                            }
                        } catch (Exception x) {
                            throw new IllegalStateException(x);
                        }
                        return Visit.CONTINUE;
                    }

                    @Override
                    public void failed(WalkError error) {
                        seen.add("error " + error);
                    }
                });
        assertThat(ringsSeen.get() > 0).as("a ring was open during the walk").isEqualTo(ring);
        List<String> sorted = new ArrayList<>(seen);
        Collections.sort(sorted);
        return sorted;
    }

    @Test
    void optionsNameBadValues() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WalkOptions.DEFAULTS.withMaxDepth(-1))
                .hasMessageContaining("-1");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WalkOptions.DEFAULTS.withThreads(-3))
                .hasMessageContaining("-3");
    }
}
