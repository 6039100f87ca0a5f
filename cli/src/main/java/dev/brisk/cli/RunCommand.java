// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.shell.Command;
import dev.brisk.shell.CommandResult;
import dev.brisk.shell.ShellPool;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code brisk run}: runs shell commands on a pool of warm shells, each one's output printed
 * whole and in the order given.
 */
@picocli.CommandLine.Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run shell commands on a pool of warm shells.",
                "Each COMMAND (or, with none, each line of standard input) runs isolated in its own "
                        + "subshell; its stdout then its stderr are printed whole, in input order."},
        footer = {"", "Exit status: 0 if every command exited 0, else 1; 2 usage error."})
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Shells to run at once (default: one per core).")
    int jobs = Runtime.getRuntime().availableProcessors();

    @Option(names = "--shell", paramLabel = "SHELL", description = "Shell to run commands with (default: bash).")
    String shell = "bash";

    @Option(names = "--timeout", paramLabel = "SECS", description = "Kill a command's process group after SECS seconds.")
    Double timeout;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "Shell commands.")
    List<String> commands = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        if (jobs < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--jobs must be at least 1, got " + jobs);
        }
        if (timeout != null && !(timeout > 0)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--timeout must be positive, got " + timeout);
        }
        List<String> todo = commands;
        if (todo.isEmpty()) {
            todo = new ArrayList<>();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                if (!line.isBlank()) {
                    todo.add(line);
                }
            }
        }
        int failed = 0;
        PrintStream out = System.out;
        try (ShellPool pool = ShellPool.builder().workers(jobs).shell(shell).build()) {
            List<CompletableFuture<CommandResult>> futures = new ArrayList<>();
            for (String c : todo) {
                Command cmd = Command.of(c);
                if (timeout != null) {
                    cmd = cmd.timeout(Duration.ofNanos((long) (timeout * 1e9)));
                }
                futures.add(pool.submit(cmd));
            }
            for (int i = 0; i < futures.size(); i++) {
                CommandResult r = futures.get(i).join();
                out.write(r.stdout());
                out.flush();
                System.err.write(r.stderr());
                System.err.flush();
                if (!r.ok()) {
                    failed++;
                    if (r.timedOut()) {
                        System.err.println("brisk run: timed out: " + todo.get(i));
                    }
                }
            }
        }
        return failed == 0 ? ExitCode.OK.code() : ExitCode.FAILURE.code();
    }
}
