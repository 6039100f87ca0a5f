// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential tests of {@code brisk find} for issue 35's corners, found by the peers' own test
 * suites (bfs's POSIX and GNU-extension groups): write errors, {@code -fprint} files that share
 * a stream, {@code -regextype}, {@code -execdir}'s PATH check, {@code -L} loops, links through
 * a non-directory, {@code -exec}'s parsing and failures, combined {@code -HL} flags. Each test is
 * one bash script; {@code same ARGS} runs GNU find and brisk, through the warm server and in a
 * JVM of its own, in {@code LC_ALL=C} and {@code C.UTF-8}, and prints every case whose stdout
 * bytes (sorted lines: the walk may be parallel), stderr text or exit status differ;
 * {@code full ARGS} does the same with standard output on {@code /dev/full}; {@code expect}
 * checks a case against a literal answer where POSIX (and bfs) part from GNU find.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FindPeersIT {
    /** The harness: its first argument is how many words the server's command has, then both commands. */
    private static final String HARNESS = """
            set -u
            n=$1; shift
            S=("${@:1:$n}"); D=("${@:$((n + 1))}")
            T=$(mktemp -d)
            # run TAG OUT ARGS...: one tool's run, stdout to OUT ("" for a file of its own)
            run() {
              local tag=$1 out=$2; shift 2
              local cmd
              case $tag in gnu) cmd=(find);; srv) cmd=("${S[@]}");; jvm) cmd=("${D[@]}");; esac
              local argv0=${cmd[0]}
              cmd[0]=$(command -v "${cmd[0]}")
              [ -n "$out" ] || out=$T/o$tag
              # CPATH: the PATH the tools run with (GNU find named "find" in its messages whatever it is)
              (if [ -n "${CPATH+x}" ]; then PATH=$CPATH; fi; exec -a "$argv0" "${cmd[@]}" "$@") >"$out" 2>"$T/e$tag"
              echo $? >"$T/s$tag"
              [ "$out" != "$T/o$tag" ] || LC_ALL=C sort "$T/o$tag" -o "$T/o$tag"
              [ -n "${SORTED:-}" ] && LC_ALL=C sort "$T/e$tag" -o "$T/e$tag"
              return 0
            }
            compare() {
              local what=$1; shift
              for t in srv jvm; do
                if ! cmp -s "$T/sgnu" "$T/s$t" || ! cmp -s "$T/egnu" "$T/e$t" || ! cmp -s "$T/ognu" "$T/o$t"; then
                  echo "DIFF [$loc $t] $what (status $(cat "$T/sgnu") vs $(cat "$T/s$t"))"
                  diff -a "$T/ognu" "$T/o$t" | head -6; diff -a "$T/egnu" "$T/e$t" | head -6
                fi
              done
            }
            same() {
              for loc in ${LOCALES:-C C.UTF-8}; do
                export LC_ALL=$loc
                for t in gnu srv jvm; do run $t "" "$@"; done
                compare "find $*" "$@"
              done
            }
            full() {
              for loc in C C.UTF-8; do
                export LC_ALL=$loc
                for t in gnu srv jvm; do run $t /dev/full "$@"; : >"$T/o$t"; done
                compare "find $* >/dev/full" "$@"
              done
            }
            # like GNUWORD BRISKWORD ARGS...: brisk with BRISKWORD first does what GNU find does with GNUWORD first
            like() {
              local g=$1 b=$2; shift 2
              for loc in C C.UTF-8; do
                export LC_ALL=$loc
                run gnu "" "$g" "$@"; run srv "" "$b" "$@"; run jvm "" "$b" "$@"
                compare "find $b $* (as find $g)"
              done
            }
            # expect STATUS STDOUT STDERR ARGS...: brisk (both ways, C.UTF-8) gives exactly these (stdout sorted)
            expect() {
              local status=$1 out=$2 err=$3; shift 3
              export LC_ALL=C.UTF-8
              for t in srv jvm; do
                run $t "" "$@"
                if [ "$(cat "$T/s$t")" != "$status" ] || [ "$(cat "$T/o$t")" != "$out" ] || [ "$(cat "$T/e$t")" != "$err" ]; then
                  echo "UNEXPECTED [$t] find $* (status $(cat "$T/s$t"), wanted $status)"
                  echo "stdout: $(cat "$T/o$t")"; echo "stderr: $(cat "$T/e$t")"
                fi
              done
            }
            """;

    @TempDir
    Path dir;

    /**
     * A write that fails is GNU's message and status 1, never 141 or silence: standard output
     * on a full device (the last flush named, then gnulib's {@code write error}), a flush before
     * {@code -exec} that fails, an {@code -fprint} file that fails (the first such ends find),
     * a closed standard output, {@code --help} and {@code -D help}; {@code /dev/stdout} and
     * {@code /dev/stderr} are the standard streams. A closed pipe still ends find as SIGPIPE does.
     */
    @Test
    void writeErrorsAsGnuFindReportsThem() throws Exception {
        assertSame("""
                mkdir -p t/a/b; touch t/a/f t/a/b/g t/x
                mkdir big; (cd big && for i in $(seq 1 2000); do : >"file_with_a_longish_name_$i"; done)
                ln -s /dev/full fl
                for e in '' -print0 "-printf %p\\n" "-print0 -exec true ;" "-exec true ; -print" "-print -exec true {} +" \\
                         "-print -fprint /dev/full" "-fprint /dev/stdout" "-print -quit" "-maxdepth 0 -print"; do
                  full t $e
                done
                full big
                full big -print0
                full big -depth
                full --help
                full -D help
                same t -fprint /dev/full
                same t -maxdepth 0 -fprint /dev/full
                same big -fprint /dev/full -fprint0 /dev/full
                same t -fprint fl -fprintf /dev/full '%p\\n'
                same t -false -fprint /dev/full
                same t -print -fprint /dev/stdout
                SORTED=1 same t -fprint /dev/stderr
                export LC_ALL=C.UTF-8
                for t in gnu srv jvm; do
                  case $t in gnu) c=(find);; srv) c=("${S[@]}");; jvm) c=("${D[@]}");; esac
                  # far more than a pipe holds, so that a write is still to come when head has gone
                  "${c[@]}" big big big big big big big big big big | head -1 >/dev/null; s=${PIPESTATUS[0]}
                  [ "$s" = 141 ] || echo "[$t] find big | head -1: status $s, not 141"
                  "${c[@]}" big -print0 -exec true \\; | head -c 10 >/dev/null; s=${PIPESTATUS[0]}
                  [ "$s" = 141 ] || echo "[$t] find big -print0 -exec true | head: status $s, not 141"
                done
                # a closed standard output (the server's client sends /dev/null in its place: direct only)
                find t >&- 2>"$T/g"; g=$?; "${D[@]}" t >&- 2>"$T/b"; b=$?
                [ $g = $b ] && cmp -s "$T/g" "$T/b" || { echo "DIFF find t >&- ($g vs $b)"; diff "$T/g" "$T/b"; }
                """);
    }

    /**
     * POSIX's find where GNU find 4.9 parts from it (bfs's POSIX group): {@code -HL} and
     * {@code -LH} as getopt groups them, the last one winning; under {@code -H}/{@code -L} a link
     * through a non-directory ({@code notdir -> file/}, ENOTDIR) is the broken link it is, with
     * no error; {@code -exec} of a program that cannot run is a message and status 1, the walk
     * goes on; only a {@code +} right after a word that is exactly {@code {}} ends
     * {@code -exec ... +}; {@code -perm -+w} takes the umask (Austin Group bug 1392).
     */
    @Test
    void posixWhereGnuFindDiffers() throws Exception {
        assertSame("""
                mkdir -p links/deeply/nested/dir; touch links/file links/deeply/nested/file
                ln -s file links/symlink; ln -s nowhere links/broken; ln -s deeply/nested links/skip; ln -s ../file links/deeply/link
                # -HL is -L, -LH is -H, -HLP is -P
                like -L -HL links
                like -H -LH links/skip links
                like -P -HLP links/skip
                like -L -PHL links -printf '%p %y %Y %l\\n'
                like -L -LLH -maxdepth 0 links/skip # -H: the root is followed
                same -HLx links
                ln -s symlink/file links/notdir; ln -s file/ links/nd2
                # a link through a file is a broken link: listed, no error (GNU: "Not a directory", status 1)
                expect 0 "links/notdir" "" -H links/notdir
                expect 0 "links/notdir" "" -L links/notdir -depth
                expect 0 "links/notdir l N" "" -L links/notdir -printf '%p %y %Y\\n'
                expect 0 "links/nd2
                links/notdir" "" -L links -depth -name 'n[do]*'
                expect 0 "links/nd2 l N
                links/notdir l N" "" -L links -name 'n[do]*' -printf '%p %y %Y\\n'
                expect 0 "links/broken
                links/nd2
                links/notdir" "" -L links -type l
                # a command that cannot run: GNU's message, the walk goes on, status 1 (GNU: 0)
                mkdir -p e/sub; touch e/f
                expect 1 "e
                e/f
                e/sub" "find: ‘./nonexistent’: No such file or directory
                find: ‘./nonexistent’: No such file or directory
                find: ‘./nonexistent’: No such file or directory" e -print -exec ./nonexistent {} \\; -print
                expect 1 "" "find: ‘/etc/passwd’: Permission denied" e -maxdepth 0 -exec /etc/passwd \\;
                same e -exec ./nonexistent {} +
                # only a + right after {} ends -exec ... + (GNU: "Only one instance of {} ...")
                expect 0 "e/f e/f+ +e/f +" "" e/f -exec printf '%s %s %s %s\\n' {} {}+ +{} + \\;
                expect 0 "+ e e/f e/sub" "" e -exec echo + {} +
                expect 0 "ae/f + e/f" "" e/f -exec echo a{} + {} \\;
                same e/f -exec echo a{} +
                same e/f -exec echo {} {} +
                same e/f -exec echo {} {}x +
                same e/f -execdir echo {} +
                # -perm MODE with no class takes the umask (GNU: never); GNU's /MODE does not
                mkdir pm; for m in 000 200 220 222 644 664 666 777 020 002 755 4755 2775; do touch pm/f$m; chmod $m pm/f$m; done
                umask 002
                expect 0 "pm/f220
                pm/f222
                pm/f2775
                pm/f664
                pm/f666
                pm/f777" "" pm -perm -+w
                expect 0 "pm/f220" "" pm -perm +w
                expect 0 "pm/f220
                pm/f222
                pm/f2775
                pm/f664
                pm/f666
                pm/f777" "" pm -perm -=w
                umask 022
                expect 0 "pm/f4755" "" pm -perm -u+s,+x # set-id bits are no permission bits: no umask for them
                same pm -perm /+w
                same pm -perm -u+w,g+w
                umask 000
                for m in -+w +w -=w =w -+r,+x -a+w /+w -+s; do same pm -perm $m; done
                """);
    }

    /**
     * GNU find 4.9's extensions as it does them: {@code -fprint} names of one file (the same
     * name, a hard link, a symbolic link) share one stream; {@code -execdir} and {@code -okdir}
     * refuse a PATH with {@code .}, an empty or a relative entry, with GNU's message; {@code
     * -execdir} from {@code /} runs in {@code /}; {@code -execdir}'s children get the caller's
     * limits; {@code -L} reports each loop (naming the ancestor) and goes on, also under
     * {@code -ignore_readdir_race}; {@code %y %Y} on loops and broken links.
     */
    @Test
    void gnuExtensionsAsGnuFindDoesThem() throws Exception {
        assertSame("""
                mkdir -p t/a/b; touch t/a/f t/a/b/g t/x
                for t in gnu srv jvm; do
                  case $t in gnu) c=(find);; srv) c=("${S[@]}");; jvm) c=("${D[@]}");; esac
                  : >out.$t; ln out.$t hard.$t; ln -s out.$t soft.$t
                  "${c[@]}" t -fprint out.$t -fprint hard.$t -fprint soft.$t -fprint0 out.$t; echo $? >>status.$t
                done
                for t in srv jvm; do
                  cmp -s <(tr '\\0' '\\n' <out.gnu | sort) <(tr '\\0' '\\n' <out.$t | sort) || echo "DIFF [$t] -fprint of one file: $(tr '\\0' @ <out.$t)"
                  cmp -s status.gnu status.$t || echo "DIFF [$t] -fprint of one file: status"
                done
                for p in .:/usr/bin:/bin :/usr/bin:/bin /usr/bin::/bin /usr/bin:/bin: rel:/usr/bin:/bin /bin:./x:/usr/bin "" \
                         /usr/bin:/bin; do
                  CPATH=$p same t/x -execdir /bin/echo {} \\;
                  CPATH=$p same t/x -okdir /bin/echo {} \\;
                  CPATH=$p same t/x -exec /bin/echo {} \\;
                done
                CPATH=rel:/bin same t -execdir
                same / -maxdepth 0 -execdir pwd \\;
                same / -maxdepth 0 -execdir sh -c 'pwd; echo "$@"' sh {} +
                same /etc -maxdepth 0 -execdir sh -c 'pwd; echo "$@"' sh {} \\;
                (ulimit -Sn 200; ulimit -Sc 0; same t/x -execdir sh -c 'ulimit -n; ulimit -c' \\; ; same t/x -exec sh -c 'ulimit -n' {} +)
                mkdir -p loops/deeply/nested; ln -s . loops/loop; ln -s ../../deeply loops/deeply/nested/loop; ln -s self loops/self
                ln -s b loops/a; ln -s a loops/b; ln -s nowhere loops/broken; touch loops/file
                export SORTED=1
                same -L loops
                same -L loops -ignore_readdir_race
                same -L loops -depth -printf '%p %y %Y\\n'
                same loops -follow -printf '%p %y %Y %l\\n'
                same loops -printf '%p %y %Y %l\\n'
                same -H loops/self loops/broken loops/loop -printf '%p %y %Y\\n'
                same -L loops/deeply -printf '%y %Y %p\\n'
                """);
    }

    /**
     * Corners of bfs's GNU group: {@code %h} and {@code %f} of roots made of slashes, or ending in
     * them, cut as GNU find 4.9 cuts them ({@code ///} is {@code (//)/(/)}); {@code -execdir} in a
     * directory whose path is longer than PATH_MAX runs the command there, with the caller's
     * {@code ulimit -n}, as GNU's does.
     */
    @Test
    void slashesAndPathsLongerThanPathMaxAsGnuFindDoesThem() throws Exception {
        assertSame("""
                mkdir -p t/a; touch t/a/f
                for r in / // /// ///usr //usr/ /usr// . ./ .// t t/ t// t/a/ ./t//a// "$PWD//t/"; do
                  same "$r" -maxdepth 0 -printf '(%h)/(%f) (%H) (%P)\\n'
                done
                same t// -printf '(%h)/(%f)\\n'
                seg=$(printf '%0255d' 0); q=$seg/$seg/$seg/$seg
                (mkdir deep && cd deep && for i in 1 2 3 4 5; do mkdir -p "$q" && cd "$q" || exit 1; done && : >file)
                (ulimit -Sn 16; same deep -type f -execdir bash -c 'printf "%d %s %d\\n" "$(ulimit -Sn)" "$1" "$(ls | wc -l)"' bash {} \\;)
                same deep -name file -execdir sh -c 'echo "$@"; ls' sh {} +
                rm -rf deep # JUnit's @TempDir cannot delete paths past PATH_MAX
                """);
    }

    /**
     * {@code -regextype} as GNU find 4.9 reads each type (glibc's regex under the type's syntax
     * bits): every type over names full of the characters the syntaxes treat differently, each
     * expression matched whole; the expressions GNU refuses, refused with glibc's message.
     */
    @Test
    void regexTypesAsGlibcReadsThem() throws Exception {
        assertSame("""
                export LOCALES=C.UTF-8 # ASCII names and glibc's messages: the locale changes nothing here
                mkdir rx; cd rx
                for n in a1 ab 'a]' 'a:' aa aaa 'x(' 'x)' '(' ')' 'x|y' 'x{1}' 'x+' 'x?' 'x*' 'x.y' 'xay' '[x' 'x\\y' 'a^b' 'a$b' \
                         foo_bar 'foo bar' A1 AB 'a-b' '2024' '-' 'a{' '{1}' '*a' 'x{,2}'; do : >"$n"; done
                cd ..
                res=('.*[[:alpha:]]' '.*/a[[:digit:]]' '.*/x\\(' '.*/x(' '.*/x\\{1\\}' '.*/x{1}' '.*/x+' '.*/x\\+' '.*/a\\{2\\}'
                     '.*/a{2}' '.*/x\\|y' '.*/x|y' '.*/a^b' '.*/a$b' '.*/\\w+ \\w+' '.*/a\\>' '.*/[^a]1' '.*/x\\\\y' '.*/[\\]x'
                     '.*/[]a]*' '.*/a+' '.*/a\\?b' '.*/\\(a\\)\\1' '\\./\\((\\)' 'rx/\\((\\)' 'rx/[0-9]\\{4\\}' 'rx/[0-9]{4}'
                     'rx/\\(x\\|a\\)*' 'rx/(x|a)*' '^rx/a*$' 'rx/a$' 'rx/^a' 'rx/\\<a' 'rx/\\`a' "rx/a\\'" 'rx/[[:upper:]]*'
                     'rx/[a-]*' 'rx/[[.-.]]' 'rx/[[=a=]]b' 'rx/x{,2}' 'rx/x\\{,2\\}' 'rx/a{' 'rx/a\\{' 'rx/{1}' 'rx/\\{1\\}'
                     'rx/*a' 'rx/a**' 'rx/\\(*a\\)' 'rx/(*a)' 'rx/x\\.y' 'rx/x.y' 'rx/\\W*' 'rx/\\s*' 'rx/[\\w]*' 'rx/a\\b'
                     'rx/[z-a]*' 'rx/a\\' 'rx/[a' 'rx/\\)' 'rx/)' 'rx/\\1' 'rx/[[:nope:]]' 'rx/a\\{2,1\\}' 'rx/a{2,1}' 'rx/[[.ab.]]')
                for t in findutils-default emacs posix-basic posix-extended grep egrep ed sed awk gnu-awk posix-awk \
                         posix-minimal-basic; do
                  ok=(); i=0
                  for re in "${res[@]}"; do
                    if find rx -maxdepth 0 -regextype $t -regex "$re" >/dev/null 2>&1; then
                      ok+=( -regex "$re" -printf "r$i %p\\n" , )
                      # glibc folds an escaped letter that is no operator in ways of its own (posix-awk's \\b): left out
                      [[ $re =~ \\\\[A-Za-z] ]] || ok+=( -iregex "$re" -printf "i$i %p\\n" , )
                    elif [[ $t != @(findutils-default|ed|sed|posix-egrep|gnu-awk|posix-awk) ]]; then
                      # refused (syntaxes the same as another's aside)
                      same rx -maxdepth 0 -regextype $t -regex "$re"
                    fi
                    i=$((i + 1))
                  done
                  same rx -regextype $t "${ok[@]}" -false
                done
                same rx -regextype extended -regex a
                same rx -regextype ''
                """);
    }

    /** Runs the harness and {@code cases} in a fresh directory; nothing may differ. */
    private void assertSame(String cases) throws Exception {
        List<String> server = new ArrayList<>(TestDaemon.get().command());
        server.add("find");
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
