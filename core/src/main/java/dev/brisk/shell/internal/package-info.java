// SPDX-License-Identifier: Apache-2.0
/**
 * The machinery behind {@link dev.brisk.shell.ShellPool}: one {@link
 * dev.brisk.shell.internal.Worker} per warm shell (the command driver: control line and poll
 * loop), its FIFOs ({@code FifoChannels}: status and output channels, their drain and
 * replacement), its command and input files ({@code CommandFiles}), the status parser ({@code
 * StatusLines}), the kill schedule ({@code KillSchedule}) and where its TERM went ({@code
 * TermTarget}), the loop script it runs ({@code
 * WorkerScript}), {@code DirectExec} and {@code SpawnedCommand} (simple commands run without
 * the shell, as the shell would run them), the watchdog that cleans up after a JVM killed
 * without warning, and {@code WorkerFactory}. Not exported.
 */
package dev.brisk.shell.internal;
