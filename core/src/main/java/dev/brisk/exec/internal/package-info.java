// SPDX-License-Identifier: Apache-2.0
/**
 * The engine of {@link dev.brisk.exec}: {@link dev.brisk.exec.internal.FastWorker} (a warm shell
 * that runs one job after another with output in anonymous files) and
 * {@link dev.brisk.exec.internal.AnonymousFile}.
 */
package dev.brisk.exec.internal;
