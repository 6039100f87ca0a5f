// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The JVM command the find tests start {@code brisk find} with (up to its main class): the
 * launcher's flags and, as {@code ./brisk} has, an AOT cache of find's classes, trained afresh
 * by the first find test of each test JVM with the launcher's own training ({@link
 * FindTraining}), next to the jar. Without it each of the ~500 starts of brisk find in the tests
 * loads and links its classes anew. Never a cache from an earlier run: JDK 25.0.3 accepts a
 * cache made from an older jar and runs the cache's classes (JDK-8377932). When the training
 * fails, the command runs without a cache (slower, the same results) and says so on stderr.
 */
final class FindJvm {
    private static List<String> command;

    private FindJvm() {}

    /** {@code java}, its flags, {@code -cp} and the jar: the main class and arguments follow. */
    static synchronized List<String> command() {
        if (command == null) {
            command = make();
        }
        return command;
    }

    private static List<String> make() {
        String java = System.getProperty("brisk.java", "java");
        Path jar = Path.of(System.getProperty("brisk.jar", "cli/target/brisk.jar"));
        List<String> base = List.of(java, "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-XX:-MaxFDLimit", "-XX:-UsePerfData");
        Path aot = jar.resolveSibling("it-find.aot");
        List<String> cmd = new ArrayList<>(base);
        if (trained(base, jar, aot)) {
            cmd.addAll(List.of("-XX:AOTCache=" + aot, "-Xlog:aot=off", "-Xlog:cds=off",
                    "-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTReplayTraining"));
        } else {
            cmd.add("-Xshare:auto");
        }
        cmd.addAll(List.of("-cp", jar.toString()));
        return List.copyOf(cmd);
    }

    /** Trains {@code aot} from the current jars; true when it is there to use. */
    private static boolean trained(List<String> base, Path jar, Path aot) {
        Process p = null;
        try {
            Files.deleteIfExists(aot);
            Path tmp = aot.resolveSibling(aot.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            List<String> train = new ArrayList<>(base);
            train.addAll(List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining", "-XX:AOTCacheOutput=" + tmp,
                    "-Xlog:aot=off", "-Xlog:cds=off", "-cp", jar.toString(), "dev.brisk.cli.FindTraining"));
            p = new ProcessBuilder(train).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            if (!p.waitFor(45, TimeUnit.SECONDS) || p.exitValue() != 0 || !Files.exists(tmp)) {
                System.err.println("FindJvm: no AOT cache (its training " + (p.isAlive() ? "took over 45 s" : "ended " + p.exitValue())
                        + "): brisk find starts without one");
                return false;
            }
            Files.move(tmp, aot, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (IOException e) {
            System.err.println("FindJvm: no AOT cache (" + e.getMessage() + "): brisk find starts without one");
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            if (p != null && p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }
}
