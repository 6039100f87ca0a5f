// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential tests of the packaged {@code brisk find} against GNU find over a tree of awkward
 * names (newlines, invalid UTF-8, leading dashes, 255-byte names, spaces, quotes, globs), links,
 * a FIFO, odd modes and old times: for every expression, the sorted output records and the exit
 * status must equal find's, byte for byte.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FindIT {
    /** Builds the fixture in the current directory (bash, so names can be any bytes). */
    static final String FIXTURE = """
            set -e
            mkdir -p d1/sub/deeper d2/skip/inner 'sp ace' empty-dir -- -dashdir
            printf x > a.txt; printf 'hello world\\n' > B.TXT; : > empty.txt
            head -c 3000 /dev/zero > d1/big.bin; head -c 10 /dev/zero > d1/ten.bin
            printf y > d1/sub/f1.txt; printf z > d1/sub/deeper/f2.txt; printf q > d2/skip/inner/hidden.txt
            printf 1 > d2/a; printf 2 > d2/b
            printf n > "$(printf 'new\\nline')"; printf i > "$(printf 'bad\\xff\\xfeutf')"
            printf d > ./-dash; printf s > 'sp ace/with space'; printf q > "quo'te\\"s"
            printf g > 'star*glob?[x]'; printf b > 'back\\slash'
            printf l > "$(head -c 255 /dev/zero | tr '\\0' L)"
            printf u > 'Ünïcödé.txt'
            ln -s a.txt link-file; ln -s d1 link-dir; ln -s nowhere dangling; ln -s . d2/loop
            mkfifo pipe
            chmod 600 d1/ten.bin; chmod 4755 d1/big.bin; chmod 777 d2/a; chmod 444 d2/b
            touch -d '2000-01-02 03:04:05' d1/big.bin d2/a; touch -d '2 days ago' d2/b
            touch -d '90 minutes ago' d1/ten.bin; touch -d '1990-06-01' ref; touch -d '1995-01-01' 'sp ace/with space'
            chown 12345:12345 d2/b || true
            ln d2/a d2/a-hardlink
            """;

    @TempDir
    static Path tree;

    @BeforeAll
    static void build() throws Exception {
        Result r = run(tree, List.of("bash", "-c", FIXTURE), null);
        assertThat(r.status).as(r.errText()).isZero();
    }

    @AfterAll
    static void cleanUp() throws Exception {
        run(tree, List.of("chmod", "-R", "u+rwx", "."), null);
    }

    static Stream<String> expressions() {
        return Stream.of(
                "", "-print0", "-type f", "-type d", "-type l", "-type p", "-type f,l", "! -type d",
                "-name *.txt", "-iname *.txt", "-name -*", "-name *[ab]*", "-name star\\*glob\\?\\[x]",
                "-name ?", "-name [!a-c]*", "-name [[:upper:]]*", "-name LLL*", "-name bad*",
                "-path ./d1/*", "-ipath ./D1/SUB*", "-path *e*",
                "-regex .*/f[0-9]\\.txt", "-iregex .*\\.TXT", "-regex .*/\\(a\\|b\\)",
                "-regextype posix-extended -regex .*/(a|b)",
                "-maxdepth 1", "-mindepth 2", "-mindepth 1 -maxdepth 2", "-maxdepth 0", "-depth",
                "-depth -mindepth 1 -type d",
                "-size 0", "-size +1k", "-size -2", "-size 10c", "-size +0", "-size 6", "-size -1M",
                "-mtime +1000", "-mtime -1", "-mmin -60", "-mmin +60", "-mtime 2", "-newer ref", "! -newer ref",
                "-daystart -mtime 0", "-daystart -mtime -3", "-daystart -mtime +1", "-mtime 0 -daystart -mmin -90",
                "-perm 644", "-perm -u+x", "-perm /o+w", "-perm -4000", "-perm /022", "-perm u=rw",
                "-user root", "-group root", "-nouser", "-nogroup", "-user 12345",
                "-links 1", "-links +1", "-links 2", "-empty", "-empty -type d", "-not -empty",
                "-printf %p|%s|%m|%M|%y|%d|%f|%h|%P|%H|%l|%n|%U|%u|%G|%g\\0",
                "-printf %-6s|%5d|%.3f|%#m|%TY-%Tm-%Td|%T@|%t|%k\\0",
                "-printf %Ta|%TA|%Tb|%TB|%Tj|%Tp|%Tz|%TZ|%Tu|%Tw|%Te|%Tk|%Tl|%TI|%TR|%Ts|%TT|%T+|%Tc\\0",
                "-printf [%05d][%05n][%05m][%05k][%05s][%+5d][%+m][%-5d][%+05d][%#5m][%.1d][%10p][%-10f][%.2p]\\0",
                "-name *.txt -o -type d", "( -name a -o -name b ) -print",
                "-name d2 -prune -o -print", "-type d -name sub -prune -o -type f -print",
                "-name a.txt -print , -name B.TXT -print0", "-true", "-false", "-type f -a -size +0 -a -print",
                "-name nothing -o -print", "! ( -type f -o -type d )",
                "-type f -exec printf %s\\0 {} ;", "-type f -exec printf [%s]\\0 {} +",
                "-type f -execdir printf %s\\0 {} +", "-name *.bin -exec printf <{}>\\0 ;",
                "-name *.txt -exec false ; -print", "-name *.bin -print -quit",
                "-samefile d2/a", "-samefile ./a.txt -o -samefile link-file", "-L -samefile a.txt",
                "-lname a*", "-ilname A*", "-lname *", "-L -lname no*", "-lname d? -print0",
                "-readable", "-writable", "! -writable", "-executable", "-type f -executable", "-L -readable",
                "-xtype l", "-xtype f", "-xtype d", "-xtype f,d -type l", "-L -xtype l", "-L -xtype f", "-H -xtype f",
                "-newermt 1999-12-31", "-newermt @946771200", "-not -newermt 1996-01-01T00:00:00Z", "-newermt 2000-01-02",
                "-neweram ref", "-newercm ref", "-newerma ref", "-anewer ref", "-cnewer ref", "-L -newermm ref",
                "-ls", "-type f -ls", "-L -ls", "-H -type l -ls", "-name *.txt -ls -o -print0",
                "-xdev -type d", "-mount -depth -name d1", "-L -type l", "-L -type d", "-L -maxdepth 2 -name *.txt", "-H -type l", "-follow -type f");
    }

    @ParameterizedTest
    @MethodSource("expressions")
    void sameRecordsAsGnuFind(String expression) throws Exception {
        List<String> expr = expression.isEmpty() ? List.of() : Arrays.asList(expression.split(" "));
        int at = expr.indexOf("-L") >= 0 || expr.indexOf("-H") >= 0 ? 1 : 0;
        List<String> args = new ArrayList<>(expr.subList(0, at));
        args.add(".");
        args.addAll(expr.subList(at, expr.size()));
        Result gnu = run(tree, concat(List.of("find"), args), null);
        Result ours = brisk(tree, concat(List.of("find"), args), null);
        assertThat(records(ours.out)).as("records of: %s%n%s", expression, ours.errText())
                .containsExactlyElementsOf(records(gnu.out));
        assertThat(ours.status).as("status of %s; stderr %s vs %s", expression, ours.errText(), gnu.errText())
                .isEqualTo(gnu.status);
    }

    /**
     * A sequential walk ({@code --threads=1}, or an action that needs one thread) lists in GNU
     * find's order: each directory's entries as the kernel lists them, each subdirectory entered
     * where it is met (left there with -depth). Compared unsorted. (find sorts directories of
     * more than 10,000 entries by inode number; the fixture has none.)
     */
    @ParameterizedTest
    @ValueSource(strings = {"--threads=1 .", "--threads=1 . -depth", "--threads=1 . -type f -print0",
            ". -type f -exec printf %s\\n {} ;", "--threads=1 . -name d2 -prune -o -print",
            "--threads=1 . -mindepth 2 -depth -type d", "--threads=1 d2 d1 -name *.txt"})
    void sequentialWalkHasFindsOrder(String line) throws Exception {
        List<String> args = Arrays.asList(line.split(" "));
        Result gnu = run(tree, concat(List.of("find"), args.subList(args.get(0).startsWith("--") ? 1 : 0, args.size())), null);
        Result ours = brisk(tree, concat(List.of("find"), args), null);
        assertThat(show(ours.out)).as("output of: %s%n%s", line, ours.errText()).isEqualTo(show(gnu.out));
        assertThat(ours.status).isEqualTo(gnu.status);
    }

    /**
     * {@code -delete} on two copies of the fixture, one by GNU find and one by brisk: the same
     * output, messages, status and what is left, for deletions that succeed, fail (a directory
     * that is not empty) or are refused (-prune without -depth).
     */
    @ParameterizedTest
    @ValueSource(strings = {". -delete", ". -name *.txt -delete", ". -type d -empty -delete -print",
            ". -name d1 -delete", "d2 -delete", ". -name d2 -prune -delete", ". -depth -name d2 -prune -o -type f -delete",
            ". -path ./d1/* -print -delete"})
    void deleteLikeGnuFind(String line, @TempDir Path scratch) throws Exception {
        List<String> args = Arrays.asList(line.split(" "));
        Path gnuTree = Files.createDirectory(scratch.resolve("gnu"));
        Path ourTree = Files.createDirectory(scratch.resolve("ours"));
        for (Path t : List.of(gnuTree, ourTree)) {
            assertThat(run(t, List.of("bash", "-c", FIXTURE), null).status).isZero();
        }
        Result gnu = run(gnuTree, concat(List.of("find"), args), null);
        Result ours = brisk(ourTree, concat(List.of("find"), args), null);
        assertThat(records(ours.out)).as("output of %s", line).containsExactlyElementsOf(records(gnu.out));
        assertThat(ours.errText().replace('‘', '\'').replace('’', '\'').lines().sorted().toList())
                .as("messages of %s", line)
                .isEqualTo(gnu.errText().replace('‘', '\'').replace('’', '\'').lines().sorted().toList());
        assertThat(ours.status).as("status of %s", line).isEqualTo(gnu.status);
        Result gnuLeft = run(gnuTree, List.of("find", "."), null);
        Result ourLeft = run(ourTree, List.of("find", "."), null);
        assertThat(records(ourLeft.out)).as("left after %s", line).containsExactlyElementsOf(records(gnuLeft.out));
    }

    /**
     * {@code -fprint}, {@code -fprint0}, {@code -fprintf}: the files (outside the tree; F and G
     * below) hold the same records as GNU find's, and standard output only what else is printed.
     */
    @ParameterizedTest
    @ValueSource(strings = {"-fprint F", "-type f -fprint0 F", "-fprintf F %p|%s|%P\\n", "-name *.txt -fprint F -o -fprint G",
            "-fprint F -fprint0 F -print", "-type d -fprintf G %d:%f\\n , -type f -fprint F", "-fls F", "-type d -fls F -o -ls"})
    void fprintLikeGnuFind(String expression, @TempDir Path scratch) throws Exception {
        Files.createDirectories(scratch.resolve("gnu"));
        Files.createDirectories(scratch.resolve("ours"));
        List<String> results = new ArrayList<>();
        for (String who : List.of("gnu", "ours")) {
            List<String> args = new ArrayList<>(List.of("find", "."));
            for (String a : expression.split(" ")) {
                args.add(a.equals("F") || a.equals("G") ? scratch.resolve(who).resolve(a).toString() : a);
            }
            Result r = who.equals("gnu") ? run(tree, args, null) : brisk(tree, args, null);
            Path f = scratch.resolve(who).resolve("F"), g = scratch.resolve(who).resolve("G");
            results.add(r.status + " out " + records(r.out) + " F " + (Files.exists(f) ? records(Files.readAllBytes(f)) : "none")
                    + " G " + (Files.exists(g) ? records(Files.readAllBytes(g)) : "none") + " err " + r.errText());
        }
        assertThat(results.get(1)).as(expression).isEqualTo(results.get(0));
    }

    @Test
    void fprintToAnUnwritableFileIsAUsageError() throws Exception {
        Result gnu = run(tree, List.of("find", ".", "-fprint", "/nonexistent/dir/f"), null);
        Result ours = brisk(tree, List.of("find", ".", "-fprint", "/nonexistent/dir/f"), null);
        assertThat(ours.status).isEqualTo(gnu.status).isEqualTo(1);
        assertThat(ours.errText().trim()).isEqualTo(gnu.errText().trim());
        assertThat(ours.out).isEmpty();
    }

    @Test
    void absoluteAndTrailingSlashRoots() throws Exception {
        for (String root : List.of(tree.toString(), tree + "/", "d1/", "./d1//", "link-dir", "d1/sub/f1.txt")) {
            Result gnu = run(tree, List.of("find", root, "-printf", "%p|%f|%h|%P|%d\\n"), null);
            Result ours = brisk(tree, List.of("find", root, "-printf", "%p|%f|%h|%P|%d\\n"), null);
            assertThat(records(ours.out)).as(root).containsExactlyElementsOf(records(gnu.out));
        }
    }

    @Test
    void xdevStaysOnTheRootFileSystem() throws Exception {
        for (String order : List.of("-true", "-depth")) {
            List<String> args = List.of("find", "/", "-xdev", order, "-maxdepth", "2", "-type", "d", "-path", "/[dps]*");
            Result gnu = run(tree, args, null);
            Result ours = brisk(tree, args, null);
            assertThat(records(ours.out)).as(order).containsExactlyElementsOf(records(gnu.out)).contains("/proc", "/dev");
        }
    }

    @Test
    void permissionDeniedIsReportedAndTheWalkGoesOn() throws Exception {
        asUserIn("mkdir -p ok locked/inner && touch ok/f locked/inner/g && chmod 755 . ok && chmod 000 locked", (dir, asUser) -> {
            for (String order : List.of("-true", "-depth")) {
                Result gnu = run(dir, concat(asUser, List.of("find", ".", order)), null);
                Result ours = brisk(dir, asUser, List.of("find", ".", order), null);
                assertThat(records(ours.out)).as(order).containsExactlyElementsOf(records(gnu.out)).contains("./ok/f");
                assertThat(ours.status).isEqualTo(gnu.status).isEqualTo(1);
                assertThat(ours.errText()).isEqualTo("find: ‘./locked’: Permission denied\n");
            }
        });
    }

    /**
     * {@code %Y} of a link into a directory that cannot be searched: {@code ?} and GNU's message;
     * the exit status is 1, as bfs's (GNU find 4.9 exits 0: docs/FIND.md).
     */
    @Test
    void aLinkTargetThatCannotBeReachedIsAnErrorOfPercentY() throws Exception {
        asUserIn("mkdir foo && ln -s foo/bar bar && ln -s nowhere broken && chmod 755 . && chmod 644 foo", (dir, asUser) -> {
            List<String> args = List.of("find", ".", "-printf", "(%p) (%l) %y %Y\n");
            Result gnu = run(dir, concat(asUser, args), null);
            Result ours = brisk(dir, asUser, args, null);
            assertThat(records(ours.out)).containsExactlyElementsOf(records(gnu.out)).contains("(./bar) (foo/bar) l ?");
            assertThat(ours.errText()).isEqualTo(gnu.errText()).isEqualTo("find: ‘./bar’: Permission denied\n");
            assertThat(gnu.status).isZero();
            assertThat(ours.status).isEqualTo(1);
        });
    }

    /** A check of a tree that {@link #asUserIn} made, with the prefix that runs a command as a user. */
    private interface UserCheck {
        void check(Path dir, List<String> asUser) throws Exception;
    }

    /**
     * Makes a tree with the shell command {@code setup} in a fresh directory and runs {@code check}
     * on it as a user whom permissions bind: root reads anything, so as root the commands run as
     * nobody (through {@code setpriv}), as find itself would be run by a user.
     */
    private static void asUserIn(String setup, UserCheck check) throws Exception {
        Path dir = Files.createTempDirectory("brisk-find-perm");
        try {
            assertThat(run(dir, List.of("bash", "-c", setup), null).status).isZero();
            boolean root = new String(run(dir, List.of("id", "-u"), null).out, StandardCharsets.UTF_8).trim().equals("0");
            check.check(dir, root ? List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups") : List.of());
        } finally {
            run(dir.getParent(), List.of("bash", "-c", "chmod -R u+rwx \"$0\" && rm -rf \"$0\"", dir.toString()), null);
        }
    }

    @Test
    void aMissingRootIsReportedAndTheOthersWalked() throws Exception {
        Result ours = brisk(tree, List.of("find", "nope", "d1", "-name", "*.bin"), null);
        assertThat(ours.status).isEqualTo(1);
        assertThat(ours.errText()).contains("‘nope’: No such file or directory");
        assertThat(records(ours.out)).containsExactly("d1/big.bin", "d1/ten.bin");
    }

    @Test
    void badCommandLinesGiveOneLineAndStatus1() throws Exception {
        for (List<String> bad : List.of(List.of("-foo"), List.of("-name"), List.of("(", "-name", "a"),
                List.of("-size", "3x"), List.of("-mtime", "x"), List.of("-maxdepth", "-1"), List.of("-type", "q"),
                List.of("-exec", "echo", "{}"), List.of("-perm", "9"), List.of("-user", "no-such-user-here"),
                List.of("-newer", "no-such-file"), List.of("-newerat", "no-such-file"), List.of("-newermt", "bogus!"),
                List.of("-newerBt", "2020-01-01"), List.of("-printf", "%"), List.of("-o"), List.of("!"), List.of("(", ")"))) {
            Result ours = brisk(tree, concat(List.of("find", "."), bad), null);
            Result gnu = run(tree, concat(List.of("find", "."), bad), null);
            assertThat(ours.status).as("%s: %s", bad, ours.errText()).isEqualTo(gnu.status).isEqualTo(1);
            assertThat(ours.errText().lines().count()).as("%s: %s", bad, ours.errText()).isEqualTo(1);
            assertThat(ours.errText()).doesNotContain("Exception").startsWith("find: ");
            assertThat(ours.out).isEmpty();
        }
    }

    @Test
    void okAsksOnStderrAndReadsStdin() throws Exception {
        List<String> args = List.of("find", "d2", "-name", "a", "-ok", "printf", "ran:%s", "{}", ";");
        Result ours = brisk(tree, args, "y\n".getBytes(StandardCharsets.UTF_8));
        Result gnu = run(tree, args, "y\n".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(ours.out, StandardCharsets.UTF_8)).isEqualTo("ran:d2/a");
        // GNU's question names the command's first word and the path: < printf ... d2/a > ?
        assertThat(ours.errText()).isEqualTo(gnu.errText()).isEqualTo("< printf ... d2/a > ? ");
    }

    @Test
    void execPlusBatchesUnderTheArgumentLimit() throws Exception {
        Path many = tree.resolveSibling(tree.getFileName() + "-many");
        Files.createDirectories(many);
        try {
            String name = "x".repeat(200);
            for (int i = 0; i < 30000; i++) {
                Files.createFile(many.resolve(name + i));
            }
            Result ours = brisk(many, List.of("find", ".", "-type", "f", "-exec", "sh", "-c", "echo $#", "sh", "{}", "+"), null);
            assertThat(ours.status).isZero();
            List<String> counts = new String(ours.out, StandardCharsets.UTF_8).lines().toList();
            assertThat(counts.size()).isGreaterThan(1);
            assertThat(counts.stream().mapToInt(Integer::parseInt).sum()).isEqualTo(30000);
        } finally {
            run(many.getParent(), List.of("rm", "-rf", many.toString()), null);
        }
    }

    @Test
    void deepTreeWithFewDescriptors() throws Exception {
        Path deep = tree.resolveSibling(tree.getFileName() + "-deep");
        Files.createDirectories(deep);
        try {
            walkDeep(deep);
        } finally {
            run(deep.getParent(), List.of("rm", "-rf", deep.toString()), null);
        }
    }

    /**
     * 5,000 levels: a path of 10,000 bytes, past twice PATH_MAX, walked with 16 descriptors. Made
     * by one python3 that steps down with relative chdir (a shell's cd past PATH_MAX falls back
     * to getcwd's walk up the tree at every step: most of this test's time when it did).
     */
    private static void walkDeep(Path deep) throws Exception {
        Result made = run(deep, List.of("python3", "-c",
                "import os\nfor _ in range(5000):\n    os.mkdir('d'); os.chdir('d')\nopen('leaf', 'w').close()"), null);
        assertThat(made.status).as(made.errText()).isZero();
        List<String> fewFds = List.of("bash", "-c", "ulimit -n 16; exec \"$@\"", "sh");
        Result ours = brisk(deep, fewFds, List.of("find", ".", "-name", "leaf", "-printf", "%d\\n"), null);
        assertThat(ours.errText()).isEmpty();
        assertThat(new String(ours.out, StandardCharsets.UTF_8)).isEqualTo("5001\n");
        Result count = brisk(deep, fewFds, List.of("find", ".", "-depth", "-type", "d", "-printf", "x"), null);
        assertThat(count.out.length).isEqualTo(5001);
    }

    @Test
    void debugNamesTheEngine() throws Exception {
        Result ours = brisk(tree, List.of("find", "--debug", "-maxdepth", "0"), null);
        assertThat(ours.errText()).contains("engine native");
        Result portable = brisk(tree, List.of("find", "--debug", "--engine=portable", ".", "-name", "*.txt"), null);
        assertThat(portable.errText()).contains("engine portable");
        Result gnu = run(tree, List.of("find", ".", "-name", "*.txt"), null);
        assertThat(records(portable.out)).containsExactlyElementsOf(records(gnu.out));
    }

    @Test
    void aFileWithADeviceMountedOnItIsADevice(@TempDir Path scratch) throws Exception {
        Result can = run(scratch, List.of("unshare", "-m", "true"), null);
        org.junit.jupiter.api.Assumptions.assumeTrue(can.status == 0, "unshare -m is not permitted here");
        Files.createDirectories(scratch.resolve("x"));
        Files.writeString(scratch.resolve("x/file"), "");
        Files.writeString(scratch.resolve("x/null"), "");
        // the directory entry of x/null still says "regular file": GNU find 4.9 trusts it and
        // finds nothing; brisk stats the names of mount points, as bfs does
        List<String> inNamespace = List.of("unshare", "-m", "--propagation", "private", "sh", "-c",
                "mount --bind /dev/null x/null && exec \"$@\"", "sh");
        Result ours = brisk(scratch, inNamespace, List.of("find", "x", "-type", "c"), null);
        assertThat(ours.status).as(ours.errText()).isZero();
        assertThat(new String(ours.out, StandardCharsets.UTF_8)).isEqualTo("x/null\n");
        Result files = brisk(scratch, inNamespace, List.of("find", "x", "-type", "f"), null);
        assertThat(new String(files.out, StandardCharsets.UTF_8)).isEqualTo("x/file\n");
    }

    // --- helpers ---

    record Result(int status, byte[] out, byte[] err) {
        String errText() {
            return new String(err, StandardCharsets.UTF_8);
        }
    }

    static List<String> concat(List<String> a, List<String> b) {
        List<String> r = new ArrayList<>(a);
        r.addAll(b);
        return r;
    }

    /** The output split into records (on NUL if there is one, else on newline), sorted, as hex for exact comparison. */
    static List<String> records(byte[] out) {
        byte sep = '\n';
        for (byte b : out) {
            if (b == 0) {
                sep = 0;
                break;
            }
        }
        List<String> r = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == sep) {
                r.add(show(Arrays.copyOfRange(out, start, i)));
                start = i + 1;
            }
        }
        if (start < out.length) {
            r.add(show(Arrays.copyOfRange(out, start, out.length)));
        }
        r.sort(null);
        return r;
    }

    private static String show(byte[] b) {
        String s = new String(b, StandardCharsets.UTF_8);
        return s.indexOf('\uFFFD') >= 0 ? "hex:" + HexFormat.of().formatHex(b) : s;
    }

    static Result brisk(Path dir, List<String> args, byte[] stdin) throws Exception {
        return brisk(dir, List.of(), args, stdin);
    }

    /**
     * Runs the packaged brisk with {@code args}, behind {@code prefix} (a wrapper such as {@code
     * bash -c 'ulimit ...'}), through the entry point the {@code ./brisk} launcher uses for find
     * (MainIT covers {@code java -jar brisk.jar find}).
     */
    static Result brisk(Path dir, List<String> prefix, List<String> args, byte[] stdin) throws Exception {
        List<String> cmd = new ArrayList<>(prefix);
        // another user has no way into this user's server (its directory is 0700): a JVM of its own
        if (TestDaemon.enabled() && !prefix.contains("setpriv")) {
            cmd.addAll(TestDaemon.get().command());
            cmd.addAll(args);
            return run(dir, cmd, stdin);
        }
        cmd.addAll(FindJvm.command());
        if (!args.isEmpty() && args.get(0).equals("find")) {
            cmd.add("dev.brisk.cli.FindMain");
        } else {
            cmd.add("dev.brisk.cli.Main");
        }
        cmd.addAll(args);
        return run(dir, cmd, stdin);
    }

    static Result run(Path dir, List<String> cmd, byte[] stdin) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("LC_ALL", "C.UTF-8");
        pb.environment().put("TZ", "UTC");
        Process p = pb.start();
        try (var in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin);
            }
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread drain = Thread.ofPlatform().start(() -> copy(p.getErrorStream(), err));
        byte[] out = p.getInputStream().readAllBytes();
        drain.join();
        return new Result(p.waitFor(), out, err.toByteArray());
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try {
            in.transferTo(out);
        } catch (IOException ignored) {
            // the process is gone; what we have is what it said
        }
    }
}
