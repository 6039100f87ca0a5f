// SPDX-License-Identifier: Apache-2.0
/**
 * The find engine: {@code Parser} (command line to a {@code Plan} of {@code Expr} nodes),
 * {@code Predicates} (find's tests), {@code Actions}, {@code Printf}, {@code Glob},
 * {@code ExecRunner} ({@code -exec}/{@code -ok} on the shared
 * {@code dev.brisk.internal.posix.Spawn}), per-thread output buffers ({@code Ctx},
 * {@code Output}), {@code RunState} (what every thread of a run sees) and {@code FindRun}. It
 * uses the walker through its public API ({@link dev.brisk.walk}) only. Not exported.
 */
package dev.brisk.find.internal;
