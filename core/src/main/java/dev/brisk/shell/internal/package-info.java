// SPDX-License-Identifier: Apache-2.0
/**
 * The machinery behind {@link dev.brisk.shell.ShellPool}: one {@link
 * dev.brisk.shell.internal.Worker} per warm shell (its FIFOs, control line and poll loop), the
 * loop script it runs ({@code WorkerScript}), {@code DirectExec} and {@code SpawnedCommand}
 * (simple commands run without the shell, as the shell would run them), the watchdog that
 * cleans up after a JVM killed without warning, and {@code WorkerFactory}. Not exported.
 */
package dev.brisk.shell.internal;
