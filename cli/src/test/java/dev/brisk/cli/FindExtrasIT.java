// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static dev.brisk.cli.FindIT.brisk;
import static dev.brisk.cli.FindIT.concat;
import static dev.brisk.cli.FindIT.records;
import static dev.brisk.cli.FindIT.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.cli.FindIT.Result;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential tests against GNU find for the less used primaries and directives: {@code -used},
 * {@code -context}, the {@code -printf} directives {@code %D %F %S %Z}, every strftime letter,
 * C printf flags, width and precision, GNU's warnings, {@code -ls} on a file with an ACL, and the
 * date forms of {@code -newerXt}. Same sorted records byte for byte, same exit status, and the
 * same messages (GNU's curly quotes made ASCII, as brisk writes them).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FindExtrasIT {
    /**
     * Files whose last access is N days and 10 seconds before or after their last status change
     * (touch -a sets the access time and makes the change time now), a sparse file, an empty
     * one, a file with blocks and an ACL (when setfacl is here).
     */
    static final String FIXTURE = """
            set -e
            now=$(date +%s)
            for n in -2 -1 0 1 2 3; do for e in -10 10; do
              f="used${n}d${e}s"; : > "$f"; touch -a -d "@$((now + 5 + n * 86400 + e))" "$f"
            done; done
            : > fresh; truncate -s 1M sparse; head -c 10000 /dev/zero > dense; printf x > one; : > empty
            mkdir dir; ln -s one link; ln -s nowhere dangling; mkfifo pipe
            touch -d '2024-01-15 10:30:00' jan15; touch -d '2024-01-15 10:29:59' jan15early
            touch -d '2023-12-31 23:59:59' newyear; touch -d '2024-03-01 00:00:01' march
            touch -d '1 day ago' daybefore; touch -d '3 days ago' days3; touch -d '2 hours ago' hours2
            touch -d 'yesterday 12:00' yesterdaynoon
            printf a > acl-file; if command -v setfacl >/dev/null; then setfacl -m u:nobody:r acl-file; fi
            """;

    @TempDir
    static Path tree;

    @BeforeAll
    static void build() throws Exception {
        Result r = run(tree, List.of("bash", "-c", FIXTURE), null);
        assertThat(r.status()).as(r.errText()).isZero();
        // the first read of a new directory moves its access time (relatime); do it now, so that
        // GNU find's run and brisk's, one after the other, see the same times
        assertThat(run(tree, List.of("find", "."), null).status()).isZero();
    }

    static Stream<String> expressions() {
        List<String> e = new ArrayList<>(List.of(
                "-used 0", "-used 1", "-used 2", "-used 3", "-used +0", "-used +1", "-used +2", "-used -0", "-used -1",
                "-used -2", "-used -3", "-used 0.5", "-used +0.5", "-used -1.5", "-used 1.5", "-used +-1", "-used -+1",
                "-used 1e0", "! -used -1",
                "-printf %p|%D|%F|%S\\n", "-printf %p|%10.3S|%-8S|%#S|%+S|%010S|% .2S|%e\\n",
                "-printf %p|%-7F|%.2F|%05F|%10D|%-10D|%.3D\\n", "-printf %p|%Z|%5Z|%-3Z|\\n", "-type l -printf %Z",
                "-printf %p|%.2d|%-08.3d|%+.4d|%08.4d|% d|%.0d\\n", "-printf %p|%.5m|%#.5m|%+.4m|%08.4m|%#08m|%-#6m|\\n",
                "-printf %p|%.2s|%-08.3s|%08.4s|%.2i|%08k|%.1b|%-4n|%.2M|%5y|%-3Y\\n",
                "-printf %p|%.2a|%-30.3c|%.10t|%.5A@|%10T@\\n",
                "-printf x\\cy", "-printf x\\", "-printf %-5%|%5%|%%\\n", "-ls", "-name acl-file -ls", "-newermt 2024-01-15", "-newermt 2024-01-15T10:30:00",
                "-uid 0", "-uid +0", "-gid -1", "-user root -uid 0", "-inum +1000", "-inum -1000", "-fstype ext4", "-fstype proc",
                "! -fstype tmpfs -type f"));
        StringBuilder letters = new StringBuilder("-printf %p");
        for (char c : "aAbBcCdDeFgGhHIjklmMnpPrRsStTuUVwWxXyYzZ+@%EOq1".toCharArray()) {
            letters.append("|%T").append(c).append("|%A").append(c).append("|%C").append(c);
        }
        e.add(letters.append("\\n").toString());
        return e.stream();
    }

    @ParameterizedTest
    @MethodSource("expressions")
    void sameAsGnuFind(String expression) throws Exception {
        List<String> args = concat(List.of("find", "."), Arrays.asList(expression.split(" ")));
        Result gnu = run(tree, args, null);
        Result ours = brisk(tree, args, null);
        assertThat(records(ours.out())).as("records of: %s%n%s", expression, ours.errText())
                .containsExactlyElementsOf(records(gnu.out()));
        assertThat(ours.status()).as("status of %s; %s vs %s", expression, ours.errText(), gnu.errText()).isEqualTo(gnu.status());
        assertThat(messages(ours)).as("messages of %s", expression).isEqualTo(messages(gnu));
    }

    /** {@code %F} and {@code %D} on the file systems this machine mounts: proc, sysfs, devtmpfs, tmpfs, the root's. */
    @Test
    void fileSystemTypesAsGnuFind() throws Exception {
        List<String> args = List.of("find", "/", "/proc", "/sys", "/dev", "/dev/shm", "/tmp", tree.toString(), "-maxdepth", "0",
                "-printf", "%p %F %D %S\\n");
        Result gnu = run(tree, args, null);
        Result ours = brisk(tree, args, null);
        assertThat(records(ours.out())).containsExactlyElementsOf(records(gnu.out())).anyMatch(l -> l.startsWith("/proc proc "));
        assertThat(ours.status()).isEqualTo(gnu.status());
    }

    /** Date forms of {@code -newermt} that GNU's parse_datetime reads: the same files, or GNU's refusal. */
    @ParameterizedTest
    @ValueSource(strings = {"2024-01-15 10:30", "2024-01-15 10:29:59", "2024-01-15", "2024-1-5", "now", "today", "yesterday",
            "tomorrow", "1 day ago", "2 days ago", "3 hours ago", "-1 day", "+2 hours", "1 week ago", "2 minutes ago",
            "Jan 15 2024", "15 Jan 2024", "January 15, 2024", "2024-01-15 10:30:00Z", "@1705314600", "yesterday 12:00",
            "2023-12-31 23:59:59", "2024-03-01T00:00:00", "2024-01-15 10:30:00 UTC", "last week", "noon", "midnight",
            "bogus", "2024-13-45", "next fortnight", "15 Janvier 2024", "", "10pm", "10:30 am", "12am", "monday", "last monday",
            "next friday", "tue 10:00", "1/15/2024", "01/15/24", "2024/01/15", "20240115", "20240115 1030", "24-01-15",
            "15-Jan-2024", "Mon Jan 15 10:30:00 UTC 2024", "2024-01-15 10", "2024-01-15 10:30 EST", "2024-01-15 10:30 CET",
            "2024-01-15 10:30 +0100", "now - 1 day", "1 day ago + 2 hours", "2 weeks 3 days ago", "Sep. 1, 2024", "13pm"})
    void newerDatesAsGnuFind(String date) throws Exception {
        List<String> args = List.of("find", ".", "-newermt", date);
        Result gnu = run(tree, args, null);
        Result ours = brisk(tree, args, null);
        assertThat(ours.status()).as("status for '%s': %s", date, ours.errText()).isEqualTo(gnu.status());
        assertThat(records(ours.out())).as("'%s'", date).containsExactlyElementsOf(records(gnu.out()));
        assertThat(messages(ours)).as("'%s'", date).isEqualTo(messages(gnu));
    }

    /** Forms GNU reads in ways too surprising to copy (a military zone letter, a zone before a unit): refused, never guessed. */
    @ParameterizedTest
    @ValueSource(strings = {"a day ago", "10:30 +2 hours"})
    void surprisingDatesAreRefused(String date) throws Exception {
        Result ours = brisk(tree, List.of("find", ".", "-newermt", date), null);
        assertThat(ours.status()).isEqualTo(1);
        assertThat(ours.errText()).isEqualTo("find: I cannot figure out how to interpret ‘" + date + "’ as a date or time\n");
        assertThat(ours.out()).isEmpty();
    }

    @Test
    void badArgumentsAsGnuFind() throws Exception {
        for (List<String> bad : List.of(List.of("-used"), List.of("-used", "x"), List.of("-used", "3x"), List.of("-used", ""),
                List.of("-context"), List.of("-context", "*:s0"), List.of("-printf", "%{"), List.of("-printf", "%["),
                List.of("-printf", "%5"), List.of("-printf", "a%"), List.of("-printf", "%-"))) {
            List<String> args = concat(List.of("find", "."), bad);
            Result gnu = run(tree, args, null);
            Result ours = brisk(tree, args, null);
            assertThat(ours.status()).as("%s: %s", bad, ours.errText()).isEqualTo(gnu.status()).isEqualTo(1);
            assertThat(messages(ours)).as("%s", bad).isEqualTo(messages(gnu)).hasSize(1);
            assertThat(ours.out()).isEmpty();
        }
    }

    /** Unknown escapes and directives: GNU's warnings once, the text printed as written, status 0. */
    @Test
    void warningsBeforeAnErrorAsGnuFind() throws Exception {
        for (List<String> bad : List.of(List.of("-printf", "%z%{"), List.of("-printf", "%z", "-bogus"),
                List.of("-printf", "\\q", "-printf", "%["))) {
            List<String> args = concat(List.of("find", "one"), bad);
            Result gnu = run(tree, args, null);
            Result ours = brisk(tree, args, null);
            assertThat(ours.errText()).as("%s", bad).isEqualTo(gnu.errText()).contains("warning");
            assertThat(ours.status()).isEqualTo(gnu.status()).isEqualTo(1);
            assertThat(ours.out()).isEmpty();
        }
    }

    @Test
    void formatWarningsAsGnuFind() throws Exception {
        List<String> args = List.of("find", "one", "-printf", "\\q|%e|%-5e|\\z|%5T");
        Result gnu = run(tree, args, null);
        Result ours = brisk(tree, args, null);
        assertThat(ours.out()).isEqualTo(gnu.out());
        assertThat(ours.status()).isEqualTo(gnu.status()).isZero();
        assertThat(messages(ours)).isEqualTo(messages(gnu)).hasSize(5);
    }

    /** {@code %TZ} and friends name the zone as glibc does, summer and winter, in zones other than UTC. */
    @Test
    void zoneNamesOutsideUtcAsGnuFind() throws Exception {
        for (String zone : List.of("America/New_York", "Europe/Berlin", "Europe/London", "Asia/Kolkata", "Asia/Riyadh",
                "Australia/Adelaide")) {
            List<String> args = List.of("find", "jan15", "march", "daybefore", "-printf", "%p %TZ %AZ %CZ %Tc\\n");
            Result gnu = run(tree, concat(List.of("env", "TZ=" + zone), args), null);
            Result ours = brisk(tree, List.of("env", "TZ=" + zone), args, null);
            assertThat(ours.out()).as(zone).isEqualTo(gnu.out());
            assertThat(ours.status()).isEqualTo(gnu.status()).isZero();
        }
        // a July time, for the summer names
        Path july = tree.resolve("july");
        run(tree, List.of("touch", "-d", "2024-07-15 12:00:00 UTC", "july"), null);
        try {
            for (String zone : List.of("America/New_York", "Europe/Berlin", "Europe/London")) {
                List<String> args = List.of("find", "july", "-printf", "%TZ %Tc\\n");
                Result gnu = run(tree, concat(List.of("env", "TZ=" + zone), args), null);
                Result ours = brisk(tree, List.of("env", "TZ=" + zone), args, null);
                assertThat(ours.out()).as(zone).isEqualTo(gnu.out()).isNotEmpty();
            }
        } finally {
            java.nio.file.Files.deleteIfExists(july);
        }
    }

    /** Widths of megabytes are written out (in chunks); beyond C's int, GNU's EOVERFLOW report and status 1. */
    @Test
    void hugeWidthsAsGnuFind() throws Exception {
        for (String format : List.of("[%3000000d]", "[%-3000000p]", "[%+03000000d]", "[%.3000000d]", "[%02000001m]",
                "%99999999999p|\\n", "%.99999999999p|%d\\n")) {
            List<String> args = List.of("find", "one", "-printf", format);
            Result gnu = run(tree, args, null);
            Result ours = brisk(tree, args, null);
            assertThat(ours.out()).as(format).isEqualTo(gnu.out());
            assertThat(ours.errText()).as(format).isEqualTo(gnu.errText());
            assertThat(ours.status()).as(format).isEqualTo(gnu.status());
        }
    }

    @Test
    void inumFindsTheFile() throws Exception {
        String ino = new String(run(tree, List.of("stat", "-c", "%i", "one"), null).out(), java.nio.charset.StandardCharsets.UTF_8).trim();
        for (String form : List.of(ino, "-" + ino, "+" + ino)) {
            List<String> args = List.of("find", ".", "-inum", form);
            Result gnu = run(tree, args, null);
            Result ours = brisk(tree, args, null);
            assertThat(records(ours.out())).as(form).containsExactlyElementsOf(records(gnu.out()));
        }
        assertThat(records(brisk(tree, List.of("find", ".", "-inum", ino), null).out())).containsExactly("./one");
    }

    /**
     * {@code -files0-from}: roots from a NUL-separated list (a file or standard input), a missing
     * last NUL, a zero-length name (skipped with a message), a missing root, a list that cannot
     * be opened or read, roots given as well, standard input with {@code -ok}.
     */
    @Test
    void files0FromAsGnuFind(@TempDir Path lists) throws Exception {
        java.nio.file.Files.write(lists.resolve("roots"), "dir\0one\0nope\0-dash-not-here\0link\0".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        java.nio.file.Files.write(lists.resolve("holes"), "dir\0\0one".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        java.nio.file.Files.write(lists.resolve("empty"), new byte[0]);
        String roots = lists.resolve("roots").toString(), holes = lists.resolve("holes").toString();
        // standard input through a shell pipe: find may exit before reading it, and a write would then fail here
        List<String> feed = List.of("bash", "-c", "printf 'one\\0dir\\0' | \"$@\"", "sh");
        for (List<String> line : List.of(List.of("-files0-from", roots), List.of("-files0-from", roots, "-maxdepth", "0", "-type", "f"),
                List.of("-maxdepth", "0", "-files0-from", holes), List.of("-files0-from", lists.resolve("empty").toString()),
                List.of("-files0-from", lists.resolve("absent").toString()), List.of("-files0-from", lists.toString()),
                List.of(".", "-files0-from", roots), List.of("-files0-from"), List.of("-files0-from", "-", "-maxdepth", "0"),
                List.of("-files0-from", "-", "-ok", "echo", "{}", ";"), List.of("-L", "-files0-from", roots, "-maxdepth", "1"))) {
            List<String> args = concat(List.of("find"), line);
            Result gnu = run(tree, concat(feed, args), null);
            Result ours = brisk(tree, feed, args, null);
            assertThat(records(ours.out())).as("%s", line).containsExactlyElementsOf(records(gnu.out()));
            assertThat(ours.status()).as("%s: %s", line, ours.errText()).isEqualTo(gnu.status());
            assertThat(messages(ours)).as("%s", line).isEqualTo(messages(gnu));
        }
    }

    /** stderr lines, sorted, with GNU's curly quotes as ASCII ones. */
    private static List<String> messages(Result r) {
        return r.errText().replace('\u2018', '\'').replace('\u2019', '\'').lines().sorted().toList();
    }
}
