// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.walk.WalkOptions;
import java.util.List;

/**
 * A parsed find command line: the roots, the walk options, the expression (with the implicit
 * {@code -print} added), {@code -mindepth}, brisk's own {@code --debug}, the warnings GNU
 * find would print before walking (such as an unknown {@code -printf} escape), and the errors it
 * reports and walks on (a zero-length name in {@code -files0-from}'s list), which make the exit
 * status 1.
 */
record Plan(List<byte[]> roots, WalkOptions options, Expr expr, int minDepth, boolean debug, List<String> warnings,
        List<String> errors) {}
