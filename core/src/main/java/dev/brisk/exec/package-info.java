// SPDX-License-Identifier: Apache-2.0
/**
 * Runs a command per input item, several at once, on warm shells: GNU parallel's model as a
 * library. A {@link dev.brisk.exec.Template} (replacement strings, shell-quoted substitution)
 * is rendered for each job of an {@link dev.brisk.exec.ArgumentSource} (built from
 * {@link dev.brisk.exec.ItemSource}s: delimited input, lists, {@link dev.brisk.exec.TreeItems})
 * and run by a {@link dev.brisk.exec.JobRunner} as {@link dev.brisk.exec.JobOptions} say;
 * each job ends as a {@link dev.brisk.exec.JobResult}, the run as a
 * {@link dev.brisk.exec.RunSummary}. Jobs run here, or on other hosts as
 * {@link dev.brisk.exec.RemoteOptions} say ({@code -S}, {@code --slf}, {@code --slurm}: one warm
 * shell per host behind one channel). A run reads and prints the standard streams of its
 * caller ({@code dev.brisk.internal.posix.DescriptorStream}): this process's, or a warm
 * server's client's.
 * Names and arguments are bytes throughout. Only what a library user calls is here; the engine
 * (slots, hosts, the feed, ordering, the halt policy) is {@code dev.brisk.exec.internal}, not
 * exported.
 */
package dev.brisk.exec;
