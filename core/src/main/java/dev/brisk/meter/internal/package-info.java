// SPDX-License-Identifier: Apache-2.0
/**
 * The meter's engine: the zero-copy calls on the shared system-call layer ({@link dev.brisk.meter.internal.Sys}),
 * the descriptor copy loop that picks splice, copy_file_range, sendfile or read/write
 * ({@link dev.brisk.meter.internal.FdTransfer}), the channel loop for JVM callers
 * ({@link dev.brisk.meter.internal.ChannelTransfer}), the shared counters, the reporting thread, and the row claims of cursor mode
 * ({@link dev.brisk.meter.internal.RowClaim}).
 * Not exported.
 */
package dev.brisk.meter.internal;
