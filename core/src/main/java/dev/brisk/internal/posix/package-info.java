// SPDX-License-Identifier: Apache-2.0
/**
 * Linux system calls through the FFM API ({@code java.lang.foreign}), shared by every part of
 * brisk: one {@link dev.brisk.internal.posix.Libc} with errno capture, and
 * {@link dev.brisk.internal.posix.PosixException}. Not exported.
 */
package dev.brisk.internal.posix;
