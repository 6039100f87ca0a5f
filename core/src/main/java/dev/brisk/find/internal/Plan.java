// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.walk.WalkOptions;
import java.util.List;

/**
 * A parsed find command line: the roots, the walk options, the expression (with the implicit
 * {@code -print} added), {@code -mindepth}, brisk's own {@code --debug}, the warnings GNU
 * find would print before walking (such as an unknown {@code -printf} escape), and the errors it
 * reports and walks on (a zero-length name in {@code -files0-from}'s list), which make the exit
 * status 1; and what the run must close at its end: the files of {@code -fprint} and its kin, and
 * the runner of {@code -exec} and its kin (null when there is none).
 */
record Plan(List<byte[]> roots, WalkOptions options, Expr expr, int minDepth, boolean debug, List<String> warnings,
        List<String> errors, List<FileOutput> files, ExecRunner runner) {}
