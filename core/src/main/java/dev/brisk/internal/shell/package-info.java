// SPDX-License-Identifier: Apache-2.0
/**
 * What the warm shell pool and the job runner share about shells: {@code ShellSpec} (which
 * shell, its environment and command line; where setsid(1) is), {@code ProcessSweep} (signals
 * every process of a session, the worker excepted), and the one classifier of command text,
 * {@code CommandShape} with its word list {@code ShellWords} (keywords and builtins of bash and
 * dash), and {@code ShellQuote}, brisk's one quoting of bytes for the shell (every layer that
 * writes shell code calls it). Not exported.
 */
package dev.brisk.internal.shell;
