// SPDX-License-Identifier: Apache-2.0
/**
 * The find engine: {@code Parser} (command line to a {@code Plan} of {@code Expr} nodes),
 * {@code Tests}, {@code Actions}, {@code Printf}, {@code Glob}, {@code Spawner} (posix_spawnp
 * through FFM), per-thread output buffers ({@code Ctx}, {@code Output}) and {@code FindRun}.
 * Not exported.
 */
package dev.brisk.find.internal;
