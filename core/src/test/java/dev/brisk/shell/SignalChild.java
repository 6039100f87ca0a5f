// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

/**
 * Run in a child JVM by {@link PoolShortcutsTest}, started with SIGHUP ignored (as under nohup):
 * prints the ignored-signal mask a command sees when spawned directly, then through the shell.
 */
public final class SignalChild {
    private SignalChild() {}

    public static void main(String[] args) {
        try (ShellPool pool = ShellPool.builder().workers(1).build()) {
            System.out.println(pool.run("grep SigIgn /proc/self/status").stdoutText().trim());
            System.out.println(pool.run("command grep SigIgn /proc/self/status").stdoutText().trim());
        }
    }
}
