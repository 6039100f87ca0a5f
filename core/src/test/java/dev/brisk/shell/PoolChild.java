// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

import java.util.concurrent.CompletableFuture;

/**
 * Run in a child JVM by {@link ShellPoolLifecycleTest}: starts a pool, leaves commands running
 * with the marker in their command line, prints the worker pids, then waits to be killed (KILL)
 * or, told to on stdin, exits without closing the pool (EXIT).
 */
public final class PoolChild {
    private PoolChild() {}

    public static void main(String[] args) throws Exception {
        String marker = args[0];
        ShellPool pool = ShellPool.builder().workers(2).build();
        String a = pool.run("sleep " + marker + " & echo $$").stdoutText().trim();
        CompletableFuture<CommandResult> running = pool.submit(Command.of("sleep " + marker));
        CompletableFuture<CommandResult> other = pool.submit(Command.of("echo $$; sleep " + marker));
        Thread.sleep(300);
        System.out.println(a);
        System.out.flush();
        System.in.read();
        if (args[1].equals("EXIT")) {
            System.exit(0);
        }
        running.join();
        other.join();
    }
}
