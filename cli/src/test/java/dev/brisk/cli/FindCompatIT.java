// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential tests of {@code brisk find} against GNU find for the POSIX corners of issue 11:
 * roots that look like expression words, glibc's fnmatch corners, chmod's symbolic modes over
 * every mode 0000-7777 on files and directories, symbolic link loops and {@code -H}/{@code -L}
 * on roots that are not directories, messages quoted as GNU quotes them (arguments byte for
 * byte), GNU's order and {@code -exec ... +} batches in a big directory, and expressions read as
 * GNU reads them. Each test but the last is one bash script that runs GNU find and brisk on each
 * case in {@code LC_ALL=C} and {@code C.UTF-8}, brisk both through the warm server and in a JVM
 * of its own (with {@code --threads=1}, so in GNU's order), and prints every case whose stdout
 * bytes, stderr text or exit status differ (as sorted lines where a test sets {@code SORTED};
 * {@code merged} compares {@code 2>&1}, the interleaving); the globs and modes are batched into
 * one invocation each (with {@code ,}). The expressions run in this process, hundreds of them
 * without a JVM start each. (The direct path is in this class's every run, so failsafe's direct
 * execution does not run it again.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FindCompatIT {
    /**
     * {@code same ARGS...}: runs find and each brisk in both locales and reports any difference.
     * Its first argument is how many words the server's command has (0: none), then both commands.
     */
    private static final String HARNESS = """
            set -u
            n=$1; shift
            S=("${@:1:$n}"); D=("${@:$((n + 1))}")
            T=$(mktemp -d)
            # brisk HOW ARGS...: brisk find through the warm server (srv) or in a JVM of its own (jvm)
            hows=(jvm); [ "$n" = 0 ] || hows=(srv jvm)
            brisk() {
              local how=$1; shift
              if [ "$how" = srv ]; then "${S[@]}" --threads=1 "$@"; else "${D[@]}" --threads=1 "$@"; fi
            }
            same() {
              for loc in C C.UTF-8; do
                LC_ALL=$loc find "$@" >"$T/go" 2>"$T/ge"; g=$?
                for how in "${hows[@]}"; do
                  LC_ALL=$loc brisk $how "$@" >"$T/bo" 2>"$T/be"; b=$?
                  if [ -n "${SORTED:-}" ]; then
                    for f in go ge bo be; do LC_ALL=C sort "$T/$f" -o "$T/$f"; done
                  fi
                  if [ $g != $b ] || ! cmp -s "$T/go" "$T/bo" || ! cmp -s "$T/ge" "$T/be"; then
                    echo "DIFF [$loc $how] find $* (status $g vs $b)"
                    diff -a "$T/go" "$T/bo" | head -8; diff -a "$T/ge" "$T/be" | head -8
                  fi
                done
              done
            }
            # merged ARGS...: the same with stdout and stderr in one file, as `find ... 2>&1` shows them
            merged() {
              for loc in C C.UTF-8; do
                LC_ALL=$loc find "$@" >"$T/go" 2>&1; g=$?
                for how in "${hows[@]}"; do
                  LC_ALL=$loc brisk $how "$@" >"$T/bo" 2>&1; b=$?
                  if [ $g != $b ] || ! cmp -s "$T/go" "$T/bo"; then
                    echo "DIFF [$loc $how] find $* 2>&1 (status $g vs $b)"; diff -a "$T/go" "$T/bo" | head -8
                  fi
                done
              done
            }
            """;

    @TempDir
    Path dir;

    @Test
    void rootsThatLookLikeExpressionWords() throws Exception {
        assertSame("""
                mkdir -- - '(-' '!-' , ')' '(' '!' ; touch ./-/x
                SORTED=1 # the order of a sequential walk is FindIT's business
                same - '(-' '!-' , ')' './(' './!' '(' '!' -print -o -print ')'
                same -L - '(-' '!-' , ')' './(' './!' '(' '!' -print -o -print ')'
                same ')' , -print
                same . -name x -
                same . -follow .
                same . -print foo
                same . -name a -o ./-
                same . '('
                same . '!'
                same . -print '!'
                same . '(' '!'
                same . '!' ')'
                same . -print -o '!'
                same . -print -- foo
                same -- - , -print
                same -L -- '(-' -print
                """);
    }

    @Test
    void globsAsGlibcFnmatch() throws Exception {
        Path globs = resource("globs.txt");
        assertSame("""
                mkdir n; cd n
                python3 - <<'EOF'
                names = {bytes([b]) for b in range(1, 256) if b not in (0x2e, 0x2f)}
                for s in ['é', 'à', 'ÿ', 'Ä', 'ß', '€', '😀', 'É', 'ä', 'Σ', 'ς', 'ž', 'Ā', 'ab', 'a\\\\', '\\\\', '[a', ']a', 'a]', '..a', '.x',
                          'x.y', 'aé', 'éa', 'Ab', 'ABC', 'abc', '-a', '!a', '^a', '[]', 'a-c', 'a[b', '*', '?', '**']:
                    names.add(s.encode())
                names |= {b'\\xc3', b'\\xc3\\xa9\\xff', b'\\xe2\\x82', b'\\xff\\xfe', b'a\\xe9b'}
                for n in names:
                    open(n, 'wb').close()
                EOF
                args=(); i=0
                while IFS= read -r p; do
                  args+=( -name "$p" -printf "n$i %%f\\n" , -iname "$p" -printf "i$i %%f\\n" , -path "./$p" -printf "p$i %%p\\n" , )
                  i=$((i+1))
                done < "%s"
                same . -mindepth 1 "${args[@]}" -false
                same . -maxdepth 0 -warn -name a/b -o -iname 'x/' -o -name / -o -nowarn -name 'c/'
                same / -maxdepth 0 -name / -warn -name '/'
                """.formatted(globs));
    }

    @Test
    void symbolicModesAsChmodOverEveryMode() throws Exception {
        Path modes = resource("modes.txt");
        assertSame("""
                umask 000 # where a clause names no class POSIX applies the umask and GNU find does not (FindPeersIT)
                mkdir t; cd t
                python3 -c '
                import os
                for m in range(4096):
                    n = "f%%04o" %% m; open(n, "w").close(); os.chmod(n, m)
                    d = "d%%04o" %% m; os.mkdir(d); os.chmod(d, m)
                '
                args=(); i=0
                while IFS= read -r m; do
                  for pre in '' - /; do args+=( -perm "$pre$m" -printf "$pre$i %%f\\n" , ); done
                  i=$((i+1))
                done < "%s"
                same . -mindepth 1 "${args[@]}" -false
                for m in +0 +1000 X u+z 'a+r,,u+w' 'u+r,' ugoa u=0 17777 '' - / + +u --w -+w /+w 'u+g,+' 'a=rwx,' 00644 '+r'; do
                  same . -maxdepth 0 -perm "$m"
                done
                """.formatted(modes));
    }

    @Test
    void linkLoopsAndLinkRoots() throws Exception {
        assertSame("""
                touch file; ln -s file lf; ln -s nowhere dang; ln -s self self; ln -s b a; ln -s a b; ln -s . dot
                mkdir -p sub/deep; ln -s .. sub/deep/up; touch sub/f
                SORTED=1
                for o in -L -follow -H -P; do
                  same $o .
                  same $o . -type l
                  same $o . -printf '%y %Y %p\\n'
                done
                same -L . -xtype l
                same . -xtype l
                same . -xtype f -o -xtype d
                same -follow . -xtype f
                same . -follow -type l
                for o in -H -L '-H -L' '-L -H' '-L -P' '-P -L' '-H -P' '-P -H'; do
                  same $o lf dang self a file -maxdepth 0 -printf '%y %Y %p %l\\n'
                  same $o lf dang file dot -maxdepth 0 -xtype l
                  same $o lf dang file sub -type f
                done
                unset SORTED
                mkdir -p a2/b/c; ln -s ../.. a2/b/c/up; ln -s nowhere a2/dang; ln -s self2 a2/b/self2
                merged -L a2/b/c
                merged -L a2 -depth -printf '%y%Y %p\\n'
                merged . -print -xtype l
                """);
    }

    @Test
    void messagesQuotedAsGnuFind() throws Exception {
        assertSame("""
                same "it's" 'back\\slash' "$(printf 'nl\\nx')" "$(printf 'tab\\tx')" "$(printf 'ff\\377x')" 'é' 'q’x' \\
                  "$(printf 'bel\\a \\033 \\177 x')" 'sp ace' '"dq"' '$d' "$(printf '\\303')" '😀'
                same . -user nobody-here
                same . -group nobody-here
                same . -perm xyz
                same . -newer "it's"
                same . -samefile 'é'
                same . -maxdepth x
                same . -regextype foo
                same . -fprint /nonexistent/x
                same -files0-from /nonexistent
                same . -newermt garbage
                mkdir locked; touch locked/f; chmod 0 locked
                same . -type f
                merged .
                a=$(printf 'bad\\377\\376')
                same . -name x "$a"
                same . -user "$a"
                same . -size "1$a"
                same . -type "é"
                same . -maxdepth 0 -exec "$a" {} +
                same . -maxdepth 0 -exec "$(printf 'nl\\nx')" {} +
                """);
    }

    /**
     * A directory of 20,000 entries (more than fts's 10,000) comes out of a sequential walk in GNU
     * find's order, which gnulib's fts sorts by inode number on this kind of file system, so
     * {@code -quit} and {@code -exec} see the same first file.
     */
    @Test
    void bigDirectoryInGnuFindsOrder() throws Exception {
        assertSame("""
                mkdir big; cd big
                python3 -c 'for i in range(20000): open("f%05d" % i, "w").close()'
                rm f0*7; mkdir sub; touch sub/x f00007 f00017; cd ..
                same big
                same big -type f
                same big -print -quit
                same big -name 'f1*' -print -quit
                same big -name 'f*5' -exec printf '%s\\n' {} +
                same big -depth -name 'f0*'
                same big -exec echo {} +
                """);
    }

    /**
     * Expressions good and bad, read as GNU find 4.9 reads them (its list of words, its implicit
     * {@code -a}, its tree builder and messages, {@code -quit} that ends everything at once):
     * 400 random expressions from a fixed seed and the corners below, each run by GNU find and
     * by brisk's library in this process ({@link dev.brisk.find.Find#run}, what {@code brisk find}
     * calls; no JVM start per case), in this test's locale, comparing stdout bytes, stderr text
     * and exit status. Commands are never run here (their output would bypass the capture).
     */
    @Test
    void expressionsAsGnuFindReadsThem() throws Exception {
        Files.createDirectories(dir.resolve("s"));
        Files.createFile(dir.resolve("s/f"));
        String root = dir.toString();
        List<List<String>> cases = new ArrayList<>();
        for (String e : List.of("-quit", "-print -quit", "-quit -o -print", "( -quit , -print )", "-maxdepth 0 -o -print",
                "-print -a", "-print -o", "-print ,", "-print !", "( -print", "-print )", "( )", "-print ( ! )", "-a", "!",
                "-name f -o", "-not -not", "( ( -print ) ) )", "-print ) -name", "-print -foo", "-type", "-type ''",
                "-type ff", "-type f,", "-type ,f", "-type f,f", "-type D", "-xtype x", "-type f,,d", "-exec ;",
                "-exec", "-exec +", "-exec x", "-ok ;", "-execdir ;", "-exec x {} {} +", "-execdir x {} {} +",
                "-exec x {}x +", "-execdir x y{} +", "-ok x {} +", "-size 1q", "-size ''", "-size +", "-size k", "-size 1.5",
                "-links x", "-links 18446744073709551615", "-links 18446744073709551616", "-inum +-1", "-uid -+1",
                "-used x", "-used +1e3", "-mtime x", "-mtime -inf", "-mtime +-1", "-mmin 0x1p3", "-mmin 1e999", "-amin .5",
                "-mmin 0", "-mmin 1", "-mmin +0", "-mtime 0", "-mtime -1", "-mtime 1", "-daystart -mtime 0", "-cmin -1.5", "-perm u+q", "-maxdepth x", "-maxdepth 2147483648", "-mindepth 9223372036854775807",
                "-maxdepth 00", "-maxdepth 0002147483647 -print", "-maxdepth 0009223372036854775807", "-maxdepth 99999999999999999999",
                "-maxdepth ''", "-maxdepth +1", "-mindepth 01 -print", "-mmin 007", "-mtime 123456789012345678", "-mmin 1234567890123456789",
                "-size 0010",
                "-regextype foo", "-warn -true -d", "-warn ( -depth )", "-warn -print -nowarn -maxdepth 1",
                "-warn -daystart -follow -xdev", "-warn -name f/g")) {
            List<String> words = new ArrayList<>(List.of(root));
            for (String w : e.split(" ")) {
                words.add(w.equals("''") ? "" : w);
            }
            cases.add(words);
        }
        for (String e : List.of("-O", "-Ox", "-O9", "-D", "-D ''", "-D ,", "-D help", "-D foo", "-D exec", "--",
                "-- --", "-L -- -H", "-P -H -L -O3 --")) {
            List<String> words = new ArrayList<>();
            for (String w : e.split(" ")) {
                words.add(w.equals("''") ? "" : w);
            }
            words.add(root);
            words.add("-maxdepth");
            words.add("0");
            cases.add(words);
        }
        String[] tokens = {"(", ")", "!", "-not", "-a", "-and", "-o", "-or", ",", "-true", "-false", "-print", "-name", "f",
            "-maxdepth", "0", "-mindepth", "1", "-depth", "-foo", "-prune", "-quit", "x", "-type", "d,f", "-xtype", "-printf",
            "%p", "-follow", "-print0", "-perm", "+w", "-newer", "-size", "-1k", "-noleaf", "-warn"};
        java.util.Random random = new java.util.Random(11);
        for (int i = 0; i < 400; i++) {
            List<String> words = new ArrayList<>(List.of(root));
            for (int n = 1 + random.nextInt(6); n > 0; n--) {
                words.add(tokens[random.nextInt(tokens.length)]);
            }
            cases.add(words);
        }
        // the locale this JVM (and the find run in it) takes from the environment, given to GNU find
        String locale = dev.brisk.internal.posix.Environ.utf8Locale() ? "C.UTF-8" : "C";
        List<String> differences = new ArrayList<>();
        for (List<String> words : cases) {
            ProcessBuilder pb = new ProcessBuilder(FindIT.concat(List.of("find"), words)).directory(dir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("LC_ALL", locale);
            Process gnu = pb.start();
            java.util.concurrent.CompletableFuture<byte[]> gnuErr = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return gnu.getErrorStream().readAllBytes();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            byte[] gnuOut = gnu.getInputStream().readAllBytes();
            int gnuStatus = gnu.waitFor();
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
            List<byte[]> args = new ArrayList<>(List.of("--threads=1".getBytes(StandardCharsets.UTF_8)));
            words.forEach(w -> args.add(w.getBytes(StandardCharsets.UTF_8)));
            java.io.PrintStream errStream = new java.io.PrintStream(err, true, StandardCharsets.UTF_8);
            int status = dev.brisk.find.Find.run(args, out, errStream);
            errStream.flush();
            String gnuErrText = new String(gnuErr.get(), StandardCharsets.UTF_8);
            if (status != gnuStatus || !gnuErrText.equals(err.toString(StandardCharsets.UTF_8))
                    || !java.util.Arrays.equals(gnuOut, out.toByteArray())) {
                differences.add("find " + String.join(" ", words.subList(1, words.size())) + "\n  GNU (" + gnuStatus + "): "
                        + gnuErrText.strip() + "\n  brisk (" + status + "): " + err.toString(StandardCharsets.UTF_8).strip());
            }
        }
        assertThat(differences).isEmpty();
        // where GNU find 4.9 aborts on an assertion (status 134), brisk refuses the number
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
        int status = dev.brisk.find.Find.run(List.of(root.getBytes(StandardCharsets.UTF_8), "-mmin".getBytes(StandardCharsets.UTF_8),
                "nan".getBytes(StandardCharsets.UTF_8)), out, new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("find: invalid argument `nan' to `-mmin'\n");
        assertThat(status).isOne();
    }

    private Path resource(String name) throws Exception {
        return Path.of(FindCompatIT.class.getResource("/find-compat/" + name).toURI());
    }

    /**
     * Runs the harness and {@code cases} in a fresh directory, brisk through the warm server
     * (unless the tests go without it) and in a JVM of its own; no case may differ.
     */
    private void assertSame(String cases) throws Exception {
        List<String> server = new ArrayList<>();
        if (TestDaemon.enabled()) {
            server.addAll(TestDaemon.get().command());
            server.add("find");
        }
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", HARNESS + cases, "bash", String.valueOf(server.size())));
        cmd.addAll(server);
        cmd.addAll(FindJvm.command());
        cmd.addAll(List.of("dev.brisk.cli.FindMain", "find"));
        FindIT.Result r = FindIT.run(dir, cmd, null);
        FindIT.run(dir, List.of("chmod", "-R", "u+rwx", "."), null);
        assertThat(new String(r.out(), StandardCharsets.UTF_8)).as(r.errText()).isEmpty();
        assertThat(r.status()).as(r.errText()).isZero();
    }
}
