// SPDX-License-Identifier: Apache-2.0
/**
 * The one layer between brisk and Linux, through the FFM API ({@code java.lang.foreign}) and one
 * JNI method of brisk's own; no other package binds a native function. Not exported.
 *
 * <ul>
 *   <li>{@link dev.brisk.internal.posix.Syscall}: the one way to make a system call (on x86-64
 *       brisk's own {@code syscall} instruction without errno capture, by JNI ({@code Kernel}
 *       writes and loads the shared object that holds it) or through the linker, else the C
 *       library's {@code syscall(2)} with it) and the call numbers (x86-64, aarch64);
 *       {@link dev.brisk.internal.posix.Uring}: one thread's io_uring, for batches of opens and
 *       closes;
 *       {@link dev.brisk.internal.posix.CFunction}: C functions that return their error (the
 *       {@code posix_spawn} family), bound with Syscall's shape. One FFM shape per JVM, so a
 *       command's start-up pays for one.</li>
 *   <li>{@link dev.brisk.internal.posix.Errno} (errno numbers, per-thread capture, messages),
 *       {@link dev.brisk.internal.posix.Flags} (O_*, AT_*, F_*, POLL*),
 *       {@link dev.brisk.internal.posix.Signals}: the constants, in one place each.</li>
 *   <li>{@link dev.brisk.internal.posix.Libc}: descriptor, file and process calls that throw
 *       {@link dev.brisk.internal.posix.PosixException}; {@code strerror} and any C function a
 *       caller binds with {@code downcall} are bound on first use.</li>
 *   <li>{@link dev.brisk.internal.posix.Spawn} (the one spawn builder),
 *       {@link dev.brisk.internal.posix.ProgramPath} (the one PATH rule),
 *       {@link dev.brisk.internal.posix.WaitStatus} (the one wait-status decoder: 128+N),
 *       {@link dev.brisk.internal.posix.Environ} (our environment and ARG_MAX).</li>
 *   <li>{@link dev.brisk.internal.posix.Statx}: {@code statx(2)} and the one decoder of its buffer.</li>
 * </ul>
 */
package dev.brisk.internal.posix;
