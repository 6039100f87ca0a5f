// SPDX-License-Identifier: Apache-2.0
/**
 * The engine of {@link dev.brisk.exec}: {@link dev.brisk.exec.internal.JobShell} (a warm shell
 * that runs one job after another with output in anonymous files),
 * {@link dev.brisk.exec.internal.Spawner} (simple jobs and pipelines spawned directly, on the
 * shared {@code dev.brisk.internal.posix.Spawn}), {@link dev.brisk.exec.internal.AnonymousFile},
 * {@link dev.brisk.exec.internal.HeldOutput} ({@code -k}), {@code LinePrefixer} ({@code --tag}),
 * {@code JobLogFile}, {@code ResultsDir}, {@code RunningMedian}. Not exported.
 */
package dev.brisk.exec.internal;
