// SPDX-License-Identifier: Apache-2.0
/**
 * The machinery behind {@link dev.brisk.shell.ShellPool}: one {@link
 * dev.brisk.shell.internal.Worker} per warm shell, the loop script it runs, the watchdog that
 * cleans up after a JVM killed without warning, and the process sweeps that enforce timeouts.
 * Not exported.
 */
package dev.brisk.shell.internal;
