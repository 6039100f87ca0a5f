// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

/**
 * The entry point the launcher uses for {@code brisk find ...} (with {@code find} as the first
 * argument, as {@link Main} would receive it). {@link Main} does the same dispatch, but it refers
 * to picocli's classes, which the JVM then loads from their jar at every start (the AOT cache
 * cannot keep them), before find has done anything.
 */
public final class FindMain {
    private FindMain() {}

    public static void main(String[] args) {
        FindCommand.exit(FindCommand.main(args));
    }
}
