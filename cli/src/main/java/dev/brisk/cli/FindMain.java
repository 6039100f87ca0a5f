// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

/**
 * The entry point the launcher uses for {@code brisk find ...} (with {@code find} as the first
 * argument, as {@link Main} would receive it). {@link Main} does the same dispatch, but it refers
 * to picocli's classes, which the JVM then loads from their jar at every start (the AOT cache
 * cannot keep them), before find has done anything. With {@link Main} and {@link Docs}, one of
 * the three classes that end the JVM.
 */
public final class FindMain {
    private FindMain() {}

    /**
     * Runs find and ends the JVM with its status once standard output and error are flushed. It
     * halts rather than exits: find registers no shutdown hooks, and {@code System.exit} would
     * first start the JDK's logging to record the exit, which costs a cold JVM milliseconds.
     */
    public static void main(String[] args) {
        int status = FindCommand.main(args);
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }
}
