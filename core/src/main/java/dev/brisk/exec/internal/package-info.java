// SPDX-License-Identifier: Apache-2.0
/**
 * The engine of {@link dev.brisk.exec}: {@link dev.brisk.exec.internal.JobRun} (one run of a
 * {@code JobRunner}, its slot threads pulling from {@code JobFeed}), the slots
 * ({@code SpawnSlot}: {@link dev.brisk.exec.internal.JobShell}, a warm shell that runs one job
 * after another with output in anonymous files, and {@link dev.brisk.exec.internal.Spawner},
 * simple jobs and pipelines spawned directly on the shared
 * {@code dev.brisk.internal.posix.Spawn}; {@code StreamSlot}; {@code RemoteSlot} on
 * {@link dev.brisk.exec.internal.Hosts}), {@code InputOrder} and
 * {@link dev.brisk.exec.internal.HeldOutput} ({@code -k}), {@code HaltPolicy}, {@code Pacing},
 * {@code JobPrinter} and {@code LinePrefixer} ({@code --tag}), {@code JobLogFile},
 * {@code ResultsDir}, {@code RunningMedian}; and the command line's helpers that are no library
 * API: {@link dev.brisk.exec.internal.CpuTopology}, {@link dev.brisk.exec.internal.SlurmHosts},
 * {@link dev.brisk.exec.internal.SlurmSubmit}, {@link dev.brisk.exec.internal.EarlyConnections}.
 * Not exported.
 */
package dev.brisk.exec.internal;
