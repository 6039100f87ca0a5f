// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A command line run by GNU parallel and by brisk at once, in a test's directory, for the differential ITs. */
final class GnuRuns {
    private GnuRuns() {}

    /** What a run printed (bytes read as ISO-8859-1) and its status. */
    record Out(String stdout, String stderr, int status) {}

    /**
     * GNU parallel's run of {@code gnu} and brisk's of {@code ours} (bash scripts in {@code dir},
     * {@code $B} the launcher {@code brisk}, stdin {@code /dev/null}) at once: the reference
     * first. brisk's must end within 30 s. GNU parallel 20221122 itself hangs now and then
     * ({@code --pipe --bin 1 -j3 ... < file}: 1 run in 40 here): a reference run that has not
     * ended in 30 s is run again, twice at most.
     */
    static Out[] both(Path dir, Path brisk, String gnu, String ours) throws IOException, InterruptedException {
        Process[] p = new Process[2];
        Path[][] files = new Path[2][];
        String[] scripts = {gnu, ours};
        try {
            for (int i = 0; i < 2; i++) {
                files[i] = new Path[] {Files.createTempFile(dir, "o", ""), Files.createTempFile(dir, "e", "")};
                p[i] = start(dir, brisk, scripts[i], files[i]);
            }
            Out[] out = new Out[2];
            for (int i = 0; i < 2; i++) {
                boolean ended = p[i].waitFor(30, TimeUnit.SECONDS);
                for (int again = 0; !ended && i == 0 && again < 2; again++) {
                    p[0].descendants().forEach(ProcessHandle::destroyForcibly);
                    p[0].destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    p[0] = start(dir, brisk, scripts[0], files[0]);
                    ended = p[0].waitFor(30, TimeUnit.SECONDS);
                }
                assertThat(ended).as("finished: %s", scripts[i]).isTrue();
                out[i] = new Out(Files.readString(files[i][0], StandardCharsets.ISO_8859_1),
                        Files.readString(files[i][1], StandardCharsets.ISO_8859_1), p[i].exitValue());
            }
            return out;
        } finally {
            for (Process x : p) {
                if (x != null) {
                    x.descendants().forEach(ProcessHandle::destroyForcibly);
                    x.destroyForcibly();
                }
            }
        }
    }

    /** {@code bash -c script} in {@code dir} ({@code $B} the launcher), stdin {@code /dev/null}, stdout and stderr to {@code files} (truncated). */
    private static Process start(Path dir, Path brisk, String script, Path[] files) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.toFile());
        pb.environment().put("B", brisk.toString());
        pb.redirectOutput(files[0].toFile()).redirectError(files[1].toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return pb.start();
    }

    /**
     * {@code parallel --will-cite ARGS} and {@code brisk par ARGS}: the same stdout, stderr (GNU's
     * {@code parallel: Error:} read as {@code brisk par:}, {@code parallel: Warning:} as
     * {@code brisk par: Warning:}) and status.
     */
    static void assertSame(Path dir, Path brisk, String args) throws IOException, InterruptedException {
        Out[] runs = both(dir, brisk, "parallel --will-cite " + args, "\"$B\" par " + args);
        Out gnu = runs[0];
        Out ours = runs[1];
        assertThat(ours.stdout()).as("stdout of %s (stderr: %s)", args, ours.stderr()).isEqualTo(gnu.stdout());
        assertThat(ours.stderr()).as("stderr of %s", args)
                .isEqualTo(gnu.stderr().replace("parallel: Error: ", "brisk par: ").replace("parallel: Warning: ", "brisk par: Warning: "));
        assertThat(ours.status()).as("status of %s", args).isEqualTo(gnu.status());
    }
}
