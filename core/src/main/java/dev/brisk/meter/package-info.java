// SPDX-License-Identifier: Apache-2.0
/**
 * A pipe meter: copies data between files, pipes, channels or streams as fast as the kernel
 * allows ({@code splice(2)}, {@code copy_file_range(2)}, {@code sendfile(2)}, or read/write with
 * one reused buffer) while reporting progress, and optionally limiting the rate.
 *
 * <p>Start with {@link dev.brisk.meter.Meter}: give it {@link dev.brisk.meter.MeterOptions} and a
 * {@link dev.brisk.meter.ProgressListener}, then copy. A {@link dev.brisk.meter.RateLimiter} may be
 * shared by several copies. Time comes from a {@link dev.brisk.meter.Ticker}, so rates and ETAs
 * are computed ({@link dev.brisk.meter.ProgressTracker}) and tested without sleeping.
 * {@link dev.brisk.meter.StatusLine} renders pv's status line and
 * {@link dev.brisk.meter.StderrDisplay} draws it on a terminal.
 */
package dev.brisk.meter;
